package vramlab.labgen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Makes the student's copy of the cores from the reference. A step is marked in
 * {@code solutions/} like this, and must end its method's body:
 * <pre>
 *     // lab:begin 3.2 "Find a block" see ch03 "Rule 3: best fit"
 *     ...the reference code...
 *     // lab:end
 * }
 * </pre>
 * and becomes, in {@code labs/}, one line that throws {@code vramlab.lab.Todo} with the step,
 * its title, the notes to read and the file to edit. Everything else is copied unchanged.
 *
 * <p>Usage: {@code LabGenerator <solutions-dir> <labs-dir>} writes labs; with {@code --list}
 * it prints the steps instead.
 */
public final class LabGenerator {
    static final Pattern BEGIN =
            Pattern.compile("^(\\s*)// lab:begin (\\d+\\.\\d+) \"([^\"]+)\" see (.+)$");
    static final Pattern END = Pattern.compile("^\\s*// lab:end\\s*$");

    /** One marked step. */
    public record Step(String id, String title, String notes, String file, int line) {}

    private LabGenerator() {}

    /** The labs text for one source file; {@code labsPath} names the file in the Todo message. */
    public static String transform(String source, String labsPath) {
        List<String> lines = source.lines().toList();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = BEGIN.matcher(lines.get(i));
            if (!m.matches()) {
                checkNoStrayMarker(lines.get(i), labsPath, i);
                out.append(lines.get(i)).append('\n');
                continue;
            }
            int end = findEnd(lines, i, labsPath);
            out.append(m.group(1)).append("throw new vramlab.lab.Todo(").append(quote(m.group(2)))
               .append(", ").append(quote(m.group(3))).append(", ").append(quote(m.group(4)))
               .append(", ").append(quote(labsPath)).append(");\n");
            i = end;
        }
        return out.toString();
    }

    private static int findEnd(List<String> lines, int begin, String file) {
        for (int j = begin + 1; j < lines.size(); j++) {
            if (BEGIN.matcher(lines.get(j)).matches()) {
                throw new IllegalArgumentException(file + ":" + (j + 1) + ": lab:begin inside a step");
            }
            if (END.matcher(lines.get(j)).matches()) {
                int k = j + 1;
                while (k < lines.size() && lines.get(k).isBlank()) k++;
                if (k >= lines.size() || !lines.get(k).trim().equals("}")) {
                    throw new IllegalArgumentException(file + ":" + (j + 1)
                            + ": a step must end its method's body, but '}' does not follow lab:end");
                }
                return j;
            }
        }
        throw new IllegalArgumentException(file + ":" + (begin + 1) + ": lab:begin without lab:end");
    }

    private static void checkNoStrayMarker(String line, String file, int i) {
        if (line.contains("// lab:begin") || END.matcher(line).matches()) {
            throw new IllegalArgumentException(file + ":" + (i + 1)
                    + ": malformed or unmatched step marker: " + line.trim()
                    + " (expected // lab:begin N.M \"Title\" see NOTES ... // lab:end)");
        }
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** One quoted Java string literal, escapes allowed. */
    private static final String QUOTED = "\"((?:[^\"\\\\]|\\\\.)*)\"";
    private static final Pattern STUB = Pattern.compile("throw new vramlab\\.lab\\.Todo\\(" + QUOTED + ", " + QUOTED
            + ", " + QUOTED + ", " + QUOTED + "\\);");

    /**
     * The steps of a generated tree (a student release's {@code cores/}, which has no solutions):
     * read back from the {@code Todo} lines that {@link #transform} writes, so each step's id, title
     * and notes are the same as {@link #steps} gives on the reference; the line is the Todo's own.
     */
    public static List<Step> stepsFromStubs(Path generatedModule) {
        List<Step> steps = new ArrayList<>();
        for (Path p : javaFiles(generatedModule.resolve("src/main/java"))) {
            List<String> lines = read(p).lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = STUB.matcher(lines.get(i));
                if (m.find()) {
                    steps.add(new Step(unquote(m.group(1)), unquote(m.group(2)), unquote(m.group(3)), unquote(m.group(4)), i + 1));
                }
            }
        }
        return steps;
    }

    private static String unquote(String s) { return s.replaceAll("\\\\(.)", "$1"); }

    /** Every file the labs tree should hold, by path relative to the module, with its text. */
    public static Map<String, String> generate(Path solutionsModule) {
        Map<String, String> out = new TreeMap<>();
        for (Path p : javaFiles(solutionsModule.resolve("src/main/java"))) {
            String rel = "src/main/java/" + solutionsModule.resolve("src/main/java").relativize(p)
                    .toString().replace('\\', '/');
            out.put(rel, transform(read(p), "labs/" + rel));
        }
        return out;
    }

    /** Every step marked under a solutions module, in file order. */
    public static List<Step> steps(Path solutionsModule) {
        List<Step> steps = new ArrayList<>();
        Path src = solutionsModule.resolve("src/main/java");
        for (Path p : javaFiles(src)) {
            List<String> lines = read(p).lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = BEGIN.matcher(lines.get(i));
                if (m.matches()) {
                    steps.add(new Step(m.group(2), m.group(3), m.group(4),
                            "labs/src/main/java/" + src.relativize(p).toString().replace('\\', '/'), i + 1));
                }
            }
        }
        return steps;
    }

    /** Writes the labs tree: every generated file, and removes Java files solutions no longer has. */
    public static void write(Path solutionsModule, Path labsModule) throws IOException {
        Map<String, String> files = generate(solutionsModule);
        for (Path old : javaFiles(labsModule.resolve("src/main/java"))) {
            String rel = "src/main/java/" + labsModule.resolve("src/main/java").relativize(old)
                    .toString().replace('\\', '/');
            if (!files.containsKey(rel)) Files.delete(old);
        }
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path target = labsModule.resolve(e.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, e.getValue(), StandardCharsets.UTF_8);
        }
    }

    static List<Path> javaFiles(Path root) {
        if (!Files.isDirectory(root)) return List.of();
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("--list")) {
            for (Step s : steps(Path.of(args[1]))) {
                System.out.println(s.id() + "  " + s.title() + "  (" + s.file() + ", notes: " + s.notes() + ")");
            }
            return;
        }
        if (args.length != 2) {
            System.err.println("usage: LabGenerator <solutions-dir> <labs-dir> | --list <solutions-dir>");
            System.exit(2);
        }
        write(Path.of(args[0]), Path.of(args[1]));
        System.out.println("labs regenerated: " + steps(Path.of(args[0])).size() + " steps");
    }
}
