package vramlab.gradecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.Graded;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Question;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.build.CoreBuild;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * HACKING.adoc's promises about graded tests, enforced: each step marked in {@code solutions/}
 * has at least one {@code @Graded} test, every {@code @Graded} test names a marked step or a
 * registered quiz question, and the labs exactly as the generator makes them lose every point
 * of every step, each item failing with a Todo: its own step's, or an earlier step's that it
 * builds on (the score table says so, "needs step N first").
 */
@DisplayName("Every lab step is graded, and the untouched labs fail each step with its Todo")
class StepCoverageTest {
    @TempDir static Path tmp;
    static Path root;
    static Kit kit;
    static Set<String> stepIds;
    /** Every {@code @Graded} method of the chapters' compiled tests: "Class#method" to its step. */
    static final Map<String, String> graded = new TreeMap<>();

    @BeforeAll
    static void scan() throws Exception {
        root = KitPaths.root();
        kit = Kit.locate(root);
        stepIds = LabGenerator.steps(root.resolve("solutions")).stream().map(LabGenerator.Step::id)
                .collect(Collectors.toCollection(TreeSet::new));
        List<URL> urls = new ArrayList<>();
        for (Path p : kit.testRoots()) urls.add(p.toUri().toURL());
        ClassLoader parent = StepCoverageTest.class.getClassLoader();
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), parent)) {
            for (Path rootDir : kit.testRoots()) {
                try (Stream<Path> s = Files.walk(rootDir)) {
                    for (Path f : s.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                        String name = rootDir.relativize(f).toString().replace('\\', '/').replace('/', '.');
                        Class<?> c = Class.forName(name.substring(0, name.length() - ".class".length()), false, loader);
                        for (Method m : c.getDeclaredMethods()) {
                            Graded g = m.getAnnotation(Graded.class);
                            if (g != null) graded.put(c.getName() + "#" + m.getName(), g.step());
                        }
                    }
                }
            }
        }
    }

    @Test
    @DisplayName("the scan saw all seven chapters' tests and the generator's steps")
    void scanRan() {
        assertThat(kit.testRoots()).as("chapters' compiled tests").hasSize(8);
        assertThat(stepIds).as("steps marked in solutions/").hasSizeGreaterThanOrEqualTo(29);
        assertThat(graded).as("@Graded tests found").hasSizeGreaterThan(stepIds.size());
    }

    @Test
    @DisplayName("each step marked in solutions/ has at least one @Graded test")
    void everyStepGraded() {
        Set<String> missing = new TreeSet<>(stepIds);
        missing.removeAll(graded.values());
        assertThat(missing).as("steps without a @Graded(step = ...) test").isEmpty();
    }

    @Test
    @DisplayName("every @Graded test names a marked step or a registered quiz question")
    void everyGradedNamesSomething() {
        Set<String> questions = Kit.registeredQuestions().stream().map(Question::id).collect(Collectors.toSet());
        assertThat(questions).as("registered quiz questions").isNotEmpty();
        Map<String, String> unknown = new TreeMap<>(graded);
        unknown.values().removeIf(step -> stepIds.contains(step) || questions.contains(step));
        assertThat(unknown).as("@Graded tests naming neither a step in solutions/ nor a quiz question").isEmpty();
        Set<String> unasked = new TreeSet<>(questions);
        unasked.removeAll(graded.values());
        assertThat(unasked).as("quiz questions without a @Graded test").isEmpty();
    }

    /**
     * A Todo in a row's reason: the step's own ({@code TODO step 3.3 (The split rule) is not
     * written yet}) or, through {@code StepOrder}, an earlier one's ({@code needs step 3.1 first:}).
     */
    static final Pattern TODO = Pattern.compile("TODO step (\\d+\\.\\d+) \\(|needs step (\\d+\\.\\d+) first: ");

    /** The step whose Todo {@link #TODO} found. */
    static String todoStep(Matcher m) { return m.group(1) != null ? m.group(1) : m.group(2); }

    /** A step id as a number that sorts in teaching order: 3.10 after 3.9, 4.1 after both. */
    static long order(String step) {
        String[] p = step.split("\\.");
        return Long.parseLong(p[0]) * 1000 + Long.parseLong(p[1]);
    }

    @Test
    @DisplayName("the labs as generated earn 0 on every graded lab item, each failing with the Todo"
            + " of its step or of an earlier step it builds on")
    void untouchedLabsFailWithTheirTodo() throws Exception {
        Path labs = tmp.resolve("labs");
        for (Map.Entry<String, String> f : LabGenerator.generate(root.resolve("solutions")).entrySet()) {
            Path p = labs.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
        }
        CoreBuild.Result built = new CoreBuild(labs.resolve("src/main/java"), kit.referenceCore(),
                tmp.resolve("work")).build();
        assertThat(built.allCompiled()).as(built.outcomes().toString()).isTrue();
        Grader grader = new Grader(kit, new Grader.Options(Duration.ofSeconds(10), Duration.ofMinutes(3), 4L << 20,
                "visible"), Files.createDirectories(tmp.resolve("grader")), Salt.of("step-coverage"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<ScoreRow> rows = grader.runLabItems(built.classpath(), r -> true, tmp.resolve("area"));
        assertThat(rows).extracting(ScoreRow::step).as("graded lab items run").containsAll(stepIds);
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.earned()).as(r.step() + " " + r.name() + " earns nothing").isZero();
            Matcher todo = TODO.matcher(r.reason());
            assertThat(todo.find()).as(r.step() + " " + r.name() + " fails with a Todo: " + r.reason()).isTrue();
            assertThat(order(todoStep(todo))).as(r.step() + " " + r.name() + " stops at its own step or at an "
                    + "earlier one it builds on: " + r.reason()).isLessThanOrEqualTo(order(r.step()));
        });
        Set<String> ownTodo = rows.stream().filter(r -> r.reason().contains("TODO step " + r.step() + " ("))
                .map(ScoreRow::step).collect(Collectors.toCollection(TreeSet::new));
        assertThat(ownTodo).as("steps whose items show their own Todo").isNotEmpty();
    }
}
