package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Question;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;
import vramlab.quiz.grade.Kit;

/**
 * Makes fixture submissions the way students make them: from the reference sources (a correct
 * copy), from the generator's labs (an untouched one), with one file edited (broken, looping,
 * exiting), with answer sheets (the key, the blank sheet, another student's) and hostile code
 * that tries every way it knows to book points it did not earn.
 */
final class Submissions {
    private final Path root;
    private final Path subs;
    private final Salt salt;
    private Path untouched;

    Submissions(Path root, Path subs, Salt salt) {
        this.root = root;
        this.subs = subs;
        this.salt = salt;
    }

    Path solutions() { return root.resolve("solutions/src/main/java"); }

    /** The labs exactly as the generator makes them from solutions/: every step a Todo. */
    Path untouched() throws IOException {
        if (untouched != null) return untouched;
        Path dir = Files.createTempDirectory(subs.getParent(), "untouched");
        for (Map.Entry<String, String> f : vramlab.labgen.LabGenerator.generate(root.resolve("solutions")).entrySet()) {
            Path p = dir.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        untouched = dir.resolve("src/main/java");
        return untouched;
    }

    /** A change to a source file, by its path under the sources ({@code vramlab/alloc/ToyPolicy.java}). */
    @FunctionalInterface
    interface Edit {
        String apply(String file, String text);

        static Edit none() { return (f, t) -> t; }

        default Edit then(Edit next) { return (f, t) -> next.apply(f, apply(f, t)); }
    }

    /** Copies {@code sources} into {@code subs/id/labs/src/main/java}, each file through {@code edit}. */
    Path sources(String id, Path sources, Edit edit) throws IOException {
        Path to = subs.resolve(id).resolve("labs/src/main/java");
        try (Stream<Path> s = Files.walk(sources)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                String rel = sources.relativize(p).toString().replace('\\', '/');
                Path dest = to.resolve(rel);
                Files.createDirectories(dest.getParent());
                Files.writeString(dest, edit.apply(rel, Files.readString(p)));
            }
        }
        return subs.resolve(id);
    }

    /** An edit of one file: {@code find} must be in it, and each occurrence is replaced by {@code replace}. */
    static Edit edit(String file, String find, String replace) {
        return (f, text) -> {
            if (!f.equals(file)) return text;
            assertThat(text).as(file + " holds the text the fixture edits").contains(find);
            return text.replace(find, replace);
        };
    }

    /** The line (1-based) of the first occurrence of {@code find} in {@code file} under {@code sources}. */
    static int lineOf(Path sources, String file, String find) {
        try {
            List<String> lines = Files.readAllLines(sources.resolve(file));
            for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(find)) return i + 1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError(file + " has no line with " + find);
    }

    /** The chapters with quiz questions, and their questions in order. */
    static Map<String, List<Question>> chapters() {
        Map<String, List<Question>> out = new java.util.LinkedHashMap<>();
        for (Question q : Kit.registeredQuestions()) out.computeIfAbsent(q.chapter(), k -> new java.util.ArrayList<>()).add(q);
        return out;
    }

    /** Writes {@code id}'s sheets: the key of {@code whose} variant, for the chapters named (all when null). */
    void keySheets(String id, String whose, List<String> only) throws IOException {
        Path answers = Files.createDirectories(subs.resolve(id).resolve("labs/answers"));
        for (Map.Entry<String, List<Question>> e : chapters().entrySet()) {
            String ch = e.getKey();
            Variant v = Variant.of(ch, whose, salt);
            String text = only == null || only.contains(ch) ? AnswerSheet.key(ch, v, e.getValue())
                    : AnswerSheet.template(ch, Variant.of(ch, id, salt), e.getValue());
            Files.writeString(answers.resolve(ch + ".txt"), text, StandardCharsets.UTF_8);
        }
    }

    /** The blank sheets a student receives, for this student's variant. */
    void blankSheets(String id) throws IOException {
        Path answers = Files.createDirectories(subs.resolve(id).resolve("labs/answers"));
        for (Map.Entry<String, List<Question>> e : chapters().entrySet()) {
            Variant v = Variant.of(e.getKey(), id, salt);
            Files.writeString(answers.resolve(e.getKey() + ".txt"), AnswerSheet.template(e.getKey(), v, e.getValue()));
        }
    }

    /** Hostile code: a helper every hostile submission calls from a step body. */
    static final String FORGE = """
            package PACKAGE;

            import java.io.IOException;
            import java.nio.file.DirectoryStream;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;

            /** Every way this submission knows to book points it did not earn. */
            final class Forge {
                private Forge() {}

                static Error everything() {
                    System.setProperty("vramlab.student", "seed");
                    System.setProperty("vramlab.answers", System.getProperty("java.io.tmpdir"));
                    System.setProperty("vramlab.reference.classpath", System.getProperty("java.io.tmpdir"));
                    writeScoreFiles();
                    try {
                        return (Error) Class.forName("vramlab.quiz.PartialCredit")
                                .getConstructor(int.class, int.class, String.class).newInstance(99, 99, "fine");
                    } catch (ReflectiveOperationException e) {
                        return new AssertionError(e);
                    }
                }

                static void writeScoreFiles() {
                    Path here = Path.of(System.getProperty("user.dir")).toAbsolutePath();
                    try (DirectoryStream<Path> d = Files.newDirectoryStream(here, "uids-*.txt")) {
                        for (Path u : d) {
                            String n = u.getFileName().toString().replace("uids-", "results-");
                            StringBuilder sb = new StringBuilder();
                            for (String uid : Files.readAllLines(u)) {
                                sb.append("END\\t").append(uid).append("\\t9.9\\tforged\\t99\\t99\\tPASSED\\t\\t00\\n");
                            }
                            Files.writeString(here.resolve(n), sb, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                        }
                    } catch (IOException e) {
                        // nothing to forge here
                    }
                    Path p = here;
                    for (int up = 0; up < 3 && p != null; up++, p = p.getParent()) {
                        try {
                            Files.createDirectories(p.resolve("target/grading"));
                            Files.writeString(p.resolve("target/grading/scores.tsv"), "3.1\\tforged\\t2\\t2\\tPASSED\\t\\n");
                            if (Files.exists(p.resolve("gradebook.csv"))) {
                                Files.writeString(p.resolve("gradebook.csv"), "forged,999,999\\n", StandardOpenOption.APPEND);
                            }
                        } catch (IOException e) {
                            // not writable: go on
                        }
                    }
                }
            }
            """;

    /** Classes with the harness's names, full marks inside: the kit's come first on the class path. */
    static final Map<String, String> FAKES = Map.of(
            "vramlab/quiz/PartialCredit.java", """
                    package vramlab.quiz;

                    public class PartialCredit extends AssertionError {
                        public PartialCredit(int earned, int of, String message) { super(message); }
                        public int earned() { return 99; }
                        public int of() { return 99; }
                    }
                    """,
            "vramlab/quiz/grade/ChildRunner.java", """
                    package vramlab.quiz.grade;

                    public final class ChildRunner {
                        public static void main(String[] args) throws Exception {
                            java.nio.file.Files.writeString(java.nio.file.Path.of(args[1]), "DONE\\n");
                        }
                    }
                    """);

    /**
     * A hostile submission: the untouched labs, step {@code step}'s Todo replaced by a call of
     * {@link #FORGE}, the fake harness classes, and a planted score file of full marks.
     */
    Path forging(String id, String step) throws IOException {
        return forging(id, step, untouched(), "vramlab.alloc");
    }

    /** The same, on {@code sources}, with the hostile helper in package {@code pkg}. */
    Path forging(String id, String step, Path sources, String pkg) throws IOException {
        Path dir = sources(id, sources, forge(step, pkg));
        Path src = dir.resolve("labs/src/main/java");
        Files.writeString(src.resolve(pkg.replace('.', '/') + "/Forge.java"), FORGE.replace("PACKAGE", pkg));
        for (Map.Entry<String, String> f : FAKES.entrySet()) {
            Files.createDirectories(src.resolve(f.getKey()).getParent());
            Files.writeString(src.resolve(f.getKey()), f.getValue());
        }
        Files.createDirectories(dir.resolve("target/grading"));
        Files.writeString(dir.resolve("target/grading/scores.tsv"), "3.1\tstale\t2\t2\tPASSED\t\n");
        String text;
        try (Stream<Path> s = Files.walk(src)) {
            text = s.filter(p -> p.toString().endsWith(".java")).map(p -> {
                try {
                    return Files.readString(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).reduce("", String::concat);
        }
        assertThat(text).as("the forging call replaced step " + step + "'s Todo").contains("Forge.everything()");
        return dir;
    }

    /** Step {@code step}'s body (its Todo, or the reference's) replaced by a call of the hostile helper. */
    static Edit forge(String step, String pkg) {
        Pattern todo = Pattern.compile("throw new vramlab\\.lab\\.Todo\\(\"" + Pattern.quote(step) + "\",[^\\n]*");
        Pattern body = Pattern.compile("(?s)// lab:begin " + Pattern.quote(step) + " [^\\n]*\\n.*?// lab:end");
        String call = "throw " + pkg + ".Forge.everything();";
        return (f, text) -> body.matcher(todo.matcher(text).replaceAll(Matcher.quoteReplacement(call)))
                .replaceAll(Matcher.quoteReplacement(call + "\n"));
    }

    static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) Files.copy(p, to.resolve(p.getFileName().toString()));
        }
    }
}
