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
 * its title, the notes to read and the file to edit.
 *
 * <p>Reference-only code, a shortcut that would spell out a step's body or skip the student's
 * step (e.g. {@code WholeSegmentRelease}, a faster path to what step 3.5 does), is marked so:
 * <pre>
 *     // lab:shortcut begin
 *     // labs: release.releaseWholeFreeSegments();
 *     ...the reference's faster code...
 *     // lab:shortcut end
 * </pre>
 * In {@code labs/} the region becomes its {@code // labs: } lines, uncommented at their own
 * indentation (none: the region goes), so the reference keeps its speed and the labs edition
 * runs the student's step. Everything else is copied unchanged.
 *
 * <p>{@code labs/src/main/java} is not kept in git: the build makes it ({@link #sync}, run by
 * labgen's own {@code pom.xml} before its tests) and keeps it up to date with {@code solutions/},
 * so a core change is made once. A student's copy ({@code labs/STUDENT_COPY}, or a student release
 * with {@code RELEASE.txt} at its root) is never written over: there the sync only creates the
 * sources when there are none at all.
 *
 * <p>Usage: {@code LabGenerator --sync [--force] <solutions-dir> <labs-dir>} (the build; see
 * {@link #sync}); {@code LabGenerator <solutions-dir> <labs-dir>} is the sync with {@code --force}
 * (refused in a student's copy); with {@code --list <solutions-dir>} it prints the steps.

 */
public final class LabGenerator {
    static final Pattern BEGIN =
            Pattern.compile("^(\\s*)// lab:begin (\\d+\\.\\d+) \"([^\"]+)\" see (.+)$");
    static final Pattern END = Pattern.compile("^\\s*// lab:end\\s*$");
    static final Pattern SHORTCUT_BEGIN = Pattern.compile("^\\s*// lab:shortcut begin\\s*$");
    static final Pattern SHORTCUT_END = Pattern.compile("^\\s*// lab:shortcut end\\s*$");
    /** A labs line inside a shortcut region: {@code // labs: code}, written as {@code code}. */
    static final Pattern LABS_LINE = Pattern.compile("^(\\s*)// labs: ?(.*)$");

    /** One marked step. */
    public record Step(String id, String title, String notes, String file, int line) {}

    private LabGenerator() {}

    /** The labs text for one source file; {@code labsPath} names the file in the Todo message. */
    public static String transform(String source, String labsPath) { return transform(source, labsPath, id -> true); }

    /**
     * As {@link #transform(String, String)}, but only the steps {@code stub} names become a
     * {@code Todo}; every other step keeps its reference body, markers included (a student who
     * has written those steps: the step-order check's cores).
     */
    public static String transform(String source, String labsPath, java.util.function.Predicate<String> stub) {
        List<String> lines = source.lines().toList();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            if (SHORTCUT_BEGIN.matcher(lines.get(i)).matches()) {
                i = shortcut(lines, i, labsPath, out);
                continue;
            }
            Matcher m = BEGIN.matcher(lines.get(i));
            if (!m.matches()) {
                checkNoStrayMarker(lines.get(i), labsPath, i);
                out.append(lines.get(i)).append('\n');
                continue;
            }
            if (!stub.test(m.group(2))) {
                int end = findEnd(lines, i, labsPath);
                for (int j = i; j <= end; j++) out.append(lines.get(j)).append('\n');
                i = end;
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

    /** Writes a shortcut region's {@code // labs: } lines; returns the index of its end marker. */
    private static int shortcut(List<String> lines, int begin, String file, StringBuilder out) {
        for (int j = begin + 1; j < lines.size(); j++) {
            String line = lines.get(j);
            if (SHORTCUT_END.matcher(line).matches()) return j;
            if (line.contains("// lab:")) {
                throw new IllegalArgumentException(file + ":" + (j + 1) + ": step or shortcut marker inside a shortcut: "
                        + line.trim() + " (expected // lab:shortcut end first)");
            }
            Matcher m = LABS_LINE.matcher(line);
            if (m.matches()) out.append(m.group(1)).append(m.group(2)).append('\n');
        }
        throw new IllegalArgumentException(file + ":" + (begin + 1) + ": lab:shortcut begin without lab:shortcut end");
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
        if (line.contains("// lab:begin") || END.matcher(line).matches() || line.contains("// lab:shortcut")) {
            throw new IllegalArgumentException(file + ":" + (i + 1)
                    + ": malformed or unmatched step marker: " + line.trim()
                    + " (expected // lab:begin N.M \"Title\" see NOTES ... // lab:end, or // lab:shortcut begin ..."
                    + " // lab:shortcut end)");
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

    /** The file in labs/ that makes labs/ the student's: no build or command writes over it. */
    public static final String STUDENT_MARKER = "STUDENT_COPY";
    /** The file at a student release's root ({@code ./vramlab release}); the same as {@code KitPaths.RELEASE_MARKER}. */
    public static final String RELEASE_MARKER = "RELEASE.txt";
    /**
     * In labs/, beside src/ and out of git: each file the sync wrote, with the SHA-256 of what it
     * wrote. A file whose text still has that hash was not edited since, so the next sync may
     * replace it; any other text is someone's work and is left alone.
     */
    public static final String MANIFEST = ".labgen-written";

    /**
     * What {@link #sync} did to a labs/ module: the files (paths relative to it) it wrote and
     * removed, those it left alone because they were edited by hand, and, when it touched nothing
     * on purpose, why ({@code null} otherwise).
     */
    public record Synced(List<String> written, List<String> removed, List<String> edited, String leftAlone) {
        /** One line for the build's log, or null when there is nothing to say. */
        public String summary() {
            if (leftAlone != null) return null;
            StringBuilder sb = new StringBuilder();
            if (!written.isEmpty() || !removed.isEmpty()) {
                sb.append("labgen: labs/ generated from solutions/: ").append(written.size()).append(" files written");
                if (!removed.isEmpty()) sb.append(", ").append(removed.size()).append(" removed");
            }
            if (!edited.isEmpty()) {
                if (sb.length() > 0) sb.append('\n');
                sb.append("labgen: left ").append(edited.size()).append(" files of labs/ alone: they differ from what solutions/"
                        + " generates and labgen did not write them (first: ").append(edited.get(0))
                  .append("). Your own work? touch labs/STUDENT_COPY and labs/ is yours. Stale? ./vramlab labgen --force");
            }
            return sb.length() == 0 ? null : sb.toString();
        }
    }

    /**
     * Is {@code labsModule} a student's copy, which nothing may write over? It is when it holds
     * {@code STUDENT_COPY}, or lies in a student release ({@code RELEASE.txt} beside it); the
     * answer is why, or null for the maintainers' generated copy.
     */
    public static String studentsCopy(Path labsModule) {
        Path abs = labsModule.toAbsolutePath().normalize();
        if (Files.exists(abs.resolve(STUDENT_MARKER))) return "labs/" + STUDENT_MARKER + " exists: labs/ is the student's";
        if (abs.getParent() != null && Files.exists(abs.getParent().resolve(RELEASE_MARKER))) {
            return "a student release (" + RELEASE_MARKER + "): labs/ is the student's";
        }
        return null;
    }

    /**
     * Brings {@code labs/src/main/java} up to date with {@code solutions/}, as the build does. In
     * the maintainers' copy: a missing file is written, a file that is still what an earlier sync
     * wrote ({@link #MANIFEST}) is replaced, one that solutions no longer has is removed, and a
     * file edited by hand is left alone and named ({@code force} replaces it too). In a student's
     * copy ({@link #studentsCopy}) nothing that exists is ever written over, removed or replaced,
     * with or without {@code force}: only a labs/ with no Java file at all gets the generated
     * sources (a student's first build). Without {@code solutions/} (a release) it does nothing.
     */
    public static Synced sync(Path solutionsModule, Path labsModule, boolean force) throws IOException {
        Path src = labsModule.resolve("src/main/java");
        if (!Files.isDirectory(solutionsModule.resolve("src/main/java"))) {
            return new Synced(List.of(), List.of(), List.of(), "no " + solutionsModule + "/src/main/java to generate from");
        }
        String students = studentsCopy(labsModule);
        if (students != null) {
            if (!javaFiles(src).isEmpty()) {
                return new Synced(List.of(), List.of(), List.of(), students);
            }
            List<String> written = new ArrayList<>();
            for (Map.Entry<String, String> e : generate(solutionsModule).entrySet()) {
                Path target = labsModule.resolve(e.getKey());
                if (Files.exists(target)) continue;                // never over anything of theirs
                Files.createDirectories(target.getParent());
                Files.writeString(target, e.getValue(), StandardCharsets.UTF_8);
                written.add(e.getKey());
            }
            return new Synced(written, List.of(), List.of(), null);
        }
        Map<String, String> files = generate(solutionsModule);
        Map<String, String> before = readManifest(labsModule);
        Map<String, String> after = new TreeMap<>();
        List<String> written = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        List<String> edited = new ArrayList<>();
        for (Path old : javaFiles(src)) {
            String rel = "src/main/java/" + src.relativize(old).toString().replace('\\', '/');
            if (files.containsKey(rel)) continue;
            if (force || sha256(read(old)).equals(before.get(rel))) {
                Files.delete(old);
                removed.add(rel);
            } else {
                edited.add(rel);
                if (before.containsKey(rel)) after.put(rel, before.get(rel));
            }
        }
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path target = labsModule.resolve(e.getKey());
            String want = e.getValue();
            if (Files.exists(target)) {
                String have = read(target);
                if (have.equals(want)) {
                    after.put(e.getKey(), sha256(want));
                    continue;
                }
                if (!force && !sha256(have).equals(before.get(e.getKey()))) {
                    edited.add(e.getKey());
                    if (before.containsKey(e.getKey())) after.put(e.getKey(), before.get(e.getKey()));
                    continue;
                }
            }
            Files.createDirectories(target.getParent());
            Files.writeString(target, want, StandardCharsets.UTF_8);
            after.put(e.getKey(), sha256(want));
            written.add(e.getKey());
        }
        if (!after.equals(before)) writeManifest(labsModule, after);
        return new Synced(written, removed, edited, null);
    }

    private static Map<String, String> readManifest(Path labsModule) {
        Map<String, String> m = new TreeMap<>();
        Path f = labsModule.resolve(MANIFEST);
        if (!Files.isRegularFile(f)) return m;
        for (String line : read(f).lines().toList()) {
            int sp = line.indexOf("  ");
            if (!line.startsWith("#") && sp > 0) m.put(line.substring(sp + 2), line.substring(0, sp));
        }
        return m;
    }

    private static void writeManifest(Path labsModule, Map<String, String> m) throws IOException {
        StringBuilder sb = new StringBuilder("# labgen: the files it wrote in labs/ and the SHA-256 of what it wrote (not in git)\n");
        m.forEach((rel, sha) -> sb.append(sha).append("  ").append(rel).append('\n'));
        Files.writeString(labsModule.resolve(MANIFEST), sb.toString(), StandardCharsets.UTF_8);
    }

    static String sha256(String text) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (byte b : d) sb.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
            return sb.toString();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
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
        if (args.length >= 3 && args[0].equals("--sync")) {
            boolean force = args.length == 4 && args[1].equals("--force");
            if (args.length != (force ? 4 : 3)) {
                System.err.println("usage: LabGenerator --sync [--force] <solutions-dir> <labs-dir>");
                System.exit(2);
            }
            String said = sync(Path.of(args[args.length - 2]), Path.of(args[args.length - 1]), force).summary();
            if (said != null) System.out.println(said);
            return;
        }
        if (args.length == 2 && args[0].equals("--list")) {
            for (Step s : steps(Path.of(args[1]))) {
                System.out.println(s.id() + "  " + s.title() + "  (" + s.file() + ", notes: " + s.notes() + ")");
            }
            return;
        }
        if (args.length != 2) {
            System.err.println("usage: LabGenerator --sync [--force] <solutions-dir> <labs-dir> | <solutions-dir> <labs-dir>"
                    + " | --list <solutions-dir>");
            System.exit(2);
        }
        String students = studentsCopy(Path.of(args[1]));
        if (students != null) {
            System.err.println("error: labgen: " + args[1] + ": " + students + "; nothing written");
            System.exit(2);
        }
        sync(Path.of(args[0]), Path.of(args[1]), true);
        System.out.println("labs regenerated: " + steps(Path.of(args[0])).size() + " steps");
    }
}
