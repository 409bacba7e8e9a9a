package vramlab.quiz.grade;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Mark;
import vramlab.quiz.Question;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.Variant;

/**
 * Grades submissions so that nothing in one can change the tests, the points or the reports,
 * and nothing one does stops the others from being graded.
 *
 * <ul>
 *   <li>Lab items: the kit's {@code @Graded} tests, run in a child JVM against the submission's
 *       compiled {@code labs/src/main/java}; kit classes come first on the class path, so a
 *       submission cannot replace a test or the harness. A loop, {@code System.exit}, a crash
 *       or a flood of output costs the item that was running (0 and the reason); a new child
 *       then runs the items left. Sources that do not compile cost every lab item.
 *   <li>Quiz items: marked here, in the grader's JVM, from the submission's answer sheets, on
 *       keys the reference simulator computes for the student's variant with the instructor's
 *       salt; no student code runs and the salt never reaches a child.
 * </ul>
 */
public final class Grader {
    /**
     * @param itemTimeout    the longest one graded test may run
     * @param submissionTime the longest one submission's tests may run in all
     * @param outputCap      the most a child may print before it is stopped
     * @param visibility     Gradescope's visibility for the tests in {@code results.json}
     */
    public record Options(Duration itemTimeout, Duration submissionTime, long outputCap, String visibility) {
        public static Options defaults() {
            return new Options(Duration.ofSeconds(10), Duration.ofMinutes(5), 4L << 20, "visible");
        }
    }

    private final Kit kit;
    private final Options options;
    private final Path work;
    private final Salt salt;
    private final PrintStream log;
    private Map<String, ScoreRow> inventory;

    public Grader(Kit kit, Options options, Path work, Salt salt, PrintStream log) {
        this.kit = kit;
        this.options = options;
        this.work = work;
        this.salt = salt;
        this.log = log;
    }

    /** Every lab item of the kit (by unique id, with its zero row), discovered once on the reference cores. */
    public synchronized Map<String, ScoreRow> inventory() throws IOException, InterruptedException {
        if (inventory != null) return inventory;
        Path area = Files.createDirectories(work.resolve("_inventory"));
        ChildRun run = new ChildRun(command(area, List.of(kit.referenceCore()), "list", null), area, 0);
        run.run(Map.of(), Duration.ofMinutes(2), System.nanoTime() + Duration.ofMinutes(2).toNanos(), options.outputCap());
        Map<String, ScoreRow> items = new LinkedHashMap<>();
        for (String line : Files.readAllLines(run.results(), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", 3);
            if (f[0].equals("ITEM") && !f[2].startsWith("q")) items.put(f[1], ScoreRow.fromTsv(f[2]));
        }
        if (!run.completed()) throw new IllegalStateException("could not list the kit's graded tests; see " + area);
        inventory = items;
        return items;
    }

    /** Grades one submission; writes {@code out/results.json}; returns its rows in step order. */
    public List<ScoreRow> grade(String student, Path dir, Path out) throws IOException, InterruptedException {
        Path area = work.resolve(folderName(student)).normalize();
        if (!area.startsWith(work.normalize())) throw new IllegalArgumentException("bad student id " + student);
        deleteTree(area);                           // a fresh build area for every run
        Files.createDirectories(area);
        Submission s = new Submission(dir, area);
        List<ScoreRow> rows = new ArrayList<>();
        String problem = null;
        try {
            s.copy();
            problem = s.compile();
            if (problem != null) problem = "labs/ did not compile: " + problem;
        } catch (IOException | RuntimeException e) {
            problem = "could not read the submission: " + e;
        }
        rows.addAll(problem == null ? runLabItems(List.of(s.classes), r -> true, area) : zeros(problem));
        rows.addAll(quizItems(student, s.answers));
        rows = Reports.sorted(rows);
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.json"),
                Reports.gradescopeJson(rows, options.visibility(), Reports.table(rows)), StandardCharsets.UTF_8);
        return rows;
    }

    /**
     * Grades every folder in {@code dirs} (the folder's name is the student id) into
     * {@code out/gradebook.csv} and {@code out/<id>/results.json}; returns each student's rows.
     */
    public Map<String, List<ScoreRow>> gradeAll(List<Path> dirs, Path out) throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        Map<String, List<ScoreRow>> all = new LinkedHashMap<>();
        String header = null;
        for (Path d : dirs) {
            Path name = d.toAbsolutePath().normalize().getFileName();
            String student = name == null ? "root" : name.toString();
            List<ScoreRow> rows = grade(student, d, out.resolve(folderName(student)));
            all.put(student, rows);
            if (header == null) header = Reports.csvHeader(rows);
            lines.add(Reports.csvRow(student, rows));
            log.println(student + ": " + Reports.earned(rows) + "/" + Reports.total(rows));
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("gradebook.csv"), (header == null ? "student,score,max_score" : header) + "\n"
                + String.join("\n", lines) + (lines.isEmpty() ? "" : "\n"), StandardCharsets.UTF_8);
        return all;
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

    private List<ScoreRow> zeros(String why) throws IOException, InterruptedException {
        List<ScoreRow> out = new ArrayList<>();
        for (ScoreRow z : inventory().values()) out.add(ScoreRow.zero(z.step(), z.name(), z.points(), "FAILED", why));
        return out;
    }

    /**
     * Runs the kit's graded lab items that {@code which} selects (by their zero row: step, name,
     * points) against compiled cores, in child JVMs under this grader's bounds; returns one row per
     * selected item. {@code cores} are class folders in dependency order (a {@code CoreBuild}
     * result's class path, or one folder); {@code area} is a scratch folder for the children.
     */
    public List<ScoreRow> runLabItems(List<Path> cores, java.util.function.Predicate<ScoreRow> which, Path area)
            throws IOException, InterruptedException {
        Files.createDirectories(area);
        Map<String, ScoreRow> items = new LinkedHashMap<>();
        inventory().forEach((uid, z) -> { if (which.test(z)) items.put(uid, z); });
        Map<String, ScoreRow> booked = new LinkedHashMap<>();
        long deadline = System.nanoTime() + options.submissionTime().toNanos();
        String stoppedEarly = "not run: the test JVM stopped before it";
        for (int attempt = 1; booked.size() < items.size() && attempt <= items.size() + 1; attempt++) {
            List<String> left = items.keySet().stream().filter(u -> !booked.containsKey(u)).toList();
            Path uids = area.resolve("uids-" + attempt + ".txt");
            Files.write(uids, left, StandardCharsets.UTF_8);
            ChildRun run = new ChildRun(command(area, cores, "run", uids), area, attempt);
            run.run(items, options.itemTimeout(), deadline, options.outputCap());
            // Steps, names and points are the kit's; the child only says how each item ended.
            run.booked().forEach((uid, r) -> {
                ScoreRow z = items.get(uid);
                if (z == null) return;
                int earned = Math.min(r.earned(), z.points());
                String status = earned == z.points() ? r.status() : r.passed() ? "FAILED" : r.status();
                booked.putIfAbsent(uid, new ScoreRow(z.step(), z.name(), z.points(), earned, status, r.reason()));
            });
            if (run.booked().isEmpty() && !run.completed()) {
                stoppedEarly = "not run: the test JVM stopped before its first test: " + run.firstOutput();
            }
            if (run.completed() || run.booked().isEmpty() || System.nanoTime() > deadline) break;
        }
        String why = System.nanoTime() > deadline ? "not run: the submission's time bound was used up" : stoppedEarly;
        List<ScoreRow> out = new ArrayList<>();
        items.forEach((uid, z) -> out.add(booked.getOrDefault(uid,
                ScoreRow.zero(z.step(), z.name(), z.points(), "FAILED", why))));
        return out;
    }

    private List<ScoreRow> quizItems(String student, Path answers) {
        List<ScoreRow> out = new ArrayList<>();
        for (Question q : kit.questions()) {
            Path file = answers.resolve(q.chapter() + ".txt");
            Variant v = Variant.of(q.chapter(), student, salt);
            String name = q.id() + ": " + q.title();
            try {
                String where = "labs/answers/" + q.chapter() + ".txt";
                AnswerSheet sheet = Files.isRegularFile(file)
                        ? AnswerSheet.parse(Files.readString(file, StandardCharsets.UTF_8), where)
                        : AnswerSheet.empty(where + ", which is missing");
                Mark m = Mark.of(q, v, sheet);
                out.add(m.full() ? new ScoreRow(q.id(), name, m.points(), m.points(), "PASSED", "")
                        : new ScoreRow(q.id(), name, m.points(), m.earned(), "FAILED", m.summary()));
            } catch (IOException | RuntimeException e) {
                out.add(ScoreRow.zero(q.id(), name, q.points(v), "FAILED", "answer sheet: " + e.getMessage()));
            }
        }
        return out;
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
                roots.toString()));
        if (uids != null) cmd.add(uids.toString());
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
