package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Blank;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;
import vramlab.quiz.grade.Gradebook;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * A class of 40 generated submissions graded on the kit's real graded tests and quiz, with the
 * grader's default bounds, every total checked against one computed here without the grader:
 * the lab items and their points are read from the test sources ({@code @Graded(step, points)}),
 * each step's core from the step markers, and a quiz sheet's points from the questions' own
 * checks (a copied part scores only where its checks accept the other student's answers). What each
 * kind of submission should lose is a rule about the kit, written down here:
 * <ul>
 *   <li>a core that does not compile loses exactly its own steps' items;
 *   <li>chapters 1..k written and the rest untouched keeps exactly the items of chapters 1..k
 *       (a step's tests never need a later chapter's step);
 *   <li>a copied sheet earns a part only where the other student's answers are right for this
 *       student too (the part's own checks say so);
 *   <li>a loop or an exit in a step that only its own tests call (6.5, 2.3, 7.4; 6.8, 4.1, 2.3)
 *       loses exactly that step's items;
 *   <li>forged credit, fake harness classes, system properties and written score files earn nothing.
 * </ul>
 * Run with {@code mvn test -Pgrading-fixtures -pl cli -am}; it prints the class's wall time
 * ({@code quiz/time-fixture-class.sh} runs just this).
 */
@Tag("grading-fixtures")
class GradingFixturesTest {
    static final Salt SALT = Salt.of("fixture-class-salt");
    static final Pattern GRADED = Pattern.compile("@Graded\\(step = \"([^\"]+)\", points = (\\d+)\\)");
    static final Pattern BEGIN = Pattern.compile("^(\\s*)// lab:begin (\\d+\\.\\d+) \"([^\"]+)\" see (.+)$");

    @TempDir static Path tmp;
    static Path root;
    static Submissions make;
    /** Every graded lab item of the kit, as (step, points), read from the test sources. */
    static final List<Map.Entry<String, Integer>> ITEMS = new ArrayList<>();
    /** Each step's core, from the markers. */
    static final Map<String, String> CORE = new LinkedHashMap<>();
    static final Map<String, Integer> expectedLab = new LinkedHashMap<>();
    static final Map<String, Integer> expectedQuiz = new LinkedHashMap<>();
    static final Map<String, String> expectedFlag = new LinkedHashMap<>();
    static final Map<String, Grader.Result> graded = new LinkedHashMap<>();
    static long millis;
    static String log;

    @BeforeAll
    static void gradeTheClass() throws Exception {
        root = KitPaths.root();
        readItems();
        Path subs = Files.createDirectories(tmp.resolve("subs"));
        make = new Submissions(root, subs, SALT);
        makeTheClass();
        assertThat(expectedLab).hasSize(40);
        Kit kit = Kit.locate(root);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream tee = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Grader g = new Grader(kit, Grader.Options.defaults(), Files.createDirectories(tmp.resolve("work")), SALT, tee);
        List<Path> dirs;
        try (Stream<Path> s = Files.list(subs)) {
            dirs = s.sorted().toList();
        }
        long t0 = System.nanoTime();
        for (Grader.Result r : g.gradeClass(dirs, tmp.resolve("out"))) graded.put(r.student(), r);
        millis = (System.nanoTime() - t0) / 1_000_000;
        log = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(log);
        System.out.printf("graded %d submissions in %.1f s (%d jobs on %d cores)%n", graded.size(), millis / 1000.0,
                Grader.Options.defaults().jobs(), Runtime.getRuntime().availableProcessors());
    }

    static void readItems() throws IOException {
        try (Stream<Path> s = Files.walk(root.resolve("chapters"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/test/java/"))
                    .sorted().toList()) {
                Matcher m = GRADED.matcher(Files.readString(f));
                while (m.find()) if (!m.group(1).startsWith("q")) ITEMS.add(Map.entry(m.group(1), Integer.parseInt(m.group(2))));
            }
        }
        for (LabGenerator.Step st : LabGenerator.steps(root.resolve("solutions"))) {
            String pkg = st.file().replaceAll(".*/vramlab/([a-z]+)/[^/]+$", "$1");
            CORE.put(st.id(), pkg.equals("units") || pkg.equals("lab") ? "base" : pkg);
        }
        assertThat(ITEMS).as("the kit has graded lab tests").hasSizeGreaterThan(30);
        assertThat(ITEMS).allSatisfy(i -> assertThat(CORE).as("a graded step is a marked step").containsKey(i.getKey()));
    }

    static int lab(Predicate<String> keeps) {
        return ITEMS.stream().filter(i -> keeps.test(i.getKey())).mapToInt(Map.Entry::getValue).sum();
    }

    static int chapter(String step) { return Integer.parseInt(step.replaceFirst("^q", "").split("\\.")[0]); }

    static int quizPoints(String student, Predicate<Question> answered) {
        int sum = 0;
        for (List<Question> qs : Submissions.chapters().values()) {
            for (Question q : qs) {
                if (answered.test(q)) for (Part p : q.parts(Variant.of(q.chapter(), student, SALT))) sum += p.points();
            }
        }
        return sum;
    }

    /**
     * The points of {@code to}'s parts that {@code from}'s answers also get right (a copied sheet):
     * each part whose every blank's check, for {@code to}'s variant, accepts {@code from}'s solution.
     */
    static int samePoints(String to, String from, Salt fromSalt) {
        int sum = 0;
        for (List<Question> qs : Submissions.chapters().values()) {
            for (Question q : qs) {
                List<Part> mine = q.parts(Variant.of(q.chapter(), to, SALT));
                List<Part> theirs = q.parts(Variant.of(q.chapter(), from, fromSalt));
                for (int i = 0; i < mine.size(); i++) {
                    boolean right = true;
                    for (int b = 0; b < mine.get(i).blanks().size(); b++) {
                        Blank blank = mine.get(i).blanks().get(b);
                        right &= blank.check().wrong(theirs.get(i).blanks().get(b).solution()) == null;
                    }
                    if (right) sum += mine.get(i).points();
                }
            }
        }
        return sum;
    }

    static void expect(String id, int lab, int quiz, String flag) {
        expectedLab.put(id, lab);
        expectedQuiz.put(id, quiz);
        if (flag != null) expectedFlag.put(id, flag);
    }

    /**
     * The reference sources with {@code todo} steps put back to their Todo and {@code inject}
     * inserted as the first line of some steps' bodies.
     */
    static Submissions.Edit steps(Predicate<String> todo, Map<String, String> inject) {
        return (file, text) -> {
            StringBuilder out = new StringBuilder();
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = BEGIN.matcher(lines.get(i));
                if (!m.matches()) {
                    out.append(lines.get(i)).append('\n');
                    continue;
                }
                String step = m.group(2);
                if (todo.test(step)) {
                    out.append(m.group(1)).append("throw new vramlab.lab.Todo(\"").append(step).append("\", \"")
                       .append(m.group(3)).append("\", \"see\", \"labs/src/main/java/").append(file).append("\");\n");
                    while (!lines.get(i).strip().equals("// lab:end")) i++;
                    continue;
                }
                out.append(lines.get(i)).append('\n');
                if (inject.containsKey(step)) out.append(m.group(1)).append(inject.get(step)).append('\n');
            }
            return out.toString();
        };
    }

    static Submissions.Edit none() { return Submissions.Edit.none(); }

    /** A file of {@code core} with a step, to break. */
    static String fileOf(String core) throws IOException {
        for (LabGenerator.Step st : LabGenerator.steps(root.resolve("solutions"))) {
            if (CORE.get(st.id()).equals(core)) return st.file().substring("labs/src/main/java/".length());
        }
        throw new AssertionError("no step in core " + core);
    }

    static void makeTheClass() throws IOException {
        int all = lab(s -> true);
        int quizAll = -1;
        for (int n = 1; n <= 5; n++) {
            String id = "correct" + n;
            make.sources(id, make.solutions(), none());
            make.keySheets(id, id, null);
            expect(id, all, quizPoints(id, q -> true), null);
            quizAll = quizPoints(id, q -> true);
        }
        make.sources("untouched", make.untouched(), none());
        make.blankSheets("untouched");
        expect("untouched", 0, 0, null);

        for (String core : List.of("gmmu", "driver", "alloc", "buddy", "kv", "pinned")) {
            String id = "broken-" + core;
            String file = fileOf(core);
            make.sources(id, make.solutions(), (f, text) -> f.equals(file)
                    ? text.replaceFirst("(// lab:begin [^\\n]*\\n)", "$1        int broken = ;\n") : text);
            make.keySheets(id, id, null);
            expect(id, lab(s -> !CORE.get(s).equals(core)), quizAll, "did not compile: the " + core + " core (labs/src/main/java/" + file + ":");
        }

        for (int k = 1; k <= 6; k++) {
            int upTo = k;
            String id = "upto-ch" + k;
            make.sources(id, make.solutions(), steps(s -> chapter(s) > upTo, Map.of()));
            List<String> done = new ArrayList<>();
            for (int c = 1; c <= k; c++) done.add(String.format("ch%02d", c));
            make.keySheets(id, id, done);
            expect(id, lab(s -> chapter(s) <= upTo), quizPoints(id, q -> chapter(q.id()) <= upTo), null);
        }

        String spin = "while (System.nanoTime() > 0) Thread.onSpinWait();";
        for (String step : List.of("6.5", "2.3", "7.4")) {
            String id = "looping-" + step;
            make.sources(id, make.solutions(), steps(s -> false, Map.of(step, spin)));
            make.keySheets(id, id, null);
            expect(id, lab(s -> !s.equals(step)), quizAll, "timed out");
        }
        for (String step : List.of("6.8", "4.1", "2.3")) {
            String id = "exiting-" + step;
            make.sources(id, make.solutions(), steps(s -> false, Map.of(step, "if (System.nanoTime() > 0) System.exit(3);")));
            make.keySheets(id, id, null);
            expect(id, lab(s -> !s.equals(step)), quizAll, "exited");
        }

        for (String id : List.of("copy-a", "copy-b", "copy-c")) {
            make.sources(id, make.solutions(), none());
            Submissions.copyTree(tmp.resolve("subs/correct1/labs/answers"), tmp.resolve("subs").resolve(id).resolve("labs/answers"));
            expect(id, all, samePoints(id, "correct1", SALT), "copied sheet?");
        }

        make.forging("forge-alloc", "3.1");
        make.blankSheets("forge-alloc");
        make.forging("forge-gmmu", "1.1", make.untouched(), "vramlab.gmmu");
        make.blankSheets("forge-gmmu");
        make.forging("forge-buddy", "6.1", make.untouched(), "vramlab.buddy");
        make.blankSheets("forge-buddy");
        make.forging("forge-pinned", "7.1", make.untouched(), "vramlab.pinned");
        make.blankSheets("forge-pinned");
        for (String id : List.of("forge-alloc", "forge-gmmu", "forge-buddy", "forge-pinned")) expect(id, 0, 0, "forged results");

        for (int n = 0; n < 4; n++) {
            String id = "halfquiz" + n;
            int parity = n % 2;
            make.sources(id, make.solutions(), none());
            halfSheets(id, parity);
            expect(id, all, quizPoints(id, q -> Integer.parseInt(q.id().split("\\.")[1]) % 2 == parity), null);
        }

        make.sources("practice", make.solutions(), none());
        practiceSheets("practice");
        expect("practice", all, samePoints("practice", "practice", Salt.PRACTICE), "written for variant");

        make.sources("nosheets", make.solutions(), none());
        expect("nosheets", all, 0, null);

        Files.createDirectories(tmp.resolve("subs/nothing"));
        expect("nothing", 0, 0, null);

        make.sources("flooding", make.solutions(), steps(s -> false, Map.of("3.1",
                "if (System.getProperties().putIfAbsent(\"flooded\", \"y\") == null) for (int i = 0; i < 300_000; i++)"
                        + " System.out.println(\"flood flood flood flood flood flood\");")));
        make.keySheets("flooding", "flooding", null);
        expect("flooding", all, quizAll, null);

        String driverFile = fileOf("driver"), kvFile = fileOf("kv");
        make.sources("broken-two", make.solutions(), (f, text) -> f.equals(driverFile) || f.equals(kvFile)
                ? text.replaceFirst("(// lab:begin [^\\n]*\\n)", "$1        int broken = ;\n") : text);
        make.keySheets("broken-two", "broken-two", List.of("ch01", "ch02"));
        expect("broken-two", lab(s -> !CORE.get(s).equals("driver") && !CORE.get(s).equals("kv")),
                quizPoints("broken-two", q -> chapter(q.id()) <= 2), "did not compile: the kv core");
    }

    /** Key sheets with only the questions whose number has {@code parity} answered. */
    static void halfSheets(String id, int parity) throws IOException {
        Path answers = Files.createDirectories(tmp.resolve("subs").resolve(id).resolve("labs/answers"));
        for (Map.Entry<String, List<Question>> e : Submissions.chapters().entrySet()) {
            Variant v = Variant.of(e.getKey(), id, SALT);
            String text = AnswerSheet.template(e.getKey(), v, e.getValue());
            for (Question q : e.getValue()) {
                if (Integer.parseInt(q.id().split("\\.")[1]) % 2 != parity) continue;
                for (Part p : q.parts(v)) {
                    for (Blank b : p.blanks()) text = text.replace("\n" + b.key() + " = \n", "\n" + b.key() + " = " + b.solution() + "\n");
                }
            }
            Files.writeString(answers.resolve(e.getKey() + ".txt"), text);
        }
    }

    /** The key of the student's practice variant: a sheet printed without the salt. */
    static void practiceSheets(String id) throws IOException {
        Path answers = Files.createDirectories(tmp.resolve("subs").resolve(id).resolve("labs/answers"));
        for (Map.Entry<String, List<Question>> e : Submissions.chapters().entrySet()) {
            Variant v = Variant.of(e.getKey(), id, Salt.PRACTICE);
            Files.writeString(answers.resolve(e.getKey() + ".txt"), AnswerSheet.key(e.getKey(), v, e.getValue()));
        }
    }

    static int labOf(Grader.Result r) {
        return r.rows().stream().filter(x -> !x.step().startsWith("q")).mapToInt(x -> x.earned()).sum();
    }

    static int quizOf(Grader.Result r) {
        return r.rows().stream().filter(x -> x.step().startsWith("q")).mapToInt(x -> x.earned()).sum();
    }

    @Test
    @DisplayName("every one of the 40 totals is the one computed without the grader")
    void everyScoreIsRight() {
        assertThat(graded.keySet()).containsExactlyInAnyOrderElementsOf(expectedLab.keySet());
        Map<String, String> wrong = new LinkedHashMap<>();
        for (String id : expectedLab.keySet()) {
            Grader.Result r = graded.get(id);
            if (labOf(r) != expectedLab.get(id) || quizOf(r) != expectedQuiz.get(id)) {
                wrong.put(id, "lab " + labOf(r) + " (expected " + expectedLab.get(id) + "), quiz " + quizOf(r)
                        + " (expected " + expectedQuiz.get(id) + "); lost: " + r.rows().stream()
                        .filter(x -> x.earned() < x.points() && !x.step().startsWith("q"))
                        .map(x -> x.step() + " " + x.why()).distinct().limit(6).toList());
            }
        }
        assertThat(wrong).as("submissions whose score is not the expected one").isEmpty();
    }

    @Test
    @DisplayName("each kind of submission carries the flag an instructor needs, and correct ones carry none")
    void flags() {
        expectedFlag.forEach((id, flag) -> assertThat(String.join("\n", graded.get(id).flags())).as(id).contains(flag));
        for (int n = 1; n <= 5; n++) assertThat(graded.get("correct" + n).flags()).isEmpty();
    }

    @Test
    @DisplayName("the report names the file and line that did not compile, on each of its core's items")
    void compileErrorsNameTheLine() {
        Grader.Result r = graded.get("broken-alloc");
        assertThat(r.rows()).filteredOn(x -> !x.step().startsWith("q") && CORE.get(x.step()).equals("alloc"))
                .isNotEmpty()
                .allSatisfy(x -> assertThat(x.reason()).contains("did not compile: the alloc core")
                        .containsPattern("labs/src/main/java/vramlab/alloc/\\w+\\.java:\\d+: "));
    }

    @Test
    @DisplayName("regrading one student keeps the other 39 rows as they were")
    void regradeKeepsTheOthers() throws Exception {
        Path out = tmp.resolve("out");
        List<String> before = Files.readString(out.resolve(Gradebook.WIDE)).lines().toList();
        assertThat(before).hasSize(41);
        Grader g = new Grader(Kit.locate(root), Grader.Options.defaults(), tmp.resolve("work"), SALT,
                new PrintStream(new ByteArrayOutputStream()));
        g.gradeClass(List.of(tmp.resolve("subs/untouched")), out);
        List<String> after = Files.readString(out.resolve(Gradebook.WIDE)).lines().toList();
        Set<String> kept = new LinkedHashSet<>(before);
        kept.removeIf(l -> l.startsWith("untouched,"));
        assertThat(after).hasSize(41).containsAll(kept);
        assertThat(after).anySatisfy(l -> assertThat(l).startsWith("untouched,0,").contains("regraded"));
    }

    @Test
    @DisplayName("progress: one line per submission, [k/40] id: points in seconds")
    void progress() {
        assertThat(log.lines().filter(l -> l.matches("\\[\\d+/40] \\S+: \\d+/\\d+ in \\d+\\.\\d s.*"))).hasSize(40);
    }
}
