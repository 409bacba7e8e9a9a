package vramlab.quiz.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A graded step's body written out as an expression with other names and numbers: a hint's
 * {@code offset ^ (1 << order)} for the reference's {@code offset ^ (1L << order)}. Text
 * comparison ({@code StepBodies}) misses it; here each body's expressions are reduced to their
 * shape (every name, qualified name and call without arguments one {@code x}, every number too, {@code 1L} as {@code 1}, no spaces), and a text shows the body when its shape holds
 * one of them. Only expressions with at least two operators count, so a rule in words ("round
 * up", "ceil(n / 16)") is not a leak; a format string of a body counts as written.
 * Only expressions with a grouped term count, and never an n-bit mask alone.
 */
public final class ExpressionLeaks {
    private static final Pattern OPERATOR = Pattern.compile(">>>|<<|>>|[-+*/%^&|~]");
    private static final Pattern FORMAT = Pattern.compile("\"([^\"]*%[-0-9]*[sdx][^\"]*)\"");

    private final Map<String, Set<String>> shapes;
    /** Every line of every step's body, whitespace collapsed: never code a release may already ship. */
    private final Set<String> bodyLines;

    private ExpressionLeaks(Map<String, Set<String>> shapes, Set<String> bodyLines) {
        this.shapes = shapes;
        this.bodyLines = bodyLines;
    }

    /** The shapes of every step's body marked in {@code solutionsModule}. */
    public static ExpressionLeaks of(Path solutionsModule) throws IOException {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        Set<String> bodyLines = new LinkedHashSet<>();
        StepBodies.lines(solutionsModule).forEach((step, lines) -> {
            Set<String> mine = out.computeIfAbsent(step, k -> new LinkedHashSet<>());
            for (String line : lines) {
                if (!line.isBlank()) bodyLines.add(StepBodies.squash(line));
                String code = line.replaceAll("//.*$", "").strip();
                Matcher fm = FORMAT.matcher(code);
                while (fm.find()) if (fm.group(1).strip().length() >= 4) mine.add("\"" + filled(fm.group(1).strip()));
                for (String e : expressions(code)) {
                    // Loop headers, blocks and string building are not a rule's arithmetic.
                    if (e.contains("{") || e.contains(";") || e.contains("++") || e.contains("--") || e.startsWith("+")
                            || e.matches("x\\(.*")) continue;
                    // A rule's arithmetic has a grouped term and two operators; a sum ("a + b + c") or
                    // an n-bit mask ("(1 << n) - 1", a field's width from the contract) alone is not a body.
                    if (e.contains("(") && !e.equals("(x<<x)-x") && OPERATOR.matcher(e).results().count() >= 2) mine.add(e);
                }
            }
        });
        // A format string the generated labs hold (a contract's Javadoc quoting Linux's) tells nothing.
        StringBuilder labs = new StringBuilder();
        for (String text : vramlab.labgen.LabGenerator.generate(solutionsModule).values()) labs.append(filled(text)).append('\n');
        String everywhere = labs.toString();
        for (Set<String> set : out.values()) set.removeIf(e -> e.startsWith("\"") && everywhere.contains(e.substring(1)));
        out.values().removeIf(Set::isEmpty);
        return new ExpressionLeaks(out, bodyLines);
    }

    /** The whole right-hand side of a line and every parenthesised group in it, as shapes. */
    static List<String> expressions(String code) {
        String c = code.replaceAll("\"[^\"]*\"", "s").replaceFirst("^return\\s+", "").replaceFirst(";\\s*$", "")
                .replaceFirst("^[\\w<>\\[\\], .]+\\s+\\w+\\s*=(?!=)", "").replaceFirst("^\\w+\\s*[-+*/|&^]?=(?!=)", "");
        String shape = shape(c);
        List<String> out = new ArrayList<>();
        out.add(shape);
        for (int i = 0; i < shape.length(); i++) {
            if (shape.charAt(i) != '(') continue;
            int depth = 0;
            for (int j = i; j < shape.length(); j++) {
                if (shape.charAt(j) == '(') depth++;
                else if (shape.charAt(j) == ')' && --depth == 0) {
                    out.add(shape.substring(i + 1, j));
                    break;
                }
            }
        }
        return out;
    }

    /** Names and calls without arguments to {@code x}, numbers to {@code 0}, casts and spaces dropped. */
    static String shape(String text) {
        String t = text.replaceAll("\\((?:int|long|short|byte)\\)", "")
                .replaceAll("\\b0x[0-9a-fA-F_]+[lL]?\\b|\\b\\d[\\d_]*[lL]?\\b", "x")
                .replaceAll("[A-Za-z_][\\w]*(?:\\s*\\.\\s*[A-Za-z_]\\w*)*(?:\\s*\\(\\s*\\))?", "x")
                .replaceAll("\\s+", "");
        return t;
    }

    /** A format string or a text with every conversion and number one {@code #}, spaces collapsed. */
    static String filled(String text) {
        return text.replaceAll("%[-+ 0-9.]*[a-zA-Z]|\\d+", "#").replaceAll("\\s+", " ");
    }

    /** The steps whose body {@code text} shows, each with the shape found. */
    public List<String> shownIn(String text) {
        String plain = filled(text);
        String hay = shape(text);
        List<String> out = new ArrayList<>();
        shapes.forEach((step, set) -> {
            for (String s : set) {
                boolean hit = s.startsWith("\"") ? plain.contains(s.substring(1)) : hay.contains(s);
                if (hit) {
                    out.add("step " + step + " (" + s + ")");
                    return;
                }
            }
        });
        return out;
    }

    public Map<String, Set<String>> shapes() { return shapes; }

    /**
     * One line per file under {@code dir} that shows a step's body as an expression: what a
     * student reads, that is the string literals of Java sources (hints, help, messages) and the
     * whole of notes, pages, JShell files and a playground's bundle ({@link #isBundle}); the generated cores ({@code labs/}, {@code cores/})
     * are {@code StepBodies}' to check.
     *
     * <p>A line of a page that is, word for word, a line of code {@code dir} itself ships outside
     * every step (a listing included by tag from a core no step grades, such as ch03's
     * {@code splitFront}, or from the toolkit) tells a student nothing the sources beside it do
     * not, and is not read: a shape is a short fragment ({@code (x-x)*x}), and such a listing can
     * resemble one line of a body without being it. A line of a step's body never counts as
     * shipped, wherever it is copied, and a line with a string literal is read as text.
     */
    public List<String> shownIn(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> p.toString().matches(".*\\.(java|adoc|jsh|html|txt|md)$") || isBundle(p)).sorted().toList();
        }
        Set<String> shipped = shippedCode(files);
        for (Path f : files) {
            String rel = dir.relativize(f).toString().replace('\\', '/');
            if (rel.startsWith("labs/") || rel.startsWith("cores/")) continue;
            String text = Files.readString(f, StandardCharsets.UTF_8);
            if (rel.endsWith(".html")) text = StepBodies.plainText(text);
            if (rel.endsWith(".java")) text = literals(text);
            else if (!isBundle(f)) text = withoutLines(text, shipped);
            for (String l : shownIn(text)) out.add(rel + ": shows the body of " + l);
        }
        return out;
    }

    /**
     * The lines of code the Java sources among {@code files} hold, whitespace collapsed: not a
     * step's body line, not one with a string literal (a hint is read wherever it is).
     */
    Set<String> shippedCode(List<Path> files) throws IOException {
        Set<String> out = new java.util.HashSet<>();
        for (Path f : files) {
            if (!f.toString().endsWith(".java")) continue;
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                String sq = StepBodies.squash(line);
                if (!sq.isEmpty() && !sq.contains("\"") && !bodyLines.contains(sq)) out.add(sq);
            }
        }
        return out;
    }

    /** {@code text} without the lines that are, whitespace collapsed, one of {@code lines}. */
    static String withoutLines(String text, Set<String> lines) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\\R", -1)) {
            if (!lines.contains(StepBodies.squash(line))) sb.append(line).append('\n');
        }
        return sb.toString();
    }

    /**
     * A playground's browser bundle ({@code vramlab-playground.js}: cores compiled to JavaScript
     * by TeaVM): read whole, since minified code keeps a body's shape ({@code (a+b+c-1)/c}) though
     * not its names. Other scripts (reveal.js) are not the kit's code and are not read.
     */
    static boolean isBundle(Path p) {
        String n = p.getFileName().toString();
        return n.endsWith(".js") && n.contains("playground") && !n.contains("-ui");
    }

    /** The string literals of a Java source, one a line, those joined by {@code +} read as one. */
    public static String literals(String java) {
        String joined = java.replaceAll("\"\\s*\\+\\s*\"", "");
        Matcher m = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*+)\"").matcher(joined);
        StringBuilder sb = new StringBuilder();
        while (m.find()) sb.append(m.group(1).replace("\\\"", "\"")).append('\n');
        return sb.toString();
    }
}
