package vramlab.gradecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.build.ExpressionLeaks;
import vramlab.quiz.build.CoreBuild;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * The graded tests catch wrong answers: for every lab step, each typical wrong body made from
 * the reference ({@link WrongBodies}) replaces exactly that step in a copy of the reference
 * cores, {@link CoreBuild} recompiles the affected core, and the step's graded items run
 * against it in a child JVM of their own ({@link Grader#runLabItems}); the wrong body must
 * lose points. A wrong body that still earns every point is either killed by a stronger graded
 * test in its chapter or listed, with the reason it is right after all, in
 * {@code equivalent-wrong-bodies.txt} next to this class.
 *
 * <p>Long (a child JVM per wrong body): {@code mvn -Pwrong-bodies}, see README.adoc. The wrong
 * bodies run on {@code -Dvramlab.wrongBodies.threads} workers (default: 2, or 1 on one core),
 * each with its own copy of the sources. The table of every wrong body and its verdict is
 * written to {@code target/wrong-bodies/report.tsv}, the counts and the wall time to
 * {@code summary.txt} and to the test's output.
 */
@Tag("wrong-bodies")
@DisplayName("Typical wrong bodies of every lab step lose points in the step's graded tests")
class WrongBodiesTest {
    static final String EQUIVALENTS = "equivalent-wrong-bodies.txt";
    /** Wrong bodies whose feedback does not name the rule yet (an exception or a raw assertion): issue 37's item 4. */
    static final String WITHOUT_RULE = "feedback-without-rule.txt";

    /**
     * How one wrong body fared: not compiling, or its step's points, what it earned, each failed
     * item's first line ({@code reasons}) and, per failed item, its name and the whole message a
     * student reads ({@code feedback}).
     */
    record Outcome(String compileError, int points, int earned, String reasons, List<String> feedback) {
        String feedbackText() { return String.join("\n", feedback); }
        boolean recognised() { return feedback.stream().anyMatch(f -> f.contains("\nRule: ")); }
        boolean compiled() { return compileError == null; }
        boolean losesPoints() { return compiled() && earned < points; }
    }

    record Job(StepSource source, WrongBodies.Mutant mutant) {}

    static Path root;
    static Path scratch;
    static Grader grader;
    static Kit kit;
    static Map<String, String> equivalents;
    static Set<String> withoutRule;
    static final Map<String, StepSource> sources = new LinkedHashMap<>();
    static final Map<String, List<WrongBodies.Mutant>> mutants = new LinkedHashMap<>();
    static final Map<WrongBodies.Mutant, Outcome> outcomes = new ConcurrentHashMap<>();
    static List<ScoreRow> referenceRows;
    static long seconds;
    static int threads;
    /** The steps {@code -Dvramlab.wrongBodies.steps=6.1,6.2} narrows the run to; empty: every step. */
    static Set<String> only;
    static ExpressionLeaks leaks;

    @BeforeAll
    static void runEveryWrongBody() throws Exception {
        long started = System.nanoTime();
        root = KitPaths.root();
        kit = Kit.locate(root);
        scratch = Path.of("target/wrong-bodies").toAbsolutePath();
        deleteTree(scratch);
        Grader.Options o = new Grader.Options(Duration.ofSeconds(10), Duration.ofMinutes(3), 4L << 20, "visible");
        grader = new Grader(kit, o, Files.createDirectories(scratch.resolve("grader")), Salt.of("wrong-bodies"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        equivalents = readEquivalents();
        withoutRule = readKeys(WITHOUT_RULE);
        leaks = ExpressionLeaks.of(root.resolve("solutions"));
        only = Stream.of(System.getProperty("vramlab.wrongBodies.steps", "").split(","))
                .map(String::strip).filter(x -> !x.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
        List<Job> jobs = new ArrayList<>();
        for (LabGenerator.Step step : LabGenerator.steps(root.resolve("solutions"))) {
            if (!only.isEmpty() && !only.contains(step.id())) continue;
            StepSource src = StepSource.of(step, root.resolve("solutions"));
            sources.put(step.id(), src);
            List<WrongBodies.Mutant> ms = WrongBodies.of(step, src.header(), src.body(), src.beginLine());
            mutants.put(step.id(), ms);
            for (WrongBodies.Mutant m : ms) jobs.add(new Job(src, m));
        }
        threads = Math.max(1, Integer.getInteger("vramlab.wrongBodies.threads",
                Math.min(2, Runtime.getRuntime().availableProcessors())));
        LinkedBlockingQueue<Job> queue = new LinkedBlockingQueue<>(jobs);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < threads; w++) {
                Path area = scratch.resolve("worker-" + w);
                copyTree(root.resolve("solutions/src/main/java"), area.resolve("src"));
                CoreBuild build = new CoreBuild(area.resolve("src"), kit.referenceCore(), area.resolve("work"));
                boolean control = w == 0;
                workers.add(pool.submit(() -> {
                    if (control) referenceRows = runReference(build, area);
                    int n = 0;
                    for (Job j; (j = queue.poll()) != null; ) outcomes.put(j.mutant(), run(build, area, j, ++n));
                    return null;
                }));
            }
            for (Future<?> f : workers) f.get();
        } finally {
            pool.shutdownNow();
        }
        seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
    }

    /** The reference sources, unchanged: every graded lab item must pass on them. */
    static List<ScoreRow> runReference(CoreBuild build, Path area) throws Exception {
        CoreBuild.Result r = build.build();
        if (!r.allCompiled()) throw new IllegalStateException("the reference does not compile: " + r.outcomes());
        return grader.runLabItems(r.classpath(), row -> only.isEmpty() || only.contains(row.step()),
                area.resolve("reference"));
    }

    /** Writes the wrong body into this worker's sources, builds, runs the step's items, restores. */
    static Outcome run(CoreBuild build, Path area, Job j, int n) throws Exception {
        Path file = area.resolve("src").resolve(j.source().relative());
        Files.writeString(file, j.source().with(j.mutant().body()), StandardCharsets.UTF_8);
        try {
            CoreBuild.Result r = build.build();
            CoreBuild.Outcome own = r.of(CoreBuild.coreOfFile(j.source().relative()).name());
            if (!own.student()) return new Outcome(own.errors().get(0).toString(), 0, 0, "", List.of());
            List<ScoreRow> rows = grader.runLabItems(r.classpath(), row -> row.step().equals(j.mutant().step()),
                    area.resolve("run-" + n));
            StringBuilder why = new StringBuilder();
            List<String> feedback = new ArrayList<>();
            for (ScoreRow row : rows) {
                if (row.passed()) continue;
                why.append(row.name()).append(": ").append(row.why()).append("; ");
                feedback.add(row.name() + ":\n" + row.reason());
            }
            return new Outcome(null, rows.stream().mapToInt(ScoreRow::points).sum(),
                    rows.stream().mapToInt(ScoreRow::earned).sum(),
                    rows.isEmpty() ? "no graded items" : why.toString(), List.copyOf(feedback));
        } finally {
            Files.writeString(file, j.source().reference(), StandardCharsets.UTF_8);
        }
    }

    @Test
    @DisplayName("control: the reference itself earns every point of every graded lab item")
    void reference() {
        assertThat(referenceRows).as("graded lab items").isNotEmpty();
        assertThat(referenceRows).allSatisfy(row -> assertThat(row.passed()).as(row.step() + " " + row.name() + ": "
                + row.reason()).isTrue());
        if (only.isEmpty()) assertThat(mutants).as("steps marked in solutions/").hasSizeGreaterThanOrEqualTo(29);
        else assertThat(mutants.keySet()).as("steps named in -Dvramlab.wrongBodies.steps").isEqualTo(only);
        assertThat(outcomes).as("wrong bodies run").hasSize(mutants.values().stream().mapToInt(List::size).sum());
    }

    @Test
    @DisplayName("step 5.1's stub that maps nothing (the out-of-memory answer at once) loses points")
    void mapsNothing() {
        Assumptions.assumeTrue(mutants.containsKey("5.1"), "step 5.1 is not among -Dvramlab.wrongBodies.steps");
        WrongBodies.Mutant stub = mutants.get("5.1").stream()
                .filter(m -> m.kind().equals("early") && m.description().contains("new Range(first * pageSize, 0)"))
                .findFirst().orElseThrow(() -> new AssertionError("no map-nothing stub among " + mutants.get("5.1")));
        assertThat(outcomes.get(stub).losesPoints()).as("%s: %s", stub.key(), outcomes.get(stub)).isTrue();
    }

    @TestFactory
    @DisplayName("each step's wrong bodies")
    Stream<DynamicContainer> wrongBodies() {
        List<DynamicContainer> out = new ArrayList<>();
        mutants.forEach((step, ms) -> {
            assertThat(ms).as("wrong bodies of step " + step).isNotEmpty();
            List<DynamicTest> tests = new ArrayList<>();
            for (WrongBodies.Mutant m : ms) {
                tests.add(DynamicTest.dynamicTest(m.kind() + ": " + m.description(), () -> verdict(m)));
            }
            out.add(DynamicContainer.dynamicContainer("step " + step + " " + sources.get(step).step().title(), tests));
        });
        return out.stream();
    }

    /**
     * What a student reads when a wrong body fails is a hint, not the answer: for every wrong body
     * that loses points, the failure messages of its step's graded items hold no step's body as an
     * expression with its names and numbers filled in ({@link ExpressionLeaks}, the release's own
     * check); each failure names the rule, as a recognised mistake's {@code Rule:} line or the
     * {@code Reread:} section of the notes that states it (the chapter's {@code Feedback}); the
     * {@code Todo} names the step to write.
     */
    @TestFactory
    @DisplayName("each step's wrong bodies get feedback that names the rule and never shows a body")
    Stream<DynamicContainer> feedbackTeaches() {
        List<DynamicContainer> out = new ArrayList<>();
        mutants.forEach((step, ms) -> {
            List<DynamicTest> tests = new ArrayList<>();
            for (WrongBodies.Mutant m : ms) {
                Outcome o = outcomes.get(m);
                if (o == null || !o.losesPoints()) continue;
                tests.add(DynamicTest.dynamicTest("no body in the feedback to " + m.kind() + ": " + m.description(), () -> {
                    List<String> shown = leaks.shownIn(o.feedbackText());
                    if (!shown.isEmpty()) {
                        throw new AssertionError("step " + step + ", wrong body " + m.kind() + ": " + m.description()
                                + ": its feedback shows the body of " + String.join(", ", shown)
                                + "; state the rule in words in the chapter's Feedback\nfeedback:\n" + o.feedbackText());
                    }
                }));
            }
            for (WrongBodies.Mutant m : ms) {
                Outcome o = outcomes.get(m);
                if (o == null || !o.losesPoints() || m.kind().equals("todo")) continue;
                tests.add(DynamicTest.dynamicTest("the rule named to " + m.kind() + ": " + m.description(), () -> {
                    String unnamed = o.feedback().stream().filter(i -> !namesRule(i)).findFirst().orElse(null);
                    if (unnamed != null && !withoutRule.contains(m.key())) {
                        throw new AssertionError("step " + step + ", wrong body " + m.kind() + ": " + m.description()
                                + ": this failure names no rule (neither a 'Rule:' line of a recognised mistake nor "
                                + "the 'Reread:' section of the chapter's Feedback); check it with the chapter's "
                                + "Feedback\nfeedback:\n" + unnamed);
                    }
                    if (withoutRule.contains(m.key()) && !namesNoRule(m.key())) {
                        throw new AssertionError("listed in " + WITHOUT_RULE + " but its feedback names the rule now: "
                                + "remove the entry\n" + m.key());
                    }
                }));
            }
            WrongBodies.Mutant todo = ms.stream().filter(m -> m.kind().equals("todo")).findFirst().orElse(null);
            if (todo != null && outcomes.get(todo) != null && outcomes.get(todo).losesPoints()) {
                tests.add(DynamicTest.dynamicTest("the Todo's feedback names the step to write", () ->
                        assertThat(outcomes.get(todo).feedbackText()).as("feedback to step " + step + "'s Todo")
                                .contains("TODO step " + step)));
            }
            out.add(DynamicContainer.dynamicContainer("step " + step + " " + sources.get(step).step().title(), tests));
        });
        return out.stream();
    }

    /** Some losing wrong body with this key (two can share one: the same line twice) has a failure naming no rule. */
    static boolean namesNoRule(String key) {
        return mutants.values().stream().flatMap(List::stream).filter(m -> m.key().equals(key)).map(outcomes::get)
                .anyMatch(o -> o != null && o.losesPoints() && !o.feedback().stream().allMatch(WrongBodiesTest::namesRule));
    }

    /** A failure names the rule: a recognised mistake's {@code Rule:} line, or the section to reread. */
    static boolean namesRule(String item) { return item.contains("\nRule: ") || item.contains("\nReread: "); }

    static void verdict(WrongBodies.Mutant m) {
        Outcome o = outcomes.get(m);
        String reason = equivalents.get(m.key());
        if (!o.compiled()) return;                     // not an answer that reaches the tests
        assertThat(o.points()).as("graded items of step " + m.step()).isPositive();
        if (o.losesPoints()) {
            assertThat(reason).as("listed as equivalent in " + EQUIVALENTS + " but it loses points (" + o.reasons()
                    + "): remove the entry\n" + m.key()).isNull();
            return;
        }
        if (reason != null) return;
        throw new AssertionError("step " + m.step() + ": this wrong body earns all " + o.points() + " points of the "
                + "step's graded tests; strengthen a graded test in the chapter, or list it in " + EQUIVALENTS
                + " with why it is right after all:\n" + m.key() + " | <reason>\nbody:\n"
                + String.join("\n", m.body()));
    }

    @AfterAll
    static void summary() throws IOException {
        if (scratch == null) return;
        List<String> report = new ArrayList<>(List.of("step\tkind\twrong body\tpoints\tearned\tverdict\tfeedback"));
        StringBuilder sb = new StringBuilder("wrong bodies (generated: the ones that compile; killed: lose points; "
                + "equivalent: listed with a reason):\n");
        int[] total = new int[4];
        Map<String, List<WrongBodies.Mutant>> byStep = new TreeMap<>(Comparator.comparing(
                (String id) -> Integer.parseInt(id.substring(0, id.indexOf('.'))))
                .thenComparing(id -> Integer.parseInt(id.substring(id.indexOf('.') + 1))));
        byStep.putAll(mutants);
        byStep.forEach((step, ms) -> {
            int[] c = new int[4];
            for (WrongBodies.Mutant m : ms) {
                Outcome o = outcomes.get(m);
                if (o == null) continue;
                String eq = equivalents.get(m.key());
                String verdict = !o.compiled() ? "does not compile: " + o.compileError()
                        : o.losesPoints() ? "loses points: " + o.reasons()
                        : eq != null ? "equivalent: " + eq : "SURVIVES";
                if (!o.compiled()) {
                    c[3]++;
                } else {
                    c[0]++;
                    if (o.losesPoints()) c[1]++;
                    else if (eq != null) c[2]++;
                }
                report.add(String.join("\t", m.step(), m.kind(), m.description(), String.valueOf(o.points()),
                        String.valueOf(o.earned()), verdict, o.recognised() ? "Rule: line"
                        : o.feedback().stream().allMatch(WrongBodiesTest::namesRule) ? "Reread: line" : ""));
            }
            sb.append(String.format("  %-5s %3d generated %3d killed %3d equivalent %3d did not compile%n",
                    step, c[0], c[1], c[2], c[3]));
            for (int i = 0; i < 4; i++) total[i] += c[i];
        });
        sb.append(String.format("  total %3d generated %3d killed %3d equivalent %3d did not compile; %d survive; "
                + "%d s on %d worker(s)%n", total[0], total[1], total[2], total[3], total[0] - total[1] - total[2],
                seconds, threads));
        System.out.print(sb);
        Files.createDirectories(scratch);
        Files.write(scratch.resolve("report.tsv"), report, StandardCharsets.UTF_8);
        Files.writeString(scratch.resolve("summary.txt"), sb.toString(), StandardCharsets.UTF_8);
        Map<String, String> stale = new TreeMap<>(equivalents);
        for (List<WrongBodies.Mutant> ms : mutants.values()) for (WrongBodies.Mutant m : ms) stale.remove(m.key());
        if (!only.isEmpty()) stale.keySet().removeIf(k -> !only.contains(k.substring(0, k.indexOf(' '))));
        assertThat(stale).as("entries of " + EQUIVALENTS + " that no generated wrong body matches "
                + "(remove or update them)").isEmpty();
        Set<String> unmatched = new TreeSet<>(withoutRule);
        for (List<WrongBodies.Mutant> ms : mutants.values()) {
            for (WrongBodies.Mutant m : ms) if (outcomes.get(m) != null && outcomes.get(m).losesPoints()) unmatched.remove(m.key());
        }
        if (!only.isEmpty()) unmatched.removeIf(k -> !only.contains(k.substring(0, k.indexOf(' '))));
        assertThat(unmatched).as("entries of " + WITHOUT_RULE + " that no wrong body losing points matches "
                + "(remove or update them)").isEmpty();
    }

    /** {@code step | kind | description}, one per line; {@code #} starts a comment. */
    static Set<String> readKeys(String name) throws IOException {
        try (var in = WrongBodiesTest.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException(name + " is missing next to " + WrongBodiesTest.class);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toCollection(LinkedHashSet::new));
        }
    }

    /** {@code step | kind | description | reason}, one per line; {@code #} starts a comment. */
    static Map<String, String> readEquivalents() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (var in = WrongBodiesTest.class.getResourceAsStream(EQUIVALENTS)) {
            if (in == null) {
                throw new IllegalStateException(EQUIVALENTS + " is missing next to " + WrongBodiesTest.class);
            }
            int n = 0;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                n++;
                if (line.isBlank() || line.startsWith("#")) continue;
                int cut = line.lastIndexOf(" | ");
                if (cut < 0 || line.substring(cut + 3).isBlank()) {
                    throw new IllegalStateException(
                            EQUIVALENTS + ":" + n + ": expected step | kind | description | reason");
                }
                out.put(line.substring(0, cut).strip(), line.substring(cut + 3).strip());
            }
        }
        return out;
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                Files.createDirectories(dest.getParent());
                Files.copy(p, dest);
            }
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(q -> {
                try {
                    Files.delete(q);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
