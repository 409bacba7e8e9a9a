package vramlab.quiz.grade;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;
import vramlab.quiz.NotesSection;
import vramlab.quiz.Question;
import vramlab.quiz.build.CoreBuild;
import vramlab.quiz.feedback.RereadPlaces;

/**
 * What grading takes from the kit, never from a submission: the reference cores, the compiled
 * graded tests, the classes they run with, the quiz questions (loaded here, on the reference
 * cores, so keys come from the reference simulator), and which core each lab step is in.
 *
 * @param referenceCore    the compiled reference cores ({@code solutions/target/classes})
 * @param testRoots        the compiled test folders whose {@code @Graded} tests are the lab items
 * @param runtime          what the graded tests need besides the cores, kit first
 * @param questions        every chapter's quiz questions
 * @param stepCores        each marked lab step's core ({@code 3.4 -> alloc}), from the step markers
 * @param referenceSources the reference's sources ({@code solutions/src/main/java}), or null
 * @param rereads          the section of the notes to reread under each question that lost points,
 *                         by question id, as {@code quiz --check} says it ({@link NotesSection#ofQuestions}):
 *                         read on first use, since it reads every chapter's notes (about half a second)
 *                         and {@code check}, which marks no quiz, never needs it
 * @param stepRereads      a graded step's failure with its {@code Reread:} line's place in the notes named
 *                         from the kit's root, as {@code rereads} name the quiz's ({@link RereadPlaces#fromRoot}):
 *                         what {@code grade}'s reports and results.json carry; {@code check} names it
 *                         from where the student stands instead, so {@link #forLabItems} leaves it as the test wrote it
 */
public record Kit(Path referenceCore, List<Path> testRoots, List<Path> runtime, List<Question> questions,
                  Map<String, String> stepCores, Path referenceSources, Supplier<Map<String, NotesSection>> rereads,
                  UnaryOperator<String> stepRereads) {

    public Kit {
        testRoots = List.copyOf(testRoots);
        runtime = List.copyOf(runtime);
        questions = List.copyOf(questions);
        stepCores = Map.copyOf(stepCores);
        rereads = readOnce(rereads);
    }

    /** A kit without step markers: an item's step is then in no known core (see {@link #coreOfStep}). */
    public Kit(Path referenceCore, List<Path> testRoots, List<Path> runtime, List<Question> questions) {
        this(referenceCore, testRoots, runtime, questions, Map.of(), null, Map::of, UnaryOperator.identity());
    }

    /**
     * The kit built under {@code root} ({@code mvn -q -DskipTests package} compiles everything
     * needed). In a student release there is no reference: the cores as handed out (every step a
     * Todo) stand in for a core that does not compile, and there are no quiz questions to mark,
     * since their keys need the reference simulator.
     */
    public static Kit locate(Path root) throws IOException {
        boolean release = KitPaths.isRelease(root);
        Path core = need(KitPaths.standIn(root));
        List<Path> runtime = runtime(root);
        List<Path> tests = new ArrayList<>();
        try (Stream<Path> s = Files.list(root.resolve("chapters"))) {
            for (Path ch : s.sorted().toList()) {
                if (Files.isDirectory(ch.resolve("target/test-classes"))) tests.add(ch.resolve("target/test-classes"));
            }
        }
        if (release) {
            Path cores = root.resolve("cores/src/main/java");
            // The practice numbers' keys, hashed (vramlab.quiz.PracticeKey): the release has no simulator to compute keys.
            return new Kit(core, tests, runtime, vramlab.quiz.PracticeKey.inRelease(root), stepCoresFromTodos(cores), cores,
                    () -> rereadsInRelease(root), RereadPlaces.fromRoot(root)::in);
        }
        List<Question> registered = registeredQuestions();
        return new Kit(core, tests, runtime, registered, stepCores(root.resolve("solutions")),
                root.resolve("solutions/src/main/java"), () -> NotesSection.ofQuestions(root, registered),
                RereadPlaces.fromRoot(root)::in);
    }

    /**
     * The kit built under {@code root} for running lab items alone, the graded tests of
     * {@code testRoots}: what {@link #locate} finds, less the quiz questions and the step markers,
     * which {@code check} never uses. {@code locate} instantiates every chapter's questions and
     * parses every reference source for its markers: about 0.15 s of CPU (measured beside this,
     * a loaded 2-core machine) of each {@code ./vramlab check}.
     */
    public static Kit forLabItems(Path root, List<Path> testRoots) throws IOException {
        return new Kit(need(KitPaths.standIn(root)), testRoots, runtime(root), List.of());
    }

    /**
     * What the graded tests run with besides the cores, kit first: the harness (the quiz
     * module's classes), every chapter's classes, the toolkit's, then the jars of
     * {@code quiz/target/grader.classpath}.
     */
    private static List<Path> runtime(Path root) throws IOException {
        List<Path> runtime = new ArrayList<>();
        runtime.add(need(root.resolve("quiz/target/classes")));
        try (Stream<Path> s = Files.list(root.resolve("chapters"))) {
            for (Path ch : s.sorted().toList()) {
                if (Files.isDirectory(ch.resolve("target/classes"))) runtime.add(ch.resolve("target/classes"));
            }
        }
        if (Files.isDirectory(root.resolve("toolkit/target/classes"))) runtime.add(root.resolve("toolkit/target/classes"));
        for (String jar : Files.readString(need(root.resolve("quiz/target/grader.classpath"))).strip()
                .split(File.pathSeparator)) {
            if (!jar.isBlank()) runtime.add(Path.of(jar));
        }
        return runtime;
    }

    /** {@code read}, run once, on the first {@code get} (its answer kept, unmodifiable); a supplier made so already is kept. */
    private static Supplier<Map<String, NotesSection>> readOnce(Supplier<Map<String, NotesSection>> read) {
        if (read instanceof ReadOnce) return read;
        return new ReadOnce(read);
    }

    private static final class ReadOnce implements Supplier<Map<String, NotesSection>> {
        private final Supplier<Map<String, NotesSection>> read;
        private Map<String, NotesSection> value;

        ReadOnce(Supplier<Map<String, NotesSection>> read) { this.read = read; }

        @Override
        public synchronized Map<String, NotesSection> get() {
            if (value == null) value = Map.copyOf(read.get());
            return value;
        }
    }

    /**
     * A release's sections to reread: from the question classes, which it holds too (the questions
     * it marks, the practice key's, name none), as {@code quiz --check} reads them there; none
     * when they cannot be loaded on this class path (the grade itself never rests on them).
     */
    private static Map<String, NotesSection> rereadsInRelease(Path root) {
        try {
            return NotesSection.ofQuestions(root, registeredQuestions());
        } catch (java.util.ServiceConfigurationError | RuntimeException e) {
            return Map.of();
        }
    }

    /** Each step's core, from the Todo lines of the cores as generated ({@code throw new vramlab.lab.Todo("3.1", ...}). */
    public static Map<String, String> stepCoresFromTodos(Path sources) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        java.util.regex.Pattern todo = java.util.regex.Pattern.compile("throw new vramlab\\.lab\\.Todo\\(\"([0-9]+\\.[0-9]+)\"");
        try (Stream<Path> s = Files.walk(sources)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                java.util.regex.Matcher m = todo.matcher(Files.readString(f));
                String core = CoreBuild.coreOfFile(sources.relativize(f).toString()).name();
                while (m.find()) out.put(m.group(1), core);
            }
        }
        return out;
    }

    /** True when this kit marks no quiz (a student release). */
    public boolean hasQuiz() { return !questions.isEmpty(); }

    /** Each step marked in {@code solutionsModule}, by id, with the core its file belongs to. */
    public static Map<String, String> stepCores(Path solutionsModule) {
        Map<String, String> out = new LinkedHashMap<>();
        for (LabGenerator.Step s : LabGenerator.steps(solutionsModule)) {
            out.put(s.id(), CoreBuild.coreOfFile(s.file()).name());
        }
        return out;
    }

    /** The core that holds lab step {@code step}, or null when no marked step has that id. */
    public String coreOfStep(String step) { return stepCores.get(step); }

    /** The questions this JVM's chapters register, on this JVM's (the reference) cores. */
    public static List<Question> registeredQuestions() {
        List<Question> out = new ArrayList<>();
        ServiceLoader.load(Question.class).forEach(out::add);
        return out;
    }

    /** The same kit with more graded test folders (a fixture's, in the grader's own tests). */
    public Kit withTests(List<Path> more) {
        List<Path> t = new ArrayList<>(testRoots);
        t.addAll(more);
        return withTestRoots(t);
    }

    /** The same kit with exactly these graded test folders. */
    public Kit withTestRoots(List<Path> roots) {
        return new Kit(referenceCore, roots, runtime, questions, stepCores, referenceSources, rereads, stepRereads);
    }

    /** The same kit with these questions (none: lab items only). */
    public Kit withQuestions(List<Question> qs) {
        return new Kit(referenceCore, testRoots, runtime, qs, stepCores, referenceSources, rereads, stepRereads);
    }

    private static Path need(Path p) {
        if (!Files.exists(p)) {
            throw new IllegalStateException("the kit is not built (" + p + " is missing): run mvn -q -DskipTests package");
        }
        return p;
    }
}
