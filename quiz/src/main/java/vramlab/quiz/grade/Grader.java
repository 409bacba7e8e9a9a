package vramlab.quiz.grade;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

import vramlab.quiz.Question;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.Variant;
import vramlab.quiz.build.CoreBuild;
import vramlab.quiz.build.CoreCache;

/**
 * Grading one submission: what a grade is made of and how the parts meet. Nothing in a
 * submission can change the tests, the points or the reports, and nothing one does stops the
 * others from being graded. The parts, each in its own class:
 *
 * <ul>
 *   <li>{@link Inventory}: the kit's graded lab items, listed once on the reference cores.
 *   <li>Lab items: the submission's {@code labs/src/main/java} is compiled one core at a time
 *       ({@link CoreBuild}); a core that does not compile earns nothing for its own steps (the
 *       compiler's first errors are the reason) and the reference stands in for it, so every
 *       other core's steps are graded as usual; the graded tests then run in child JVMs
 *       ({@link LabItems}).
 *   <li>Quiz items: marked in this JVM from the submission's answer sheets ({@link QuizMarking}).
 *   <li>The rows must add up to what the kit declares ({@link Declared}), or no score is given.
 *   <li>A class: many submissions into one gradebook ({@link ClassGrading}).
 * </ul>
 */
public final class Grader {
    /**
     * @param itemTimeout    the longest one graded test may run, until the submission's first time-out
     * @param submissionTime the longest one submission's tests may run in all
     * @param outputCap      what a child keeps of what it prints (the rest is dropped)
     * @param visibility     Gradescope's visibility for the tests in {@code results.json}
     * @param afterTimeout   the longest one graded test may run after the submission's first time-out
     * @param jobs           how many submissions are graded at once
     */
    public record Options(Duration itemTimeout, Duration submissionTime, long outputCap, String visibility,
                          Duration afterTimeout, int jobs) {
        /** What a child keeps of its output, by default. */
        public static final long OUTPUT_CAP = 256 * 1024;

        public Options {
            if (jobs < 1) throw new IllegalArgumentException("jobs must be at least 1, not " + jobs);
            if (afterTimeout.compareTo(itemTimeout) > 0) afterTimeout = itemTimeout;
        }

        /** One submission at a time; after a time-out, a fifth of the item bound (at least 1 s). */
        public Options(Duration itemTimeout, Duration submissionTime, long outputCap, String visibility) {
            this(itemTimeout, submissionTime, outputCap, visibility, fifthOf(itemTimeout), 1);
        }

        /** The least a test gets after its submission's first time-out (unless the item bound is less). */
        public static final Duration SHORTEST_AFTER_TIMEOUT = Duration.ofSeconds(1);

        public static Options defaults() {
            return new Options(Duration.ofSeconds(10), Duration.ofSeconds(120), OUTPUT_CAP, "visible",
                    Duration.ofSeconds(2), Runtime.getRuntime().availableProcessors());
        }

        public Options withJobs(int n) {
            return new Options(itemTimeout, submissionTime, outputCap, visibility, afterTimeout, n);
        }

        /** A fifth of {@code d}, but at least 1 s (and never more than {@code d}): the bound after a time-out. */
        public static Duration fifthOf(Duration d) {
            Duration f = d.dividedBy(5);
            Duration second = SHORTEST_AFTER_TIMEOUT;
            if (f.compareTo(second) >= 0) return f;
            return second.compareTo(d) < 0 ? second : d;
        }
    }

    /**
     * One submission's grade.
     *
     * @param student  the student id
     * @param rows     one row per graded item, in step order
     * @param flags    what an instructor should look at (copied sheets, compile errors, time-outs, ...)
     * @param runId    the grading run's id
     * @param gradedAt when it was graded (UTC, ISO-8601)
     * @param millis   how long it took
     * @param found    what was found in the submission and where ({@code labs/ at ivan/vramlab-main/})
     */
    public record Result(String student, List<ScoreRow> rows, List<String> flags, String runId, String gradedAt,
                         long millis, String found) {
        public Result(String student, List<ScoreRow> rows, List<String> flags, String runId, String gradedAt,
                      long millis) {
            this(student, rows, flags, runId, gradedAt, millis, "");
        }

        public int earned() { return Reports.earned(rows); }
        public int total() { return Reports.total(rows); }
    }

    private final Kit kit;
    private final Options options;
    private final Path work;
    private final Salt salt;
    private final PrintStream log;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final LabItems labItems;
    private final Inventory inventory;
    private final QuizMarking quiz;
    private Declared declared;

    public Grader(Kit kit, Options options, Path work, Salt salt, PrintStream log) {
        this.kit = kit;
        this.options = options;
        this.work = work;
        this.salt = salt;
        this.log = log;
        this.labItems = new LabItems(kit, options);
        this.inventory = new Inventory(kit, labItems, work);
        this.quiz = new QuizMarking(salt, kit.rereads());
    }

    /** This grading run's id: it is on every report this grader writes. */
    public String runId() { return runId; }

    /** Every lab item of the kit (by unique id, with its zero row), discovered once on the reference cores. */
    public Map<String, ScoreRow> inventory() throws IOException, InterruptedException { return inventory.items(); }

    /**
     * Uses {@code items} (as {@link #inventory()} returns them) instead of listing the kit's
     * graded tests in a child JVM: for a caller that cached the listing, such as {@code check}.
     */
    public void useInventory(Map<String, ScoreRow> items) { inventory.use(items); }

    /** What the kit declares, read from its class files; checked against every submission's rows. */
    public synchronized Declared declared() {
        if (declared == null) declared = Declared.scan(kit);
        return declared;
    }

    /** Grades one submission; writes {@code out/results.json}; returns its rows in step order. */
    public List<ScoreRow> grade(String student, Path dir, Path out) throws IOException, InterruptedException {
        return gradeOne(student, dir, out).rows();
    }

    /** Grades one submission and writes {@code out/results.json}; the result carries its flags. */
    public Result gradeOne(String student, Path dir, Path out) throws IOException, InterruptedException {
        return gradeOne(student, folderName(student), dir, out);
    }

    /**
     * {@link #gradeOne(String, Path, Path)} with the student's work area named by {@code folder},
     * their folder in a class's grading ({@link #folderNames}).
     */
    Result gradeOne(String student, String folder, Path dir, Path out) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Path area = work.resolve(areaName(student, folder)).normalize();
        if (!area.startsWith(work.normalize())) throw new IllegalArgumentException("bad student id " + student);
        deleteTree(area);                           // a fresh build area for every run
        Files.createDirectories(area);
        SubmissionIntake.Found found = SubmissionIntake.open(dir, area.resolve("unpacked"));
        Submission s = new Submission(found.root(), area);
        List<String> flags = new ArrayList<>(found.flags());
        Map<String, ScoreRow> items = inventory();
        Map<String, ScoreRow> lab = new LinkedHashMap<>();
        CoreBuild.Result build = null;
        String problem = null;
        try {
            if (s.copy() == 0) {
                problem = found.root() == null ? ScoreRow.NOT_GRADED + found.flags().get(0)
                        : ScoreRow.NO_SOURCES + " (" + found.where() + ")";
                if (found.root() != null) flags.add("no Java sources in labs/src/main/java: lab steps not graded");
            } else {
                build = new CoreBuild(s.sources, kit.referenceCore(), area.resolve("build"), CoreCache.SHARED).build();
            }
            if (found.root() != null) flags.addAll(GradedTests.changed(kit, found.root()));
        } catch (IOException | RuntimeException e) {
            problem = "could not read or compile the submission: " + e;
        }
        if (build == null) {
            String why = problem;
            items.forEach((uid, z) -> lab.put(uid, zero(z, why)));
        } else {
            Map<String, String> lost = new LinkedHashMap<>();
            for (CoreBuild.Outcome o : build.failed()) {
                lost.put(o.core().name(), didNotCompile(o));
                // The file as the items' detail names it, from the copy's root (it said vramlab/alloc/X.java:97).
                flags.add("did not compile: the " + o.core().name() + " core ("
                        + o.errors().stream().limit(1).map(e -> "labs/src/main/java/" + e).findFirst().orElse("?") + ")");
            }
            Set<String> run = new HashSet<>();
            items.forEach((uid, z) -> {
                String core = kit.coreOfStep(z.step());
                String why = core != null ? lost.get(core) : lost.isEmpty() ? null
                        : "step " + z.step() + " is in no core's marked steps, and not every core compiled";
                if (why != null) lab.put(uid, zero(z, why));
                else run.add(uid);
            });
            LabItems.Stats stats = new LabItems.Stats();
            Map<String, ScoreRow> ran = labItems.run(build.classpath(), LabItems.select(items, run), area, stats);
            items.keySet().forEach(uid -> { if (ran.containsKey(uid)) lab.put(uid, placed(ran.get(uid))); });
            flags.addAll(stats.flags());
            for (String f : CodeScan.review(s.sources, kit.referenceSources())) flags.add("read the code: " + f);
        }
        List<Question> questions = QuizMarking.once(kit.questions());
        List<ScoreRow> quizRows = quiz.rows(questions, student, s.answers, flags);
        check(questions, student, items, lab, quizRows);
        List<ScoreRow> rows = new ArrayList<>();
        items.keySet().forEach(uid -> rows.add(lab.get(uid)));
        rows.addAll(quizRows);
        List<ScoreRow> sorted = Reports.sorted(rows);
        deleteTree(area.resolve("unpacked"));     // an archive's files and what the tests wrote: not kept
        deleteTree(area.resolve("tmp"));
        Result r = new Result(student, sorted, List.copyOf(flags), runId,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), (System.nanoTime() - t0) / 1_000_000,
                found.where());
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.json"), Reports.gradescopeJson(sorted, options.visibility(),
                output(r, build == null ? problem : null)), StandardCharsets.UTF_8);
        return r;
    }

    /**
     * results.json's {@code output}, the text Gradescope shows for the whole submission (its
     * autograder specification: "Text relevant to the entire submission"): the table, its flags
     * and the score. When no lab step could be graded at all ({@code notGraded}: nothing found,
     * as when files are uploaded without their folders, or no sources), that reason comes first:
     * the flag alone came after every item's line, about a hundred of them, under 0/272.
     */
    private String output(Result r, String notGraded) {
        String table = Reports.table(r.rows(), r.flags()) + "\n(run " + runId + ", " + r.gradedAt() + ")";
        if (notGraded == null) return table;
        return "Score: " + r.earned() + "/" + r.total() + ". " + Character.toUpperCase(notGraded.charAt(0))
                + notGraded.substring(1) + "\n\n" + table;
    }

    /** The rows must add up to what the kit declares; if not, no score is given at all. */
    private void check(List<Question> questions, String student, Map<String, ScoreRow> items, Map<String, ScoreRow> lab,
                       List<ScoreRow> quiz) {
        Map<Path, List<ScoreRow>> byRoot = new LinkedHashMap<>();
        items.keySet().forEach(uid -> byRoot.computeIfAbsent(inventory.rootOf(uid), k -> new ArrayList<>()).add(lab.get(uid)));
        List<String> problems = declared().problems(byRoot, quiz, Declared.quizTotal(questions, student, salt));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the graded items do not add up to what the kit declares, so no score is"
                    + " given: " + String.join("; ", problems));
        }
    }

    private static String didNotCompile(CoreBuild.Outcome o) {
        StringBuilder sb = new StringBuilder("did not compile: the " + o.core().name()
                + " core, so its steps earn nothing (its first errors follow)");
        o.errors().stream().limit(3).forEach(e -> sb.append("\nlabs/src/main/java/").append(e));
        return sb.toString();
    }

    private static ScoreRow zero(ScoreRow z, String why) { return LabItems.zero(z, why); }

    /**
     * A graded step's row whose {@code Reread:} line names where the section is, from the kit's
     * root, as the quiz rows name theirs ({@link Kit#stepRereads}): the heading alone is what the
     * test's JVM wrote.
     */
    private ScoreRow placed(ScoreRow r) {
        String reason = kit.stepRereads().apply(r.reason());
        return reason.equals(r.reason()) ? r : new ScoreRow(r.step(), r.name(), r.points(), r.earned(), r.status(), reason);
    }

    /**
     * Grades every folder in {@code dirs} (the folder's name is the student id) into
     * {@code out/gradebook.csv} and {@code out/<id>/results.json}; returns each student's rows.
     */
    public Map<String, List<ScoreRow>> gradeAll(List<Path> dirs, Path out) throws IOException, InterruptedException {
        Map<String, List<ScoreRow>> all = new LinkedHashMap<>();
        for (Result r : gradeClass(dirs, out)) all.put(r.student(), r.rows());
        return all;
    }

    /**
     * Grades every submission in {@code dirs}, up to {@link Options#jobs} at once, with one line of
     * progress each on the log ({@code [37/200] alice: 212/254 in 4.1 s, labs/ at the top}); keeps the rows that
     * {@code out}'s gradebook holds for students not graded now.
     */
    public List<Result> gradeClass(List<Path> dirs, Path out) throws IOException, InterruptedException {
        return gradeSubmissions(dirs, out).results();
    }

    /** How the flag that a student was graded before begins ({@code regraded (was 120/254 at ...)}). */
    public static final String REGRADED = "regraded (was ";

    /**
     * A class's grading: each student's result, and what was given but not graded (a file that
     * is no submission, a second submission for one student), each with why.
     */
    public record ClassResult(List<Result> results, List<String> skipped) {
        /**
         * How many results have a flag an instructor must look at: every flag but the note that a
         * student was graded before ({@link #REGRADED}), which stays in their row; it alone made a
         * re-grade of one clean submission "1 flagged", with nothing to look at.
         */
        public long flagged() {
            return results.stream().filter(r -> r.flags().stream().anyMatch(f -> !f.startsWith(REGRADED))).count();
        }
    }

    /**
     * Grades every submission in {@code dirs}: a folder, a {@code .zip} or a {@code .tar.gz},
     * named by the student's id ({@link SubmissionIntake}). Nothing one submission holds stops the
     * class: an empty or unreadable one is graded as an empty copy and flagged; a path that is no
     * submission is skipped, and so is a second one for the same student.
     */
    public ClassResult gradeSubmissions(List<Path> dirs, Path out) throws IOException, InterruptedException {
        return ClassGrading.grade(this, dirs, out, options.jobs(), log);
    }

    /**
     * A student id as a folder name (their work area, and their {@code results.json}'s folder),
     * one per id: an id of 1-64 letters, digits and {@code ._@+-} is its own folder name unless
     * it could name the grader's own ({@link #isGradersOwn}: it begins with {@code .} or {@code _},
     * or is a file or folder the grader writes); any other id has those characters kept, the rest made {@code _}, cut to 55,
     * then {@code ~} and 8 hex digits of its SHA-256. Making the others {@code _} alone gave
     * {@code 张三} and {@code 李四} one folder, {@code __}: graded at once, each deleted the
     * other's build area (0 points, "did not compile"), and one results.json overwrote the other.
     */
    public static String folderName(String student) {
        if (student.matches("[A-Za-z0-9._@+-]{1,64}") && !isGradersOwn(student)) return student;
        return hashed(student);
    }

    /**
     * Each of {@code ids}' folder in one class's grading: its {@link #folderName}, but the hashed
     * name for every id whose folder name is another's but for case: macOS's and Windows's disks
     * do not tell {@code Ana/} from {@code ana/}, so the two students shared a work area (each
     * deleted the other's build) and one results.json overwrote the other. Every id of such a
     * group is hashed, not all but the first: the grader is given the ids of this run and of the
     * gradebook it adds to, so a group only grows; an id that kept its name while alone
     * ({@code ana}, graded last week) is hashed once {@code Ana} comes, and every later run gives it
     * that hashed folder, whereas "the first keeps it" would have to pick, by codepoint or by
     * arrival, and either way a later run could give {@code Ana} the plain folder that is
     * {@code ana/} on disk. Ids that share no name but for case keep theirs.
     */
    public static Map<String, String> folderNames(Collection<String> ids) {
        Map<String, Integer> byFold = new HashMap<>();
        for (String id : new LinkedHashSet<>(ids)) byFold.merge(folderName(id).toLowerCase(Locale.ROOT), 1, Integer::sum);
        Map<String, String> folders = new LinkedHashMap<>();
        for (String id : ids) {
            String f = folderName(id);
            folders.put(id, byFold.get(f.toLowerCase(Locale.ROOT)) > 1 ? hashed(id) : f);
        }
        return folders;
    }

    /** The reports folder's own work area, beside the students' folders ({@code grades/.work}). */
    public static final String CLASS_WORK = ".work";

    /**
     * The names the grader writes beside students' folders: in the reports folder
     * ({@value #CLASS_WORK}, the gradebook's two files and the temporary files they are written
     * through) and in the work area ({@link Inventory#AREA}, the listing child's folder; and
     * {@code work}, where a working copy's grading keeps its areas beside its results.json).
     */
    static final Set<String> GRADERS_OWN = Set.of(CLASS_WORK, "work", Inventory.AREA, Gradebook.WIDE, Gradebook.LONG,
            Gradebook.WIDE + Gradebook.TMP, Gradebook.LONG + Gradebook.TMP);

    /**
     * Whether {@code f} could name one of the grader's own folders or files, so a student may not
     * have it: one of {@link #GRADERS_OWN} in any case (macOS and Windows do not tell
     * {@code _Inventory} from {@code _inventory}), or any name beginning with {@code .} or {@code _},
     * the grader's prefixes for what it keeps for itself (dots alone among them). A student id
     * {@code _inventory} was its own folder, the listing child's: its build area and the listing's
     * files were one folder, and a submission named {@code gradebook.csv} made its reports folder
     * where the gradebook is written. Such an id gets the hashed name (with a {@code ~}, which no
     * name of the grader's has), and the progress line says where its reports went.
     */
    static boolean isGradersOwn(String f) {
        if (f.startsWith(".") || f.startsWith("_")) return true;
        String lower = f.toLowerCase(java.util.Locale.ROOT);
        return GRADERS_OWN.stream().anyMatch(n -> n.toLowerCase(java.util.Locale.ROOT).equals(lower));
    }

    /** {@code student}'s characters outside {@code ._@+-}, letters and digits made {@code _}, cut to 55, {@code ~} and 8 hex digits. */
    private static String hashed(String student) {
        String f = student.replaceAll("[^A-Za-z0-9._@+-]", "_");
        if (f.length() > 55) f = f.substring(0, 55);
        try {
            byte[] h = java.security.MessageDigest.getInstance("SHA-256").digest(student.getBytes(StandardCharsets.UTF_8));
            return f + "~" + java.util.HexFormat.of().formatHex(h, 0, 4);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * A student's work area in the grader's scratch folder (its build, what its tests write):
     * their {@link #folderName}, but for the practice numbers' id, {@link Variant#SEED}, an
     * internal word (a working copy graded with no student named: {@code ./vramlab grade},
     * {@code mvn test -Plab}), whose area is named as the gradebook names that row,
     * "practice" ({@code target/grading/work/practice/}, where it was
     * {@code work/seed/}). A student whose id is "practice" gets it with
     * the hash {@link #folderName} gives an id it cannot keep, so no two students share an area.
     */
    static String areaName(String student) {
        return areaName(student, folderName(student));
    }

    /** {@link #areaName(String)} for a student whose folder is {@code f} ({@link #folderNames}). */
    static String areaName(String student, String f) {
        if (student.equals(Variant.SEED)) return LabReport.PRACTICE_ROW;
        return f.equalsIgnoreCase(LabReport.PRACTICE_ROW) ? hashed(student) : f;
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (var s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(q);
        }
    }

    /**
     * Runs the kit's graded lab items that {@code which} selects (by their zero row: step, name,
     * points) against compiled cores, in child JVMs under this grader's bounds; returns one row per
     * selected item. {@code cores} are class folders in dependency order (a {@code CoreBuild}
     * result's class path, or one folder); {@code area} is a scratch folder for the children.
     */
    public List<ScoreRow> runLabItems(List<Path> cores, Predicate<ScoreRow> which, Path area)
            throws IOException, InterruptedException {
        Set<String> uids = new HashSet<>();
        inventory().forEach((uid, z) -> { if (which.test(z)) uids.add(uid); });
        Map<String, ScoreRow> rows = labItems.run(cores, LabItems.select(inventory(), uids), area, new LabItems.Stats());
        return new ArrayList<>(rows.values());
    }
}
