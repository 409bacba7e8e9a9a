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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Mark;
import vramlab.quiz.Question;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.Variant;
import vramlab.quiz.build.CoreBuild;

/**
 * Grades submissions so that nothing in one can change the tests, the points or the reports,
 * and nothing one does stops the others from being graded.
 *
 * <ul>
 *   <li>Lab items: the submission's {@code labs/src/main/java} is compiled one core at a time
 *       ({@link CoreBuild}); a core that does not compile earns nothing for its own steps (the
 *       compiler's first errors are the reason) and the reference stands in for it, so every
 *       other core's steps are graded as usual. The kit's {@code @Graded} tests run in child JVMs
 *       on those classes; kit classes come first on the class path, so a submission cannot
 *       replace a test or the harness. An item is all or nothing: it passed, or it earns 0
 *       whatever it threw. A loop, {@code System.exit}, a crash or a flood of output costs the
 *       item that was running (0 and the reason); a new child then runs the items left. After a
 *       submission's first time-out its items get a shorter bound, and the whole submission has
 *       a time budget, so a loop in a method every test calls costs seconds, not minutes.
 *   <li>Quiz items: marked here, in the grader's JVM, from the submission's answer sheets, on
 *       keys the reference simulator computes for the student's variant with the instructor's
 *       salt; no student code runs and the salt never reaches a child. Partial credit exists
 *       only here. A sheet written for another student or other numbers is flagged, and marked
 *       on this student's own variant.
 *   <li>What a child says is believed only when it carries the child's MAC (see
 *       {@link ChildRunner}), and only as "passed" or "failed": steps, names and points are the
 *       kit's.
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
            Duration second = Duration.ofSeconds(1);
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
    private Map<String, ScoreRow> inventory;
    private Map<String, Path> rootOf;
    private Declared declared;

    public Grader(Kit kit, Options options, Path work, Salt salt, PrintStream log) {
        this.kit = kit;
        this.options = options;
        this.work = work;
        this.salt = salt;
        this.log = log;
    }

    /** This grading run's id: it is on every report this grader writes. */
    public String runId() { return runId; }

    /** Every lab item of the kit (by unique id, with its zero row), discovered once on the reference cores. */
    public synchronized Map<String, ScoreRow> inventory() throws IOException, InterruptedException {
        if (inventory != null) return inventory;
        Path area = Files.createDirectories(work.resolve("_inventory"));
        ChildRun run = new ChildRun(command(area, List.of(kit.referenceCore()), "list", null), area, 0);
        run.run(Map.of(), Duration.ofMinutes(2), System.nanoTime() + Duration.ofMinutes(2).toNanos(), options.outputCap());
        Map<String, ScoreRow> items = new LinkedHashMap<>();
        for (String line : Files.readAllLines(run.results(), StandardCharsets.UTF_8)) {
            int mac = line.lastIndexOf('\t');
            String[] f = line.substring(0, Math.max(0, mac)).split("\t", 3);
            if (f.length == 3 && f[0].equals("ITEM") && !f[2].startsWith("q")) items.put(f[1], ScoreRow.fromTsv(f[2]));
        }
        if (!run.completed()) throw new IllegalStateException("could not list the kit's graded tests; see " + area);
        Map<String, Path> roots = new LinkedHashMap<>();
        for (String uid : items.keySet()) roots.put(uid, rootOfUid(uid));
        rootOf = roots;
        inventory = items;
        return items;
    }

    /**
     * Uses {@code items} (as {@link #inventory()} returns them) instead of listing the kit's
     * graded tests in a child JVM: for a caller that cached the listing, such as {@code check}.
     */
    public synchronized void useInventory(Map<String, ScoreRow> items) {
        Map<String, Path> roots = new LinkedHashMap<>();
        for (String uid : items.keySet()) roots.put(uid, rootOfUid(uid));
        rootOf = roots;
        inventory = new LinkedHashMap<>(items);
    }

    /** What the kit declares, read from its class files; checked against every submission's rows. */
    public synchronized Declared declared() {
        if (declared == null) declared = Declared.scan(kit);
        return declared;
    }

    /** The test folder that holds the class of item {@code uid}, or null. */
    private Path rootOfUid(String uid) {
        int at = uid.indexOf("[class:");
        if (at < 0) return null;
        int end = uid.indexOf(']', at);
        String cls = uid.substring(at + "[class:".length(), end).replace('.', '/') + ".class";
        for (Path root : kit.testRoots()) if (Files.isRegularFile(root.resolve(cls))) return root;
        return null;
    }

    /** Grades one submission; writes {@code out/results.json}; returns its rows in step order. */
    public List<ScoreRow> grade(String student, Path dir, Path out) throws IOException, InterruptedException {
        return gradeOne(student, dir, out).rows();
    }

    /** Grades one submission and writes {@code out/results.json}; the result carries its flags. */
    public Result gradeOne(String student, Path dir, Path out) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Path area = work.resolve(folderName(student)).normalize();
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
                problem = found.root() == null ? "not graded: " + found.flags().get(0)
                        : "no Java sources in labs/src/main/java (" + found.where() + ")";
                if (found.root() != null) flags.add("no Java sources in labs/src/main/java: lab steps not graded");
            } else {
                build = new CoreBuild(s.sources, kit.referenceCore(), area.resolve("build")).build();
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
                flags.add("did not compile: the " + o.core().name() + " core ("
                        + o.errors().stream().limit(1).map(Object::toString).findFirst().orElse("?") + ")");
            }
            Set<String> run = new HashSet<>();
            items.forEach((uid, z) -> {
                String core = kit.coreOfStep(z.step());
                String why = core != null ? lost.get(core) : lost.isEmpty() ? null
                        : "step " + z.step() + " is in no core's marked steps, and not every core compiled";
                if (why != null) lab.put(uid, zero(z, why));
                else run.add(uid);
            });
            Stats stats = new Stats();
            Map<String, ScoreRow> ran = runItems(build.classpath(), run, area, stats);
            items.keySet().forEach(uid -> { if (ran.containsKey(uid)) lab.put(uid, ran.get(uid)); });
            flags.addAll(stats.flags());
            for (String f : CodeScan.review(s.sources, kit.referenceSources())) flags.add("read the code: " + f);
        }
        List<Question> questions = kit.questions().stream().map(q -> (Question) new Once(q)).toList();
        List<ScoreRow> quiz = quizItems(questions, student, s.answers, flags);
        check(questions, student, items, lab, quiz);
        List<ScoreRow> rows = new ArrayList<>();
        items.keySet().forEach(uid -> rows.add(lab.get(uid)));
        rows.addAll(quiz);
        List<ScoreRow> sorted = Reports.sorted(rows);
        deleteTree(area.resolve("unpacked"));     // an archive's files and what the tests wrote: not kept
        deleteTree(area.resolve("tmp"));
        Result r = new Result(student, sorted, List.copyOf(flags), runId,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), (System.nanoTime() - t0) / 1_000_000,
                found.where());
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.json"), Reports.gradescopeJson(sorted, options.visibility(),
                Reports.table(sorted, r.flags()) + "\n(run " + runId + ", " + r.gradedAt() + ")"), StandardCharsets.UTF_8);
        return r;
    }

    /** The rows must add up to what the kit declares; if not, no score is given at all. */
    private void check(List<Question> questions, String student, Map<String, ScoreRow> items, Map<String, ScoreRow> lab,
                       List<ScoreRow> quiz) {
        Map<Path, List<ScoreRow>> byRoot = new LinkedHashMap<>();
        items.keySet().forEach(uid -> byRoot.computeIfAbsent(rootOf.get(uid), k -> new ArrayList<>()).add(lab.get(uid)));
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

    private static ScoreRow zero(ScoreRow z, String why) {
        return ScoreRow.zero(z.step(), z.name(), z.points(), ScoreRow.FAILED, why);
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

    /**
     * A class's grading: each student's result, and what was given but not graded (a file that
     * is no submission, a second submission for one student), each with why.
     */
    public record ClassResult(List<Result> results, List<String> skipped) {
        public long flagged() { return results.stream().filter(r -> !r.flags().isEmpty()).count(); }
    }

    /**
     * Grades every submission in {@code dirs}: a folder, a {@code .zip} or a {@code .tar.gz},
     * named by the student's id ({@link SubmissionIntake}). Nothing one submission holds stops the
     * class: an empty or unreadable one is graded as an empty copy and flagged; a path that is no
     * submission is skipped, and so is a second one for the same student.
     */
    public ClassResult gradeSubmissions(List<Path> dirs, Path out) throws IOException, InterruptedException {
        Map<String, Path> byStudent = new LinkedHashMap<>();
        List<String> skipped = new ArrayList<>();
        for (Path d : dirs) {
            if (!SubmissionIntake.isSubmission(d)) {
                skipped.add(d + ": " + (Files.exists(d) ? "not a folder, a .zip or a .tar.gz" : "no such file or folder"));
                continue;
            }
            String student = SubmissionIntake.studentOf(d);
            Path before = byStudent.putIfAbsent(student, d);
            if (before != null) skipped.add(d + ": a second submission for " + student + " (graded " + before + ")");
        }
        skipped.forEach(w -> log.println("skipped " + w));
        Gradebook book = Gradebook.open(out);
        inventory();
        declared();
        int n = byStudent.size();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(options.jobs(), n)));
        List<Future<Result>> futures = new ArrayList<>();
        try {
            for (Map.Entry<String, Path> e : byStudent.entrySet()) {
                futures.add(pool.submit(() -> {
                    Result r = gradeOne(e.getKey(), e.getValue(), out.resolve(folderName(e.getKey())));
                    String was = book.earlier(r.student());
                    if (was != null) {
                        List<String> f = new ArrayList<>(r.flags());
                        f.add("regraded (was " + was + ")");
                        r = new Result(r.student(), r.rows(), List.copyOf(f), r.runId(), r.gradedAt(), r.millis(), r.found());
                    }
                    book.put(r);
                    book.write();
                    log.println(progress(done.incrementAndGet(), n, r));
                    return r;
                }));
            }
            List<Result> results = new ArrayList<>();
            for (Future<Result> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException ex) {
                    Throwable c = ex.getCause();
                    if (c instanceof IOException io) throw io;
                    if (c instanceof RuntimeException re) throw re;
                    throw new IllegalStateException(c);
                }
            }
            book.write();
            return new ClassResult(results, List.copyOf(skipped));
        } finally {
            pool.shutdownNow();
        }
    }

    /** {@code [37/200] alice: 212/254 in 4.1 s, labs/ at the top}, and the flags' first words. */
    static String progress(int k, int n, Result r) {
        String f = r.flags().isEmpty() ? "" : " (" + String.join("; ", r.flags().stream()
                .map(x -> shortened(x, 60)).toList()) + ")";
        String where = r.found().isEmpty() ? "" : ", " + r.found();
        return String.format(Locale.ROOT, "[%d/%d] %s: %d/%d in %.1f s%s%s", k, n, r.student(), r.earned(), r.total(),
                r.millis() / 1000.0, where, f);
    }

    /** {@code s} cut to at most {@code max} characters at a word's end, with "..." when cut: never mid-word. */
    static String shortened(String s, int max) {
        if (s.length() <= max) return s;
        int cut = s.lastIndexOf(' ', max - 3);
        String head = (cut > 0 ? s.substring(0, cut) : s.substring(0, max - 3)).stripTrailing();
        while (!head.isEmpty() && ",;:(".indexOf(head.charAt(head.length() - 1)) >= 0) {
            head = head.substring(0, head.length() - 1).stripTrailing();
        }
        return head + "...";
    }

    /** A student id as a folder name: letters, digits and {@code ._@+-} only, never {@code .} or {@code ..}. */
    static String folderName(String student) {
        String f = student.replaceAll("[^A-Za-z0-9._@+-]", "_");
        if (f.length() > 64) f = f.substring(0, 64);
        return f.isEmpty() || f.chars().allMatch(c -> c == '.') ? "_" + f : f;
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
        Map<String, ScoreRow> rows = runItems(cores, uids, area, new Stats());
        return new ArrayList<>(rows.values());
    }

    /** What went wrong in a submission's children, for its flags. */
    static final class Stats {
        int timeouts;
        int exits;
        int floods;
        int forged;
        int disk;
        boolean outOfTime;

        List<String> flags() {
            List<String> out = new ArrayList<>();
            if (timeouts > 0) out.add("timed out: " + timeouts + (timeouts == 1 ? " item" : " items"));
            if (exits > 0) out.add("the test JVM exited or crashed: " + exits + (exits == 1 ? " time" : " times"));
            if (floods > 0) out.add("wrote output around the cap: " + floods + (floods == 1 ? " time" : " times"));
            if (disk > 0) out.add("wrote files past the cap on what a test may write: " + disk + (disk == 1 ? " time" : " times"));
            if (outOfTime) out.add("the submission's time bound was used up");
            if (forged > 0) {
                out.add("forged results: " + forged + " line(s) in a results file did not come from the grader");
            }
            return out;
        }
    }

    /** The rows of items {@code uids}, in inventory order. */
    private Map<String, ScoreRow> runItems(List<Path> cores, Set<String> uids, Path area, Stats stats)
            throws IOException, InterruptedException {
        Files.createDirectories(area);
        Map<String, ScoreRow> items = new LinkedHashMap<>();
        inventory().forEach((uid, z) -> { if (uids.contains(uid)) items.put(uid, z); });
        Map<String, ScoreRow> booked = new LinkedHashMap<>();
        long deadline = System.nanoTime() + options.submissionTime().toNanos();
        String stoppedEarly = "not run: the test JVM stopped before it";
        for (int attempt = 1; booked.size() < items.size() && attempt <= items.size() + 1; attempt++) {
            List<String> left = items.keySet().stream().filter(u -> !booked.containsKey(u)).toList();
            Path list = area.resolve("uids-" + attempt + ".txt");
            Files.write(list, left, StandardCharsets.UTF_8);
            ChildRun run = new ChildRun(command(area, cores, "run", list), area, attempt);
            Duration bound = stats.timeouts > 0 ? options.afterTimeout() : options.itemTimeout();
            run.run(items, bound, deadline, options.outputCap());
            stats.forged += run.forged();
            String stop = run.stoppedBy();
            if (stop != null) {
                if (stop.startsWith("timed out")) stats.timeouts++;
                else if (stop.startsWith("the JVM exited")) stats.exits++;
                else if (stop.startsWith("wrote more")) stats.floods++;
                else if (stop.startsWith("wrote files")) stats.disk++;
                else stats.outOfTime = true;
            }
            // Steps, names and points are the kit's; the child only says whether each item passed.
            run.booked().forEach((uid, r) -> {
                ScoreRow z = items.get(uid);
                if (z == null) return;
                booked.putIfAbsent(uid, r.passed()
                        ? new ScoreRow(z.step(), z.name(), z.points(), z.points(), ScoreRow.PASSED, "")
                        : ScoreRow.zero(z.step(), z.name(), z.points(),
                                ScoreRow.SKIPPED.equals(r.status()) ? ScoreRow.SKIPPED : ScoreRow.FAILED, hint(r.reason())));
            });
            if (run.booked().isEmpty() && !run.completed()) {
                stoppedEarly = "not run: the test JVM stopped before its first test: " + run.firstOutput();
            }
            if (run.completed() || run.booked().isEmpty() || System.nanoTime() > deadline) break;
        }
        boolean late = System.nanoTime() > deadline;
        if (late && booked.size() < items.size()) stats.outOfTime = true;
        String why = late ? "not run: the submission's time bound (" + options.submissionTime().toSeconds()
                + " s) was used up" : stoppedEarly;
        Map<String, ScoreRow> out = new LinkedHashMap<>();
        items.forEach((uid, z) -> out.put(uid, booked.getOrDefault(uid, zero(z, why))));
        return out;
    }

    /** A linkage error usually means a changed signature: say so under the reason. */
    static String hint(String reason) {
        if (reason.matches("(?s).*\\b(NoSuchMethodError|NoSuchFieldError|AbstractMethodError|NoClassDefFoundError"
                + "|IncompatibleClassChangeError)\\b.*")) {
            return reason + "\n(a class or method the kit's tests use is missing, or has another signature, in your"
                    + " labs/: keep the names and signatures as they were handed out)";
        }
        return reason;
    }

    /** The quiz rows: every registered question, marked here on the student's own variant. */
    private List<ScoreRow> quizItems(List<Question> all, String student, Path answers, List<String> flags) {
        List<ScoreRow> out = new ArrayList<>();
        Map<String, List<Question>> byChapter = new LinkedHashMap<>();
        for (Question q : all) byChapter.computeIfAbsent(q.chapter(), k -> new ArrayList<>()).add(q);
        byChapter.forEach((chapter, questions) -> {
            Path file = answers.resolve(chapter + ".txt");
            String where = "labs/answers/" + chapter + ".txt";
            Variant v = Variant.of(chapter, student, salt);
            AnswerSheet sheet;
            List<String> notes = new ArrayList<>();
            try {
                sheet = Files.isRegularFile(file)
                        ? AnswerSheet.parse(Files.readString(file, StandardCharsets.UTF_8), where)
                        : AnswerSheet.empty(where + ", which is missing");
                if (Files.isRegularFile(file) && sheet.answered()) {
                    for (String p : sheet.headerProblems(chapter, v)) {
                        notes.add(p);
                        flags.add((p.contains("(a copied sheet?)") ? "copied sheet? " : "sheet header: ")
                                + p.replace(" (a copied sheet?)", ""));
                    }
                    notes.addAll(sheet.unknownKeys(questions, v));
                }
            } catch (IOException | RuntimeException e) {
                for (Question q : questions) {
                    out.add(ScoreRow.zero(q.id(), q.id() + ": " + q.title(), q.points(v), ScoreRow.FAILED,
                            "answer sheet: " + e.getMessage()));
                }
                return;
            }
            for (Question q : questions) {
                String name = q.id() + ": " + q.title();
                try {
                    Mark m = Mark.of(q, v, sheet);
                    List<String> mine = notes.stream().filter(n -> !n.contains("unknown key '") || n.contains("'" + q.id() + "."))
                            .toList();
                    out.add(ScoreRow.quiz(q.id(), name, m, m.full() ? "" : String.join("\n", mine)));
                } catch (RuntimeException e) {
                    out.add(ScoreRow.zero(q.id(), name, q.points(v), ScoreRow.FAILED, "could not mark: " + e));
                }
            }
        });
        return out;
    }

    /**
     * A question whose parts are computed once per variant: marking, the unknown keys and the
     * declared total each need them, and each computation replays the reference simulator.
     */
    private static final class Once implements Question {
        private final Question q;
        private final Map<String, List<vramlab.quiz.Part>> parts = new java.util.HashMap<>();

        Once(Question q) { this.q = q; }

        @Override public String id() { return q.id(); }
        @Override public String title() { return q.title(); }
        @Override public String chapter() { return q.chapter(); }
        @Override public String prompt(Variant v) { return q.prompt(v); }

        @Override
        public synchronized List<vramlab.quiz.Part> parts(Variant v) {
            return parts.computeIfAbsent(v.chapter() + "/" + v.student() + "/" + v.fingerprint(), k -> q.parts(v));
        }
    }

    private List<String> command(Path area, List<Path> cores, String mode, Path uids) throws IOException {
        List<Path> cp = new ArrayList<>();
        cp.add(kit.runtime().get(0));               // the harness first: a submission cannot shadow it
        cp.addAll(kit.testRoots());
        cp.addAll(kit.runtime().subList(1, kit.runtime().size()));
        cp.addAll(cores);                           // the student's cores last
        Path roots = area.resolve("roots.txt");
        Files.write(roots, kit.testRoots().stream().map(p -> p.toAbsolutePath().toString()).toList());
        Files.createDirectories(area.resolve("tmp"));
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + area.resolve("tmp"), "-cp", ChildRun.classpath(cp), ChildRunner.class.getName(),
                mode, area.resolve("results-" + (uids == null ? 0 : attemptOf(uids)) + ".txt").toString(),
                roots.toString(), uids == null ? "-" : uids.toString(), Long.toString(options.outputCap())));
        return cmd;
    }

    private static String attemptOf(Path uids) {
        String n = uids.getFileName().toString();
        return n.substring("uids-".length(), n.length() - ".txt".length());
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
