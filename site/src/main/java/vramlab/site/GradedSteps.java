package vramlab.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The graded steps of the kit as the site needs them: each step marked in {@code solutions/}
 * ({@code // lab:begin N.M "Title" see chNN "Section"} ... {@code // lab:end}, the markers the
 * lab generator reads), its reference body, and the test classes that grade it (the classes
 * under {@code chapters/}{@code *}{@code /src/test/java} with {@code @Graded(step = "N.M")}).
 */
public final class GradedSteps {
    /** The lab generator's markers ({@code vramlab.labgen.LabGenerator}), read the same way. */
    static final Pattern BEGIN = Pattern.compile("^(\\s*)// lab:begin (\\d+\\.\\d+) \"([^\"]+)\" see (.+)$");
    static final Pattern END = Pattern.compile("^\\s*// lab:end\\s*$");
    /**
     * The lab generator's reference-only region ({@code // lab:shortcut begin} ... {@code end}),
     * which {@code labs/} replaces by its {@code // labs: } lines, uncommented (HACKING.adoc).
     */
    static final Pattern SHORTCUT_BEGIN = Pattern.compile("^\\s*// lab:shortcut begin\\s*$");
    static final Pattern SHORTCUT_END = Pattern.compile("^\\s*// lab:shortcut end\\s*$");
    static final Pattern LABS_LINE = Pattern.compile("^(\\s*)// labs: ?(.*)$");
    private static final Pattern GRADED = Pattern.compile("@Graded\\(\\s*step\\s*=\\s*\"(\\d+\\.\\d+)\"");

    /** One step: where it is, what it is called, its body (the lines between its markers). */
    public record Step(String id, String title, String see, Path file, int beginLine, List<String> body,
            Set<String> gradedBy) {
        /** The one line that stands for the body in the student edition (without indentation). */
        public String placeholder() {
            String by = gradedBy.isEmpty() ? "" : " (graded by " + String.join(", ", gradedBy) + ")";
            return "// step " + id + ": you write this" + by;
        }

        /**
         * The body's lines that say something: trimmed, without blank lines, comments and lone
         * braces. A test looks for these in rendered pages.
         */
        public List<String> telltaleLines() {
            List<String> out = new ArrayList<>();
            for (String l : body) {
                String t = l.trim();
                if (t.length() < 8 || t.startsWith("//") || t.matches("[{}();\\s]*")) continue;
                out.add(t);
            }
            return out;
        }
    }

    private final Map<String, Step> steps;
    private final Set<String> outside;

    private GradedSteps(Map<String, Step> steps, Set<String> outside) {
        this.steps = steps;
        this.outside = outside;
    }

    /** Every step under {@code root/solutions/src/main/java}, graded-by read from {@code root/chapters}. */
    public static GradedSteps of(Path root) {
        Map<String, Set<String>> gradedBy = gradedBy(root.resolve("chapters"));
        Map<String, Step> steps = new LinkedHashMap<>();
        Set<String> outside = new java.util.HashSet<>();
        List<Path> sources = new ArrayList<>(javaFiles(root.resolve("solutions/src/main/java")));
        for (Path p : javaFiles(root.resolve("chapters"))) {
            if (p.toString().replace('\\', '/').contains("/src/main/java/")) sources.add(p);
        }
        for (Path p : sources) outside.addAll(linesOutsideSteps(read(p)));
        for (Path p : javaFiles(root.resolve("solutions/src/main/java"))) {
            for (Step s : stepsIn(p, read(p), gradedBy)) {
                Step old = steps.put(s.id(), s);
                if (old != null) {
                    throw new IllegalStateException("step " + s.id() + " is marked twice: " + old.file() + ":"
                            + old.beginLine() + " and " + s.file() + ":" + s.beginLine());
                }
            }
        }
        return new GradedSteps(steps, outside);
    }

    /**
     * A step's telltale lines that appear nowhere else in the kit's main sources: a page that
     * shows one of them shows the step's body, not some other code that happens to read alike.
     */
    public List<String> distinctiveLines(Step s) {
        return s.telltaleLines().stream().filter(l -> !outside.contains(l)).toList();
    }

    /** Trimmed lines of a source that lie outside every step's markers. */
    static Set<String> linesOutsideSteps(String text) {
        Set<String> out = new java.util.HashSet<>();
        boolean in = false;
        for (String l : text.lines().toList()) {
            if (BEGIN.matcher(l).matches()) in = true;
            else if (END.matcher(l).matches()) in = false;
            else if (!in) out.add(l.trim());
        }
        return out;
    }

    public List<Step> all() { return List.copyOf(steps.values()); }

    public Step get(String id) { return steps.get(id); }

    /** The steps marked in one file's text, in order; a marker without its partner is an error. */
    static List<Step> stepsIn(Path file, String text, Map<String, Set<String>> gradedBy) {
        List<Step> out = new ArrayList<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = BEGIN.matcher(lines.get(i));
            if (!m.matches()) {
                if (END.matcher(lines.get(i)).matches()) {
                    throw new IllegalStateException(file + ":" + (i + 1) + ": lab:end without lab:begin");
                }
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && !END.matcher(lines.get(end)).matches()) {
                if (BEGIN.matcher(lines.get(end)).matches()) {
                    throw new IllegalStateException(file + ":" + (end + 1) + ": lab:begin inside a step");
                }
                end++;
            }
            if (end == lines.size()) throw new IllegalStateException(file + ":" + (i + 1) + ": lab:begin without lab:end");
            String id = m.group(2);
            out.add(new Step(id, m.group(3), m.group(4), file, i + 1, List.copyOf(lines.subList(i + 1, end)),
                    gradedBy.getOrDefault(id, Set.of())));
            i = end;
        }
        return out;
    }

    /** Step id -> the simple names of the test classes whose {@code @Graded} names it. */
    static Map<String, Set<String>> gradedBy(Path chapters) {
        Map<String, Set<String>> out = new TreeMap<>();
        if (!Files.isDirectory(chapters)) return out;
        for (Path p : javaFiles(chapters)) {
            if (!p.toString().replace('\\', '/').contains("/src/test/java/")) continue;
            Matcher m = GRADED.matcher(read(p));
            String cls = p.getFileName().toString().replaceAll("\\.java$", "");
            while (m.find()) out.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(cls);
        }
        return out;
    }

    static List<Path> javaFiles(Path dir) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
