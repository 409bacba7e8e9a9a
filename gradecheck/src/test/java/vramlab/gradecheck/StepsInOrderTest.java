package vramlab.gradecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.build.CoreBuild;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * A student who works in order sees each step pass as soon as it is written
 * (STYLE.md 2: "steps 1..N pass exactly the graded tests of 1..N"): for every step N, in
 * teaching order, the cores with steps up to N written (their reference bodies) and every
 * later step still a {@code Todo} earn all of step N's graded points. An item that fails there
 * is one that waits for a later step ("needs step 3.4 first" in the score table, which a student
 * on step 3.2 cannot act on) or that does not pass for another reason; each one is listed,
 * unless {@code later-steps.txt} next to this class allows it with the reason it cannot be
 * avoided.
 *
 * <p>{@code -Dvramlab.stepsInOrder.steps=3.2,6.4} narrows the run to those steps. One build
 * and one child JVM per step (about as long as {@link StepCoverageTest} times the
 * number of steps, mostly reused compilations): the cores are rebuilt only where a step's
 * file changed. About 200 s on 2 cores, so it runs with the wrong bodies ({@code -Pwrong-bodies},
 * which {@code .ci/run} runs), not in plain {@code mvn test}.
 */
@Tag("wrong-bodies")
@DisplayName("Each step's graded tests pass once the steps up to it are written: none needs a later step")
class StepsInOrderTest {
    static final String ALLOWED = "later-steps.txt";
    /** The step a failing item waits for, as {@code StepOrder} says it. */
    static final Pattern NEEDS = Pattern.compile("needs step (\\d+\\.\\d+) first");

    @TempDir static Path tmp;
    /** Per step, in teaching order: each of its items that failed with the steps up to it written, and why. */
    static final Map<String, Map<String, String>> failing = new LinkedHashMap<>();
    /** Per step: how many of its graded items ran. */
    static final Map<String, Integer> ran = new LinkedHashMap<>();

    @BeforeAll
    static void runEveryPrefix() throws Exception {
        Path root = KitPaths.root();
        Kit kit = Kit.locate(root);
        Path solutions = root.resolve("solutions/src/main/java");
        List<String> steps = LabGenerator.steps(root.resolve("solutions")).stream().map(LabGenerator.Step::id)
                .sorted(Comparator.comparingLong(StepCoverageTest::order)).toList();
        Set<String> only = Stream.of(System.getProperty("vramlab.stepsInOrder.steps", "").split(","))
                .map(String::strip).filter(x -> !x.isEmpty()).collect(Collectors.toSet());
        Map<Path, String> sources = new TreeMap<>();
        try (Stream<Path> s = Files.walk(solutions)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.put(solutions.relativize(p), Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        Path src = tmp.resolve("src");
        CoreBuild build = new CoreBuild(src, kit.referenceCore(), tmp.resolve("work"));
        Grader grader = new Grader(kit, new Grader.Options(Duration.ofSeconds(10), Duration.ofMinutes(3), 4L << 20,
                "visible"), Files.createDirectories(tmp.resolve("grader")), Salt.of("steps-in-order"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        int n = 0;
        for (String step : steps) {
            if (!only.isEmpty() && !only.contains(step)) continue;
            long written = StepCoverageTest.order(step);
            writeChanged(src, sources, id -> StepCoverageTest.order(id) > written);
            CoreBuild.Result built = build.build();
            assertThat(built.allCompiled()).as("steps up to " + step + " written: " + built.outcomes()).isTrue();
            List<ScoreRow> rows = grader.runLabItems(built.classpath(), r -> r.step().equals(step),
                    tmp.resolve("run-" + ++n));
            ran.put(step, rows.size());
            Map<String, String> failed = new TreeMap<>();
            for (ScoreRow r : rows) if (!r.passed()) failed.put(r.name(), r.why());
            failing.put(step, failed);
        }
    }

    /** Writes each source with the steps {@code stub} names as Todos, where its text changed. */
    static void writeChanged(Path src, Map<Path, String> sources, java.util.function.Predicate<String> stub)
            throws IOException {
        for (Map.Entry<Path, String> e : sources.entrySet()) {
            String text = LabGenerator.transform(e.getValue(), "labs/src/main/java/" + e.getKey(), stub);
            Path to = src.resolve(e.getKey().toString());
            if (Files.exists(to) && Files.readString(to, StandardCharsets.UTF_8).equals(text)) continue;
            Files.createDirectories(to.getParent());
            Files.writeString(to, text, StandardCharsets.UTF_8);
        }
    }

    /**
     * The allowed items, {@code step|item name|the later step it needs}, each with a comment
     * above it saying why; blank lines and {@code #} lines are comments.
     */
    static Set<String> allowed() throws IOException {
        try (InputStream in = StepsInOrderTest.class.getResourceAsStream(ALLOWED)) {
            if (in == null) return Set.of();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    /** An item's key in the allow-list: its step, its name and the later step its failure names (or "?"). */
    static String key(String step, String item, String why) {
        Matcher m = NEEDS.matcher(why);
        return step + "|" + item + "|" + (m.find() ? m.group(1) : "?");
    }

    @Test
    @DisplayName("every step's graded items ran, on cores with the steps up to it written")
    void everyStepRan() {
        if (System.getProperty("vramlab.stepsInOrder.steps", "").isBlank()) {
            assertThat(ran).as("steps checked").hasSizeGreaterThanOrEqualTo(29);
        }
        assertThat(ran).allSatisfy((step, items) -> assertThat(items).as("graded items of " + step).isPositive());
    }

    @Test
    @DisplayName("no step's graded item needs a later step (or fails at all) once the steps up to it are"
            + " written, except the ones later-steps.txt allows")
    void noneNeedsALaterStep() throws IOException {
        Set<String> allowed = allowed();
        Map<String, String> unexpected = new TreeMap<>();
        Set<String> seen = new java.util.TreeSet<>();
        failing.forEach((step, items) -> items.forEach((item, why) -> {
            String key = key(step, item, why);
            seen.add(key);
            if (!allowed.contains(key)) unexpected.put(key, why);
        }));
        assertThat(unexpected).as("graded items that fail with only the steps up to theirs written"
                + " (step|item|the later step it needs), and why; add to " + ALLOWED + " only with the"
                + " reason it cannot be avoided").isEmpty();
        Set<String> stale = new java.util.TreeSet<>(allowed);
        stale.removeAll(seen);
        stale.removeIf(k -> !ran.containsKey(k.substring(0, k.indexOf('|'))));     // steps not run this time
        assertThat(stale).as(ALLOWED + " entries that now pass in order (remove them)").isEmpty();
    }
}
