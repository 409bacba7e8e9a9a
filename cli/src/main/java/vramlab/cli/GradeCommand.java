package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.grade.Gradebook;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;
import vramlab.quiz.grade.LabReport;
import vramlab.quiz.grade.SubmissionIntake;

/**
 * {@code vramlab grade [DIR...]}: grades the working copy (its labs/ and labs/answers/), or
 * each submission folder given, into a score table, Gradescope's results.json and a gradebook.
 */
@CommandLine.Command(name = "grade", mixinStandardHelpOptions = true,
        header = "grade the working copy's labs and answers, or each submission given",
        description = """
                Without a folder: grades this copy's labs/src/main/java and labs/answers/, prints the table
                ending in Score: X/Y and writes target/grading/results.json (Gradescope's format).
                With submissions: each is one student's copy, named by the student's id: a folder with labs/
                at its top or one or two folders down (a Download ZIP, a whole clone), labs/'s contents, or a
                .zip or .tar.gz of one (unpacked in a scratch folder, within limits); a submission with
                nothing to grade is graded as empty and flagged, a path that is none is skipped; writes <out>/<id>/results.json, <out>/gradebook.csv (one row per student:
                total, each chapter's lab and quiz points, flags) and <out>/gradebook-items.csv (one row per
                student and item, with the reason). Grading some students again keeps the others' rows.
                Graded tests and keys always come from this kit, never from a submission. The cores are
                compiled one at a time: a core that does not compile costs only its own steps. A
                submission that loops, exits, crashes or prints too much loses only the test that was
                running; submissions are graded in parallel, one line of progress each on stderr.""",
        footer = """

                Quiz sheets are marked with the instructor's salt from VRAMLAB_SALT or VRAMLAB_SALT_FILE;
                without one, grading refuses to run unless --practice says practice numbers are meant.
                A test JVM keeps the first 256 KiB of what it prints.""")
final class GradeCommand implements Command {
    @Option(names = "--out", paramLabel = "<dir>",
            description = "where reports go (default: grades/, or target/grading/)")
    String out;

    @Option(names = "--practice", description = "mark quiz sheets on practice numbers (no instructor salt)")
    boolean practice;

    @Option(names = "--jobs", paramLabel = "<n>", converter = PositiveConverter.class,
            description = "submissions graded at once (default: the number of cores)")
    Long jobs;

    @Option(names = "--item-timeout", paramLabel = "<s>", converter = PositiveConverter.class, description = """
            the longest one graded test may run (default 10; after a submission's first time-out, a \
            fifth of it, at least 1)""")
    long itemTimeout = 10;

    @Option(names = "--time-bound", paramLabel = "<s>", converter = PositiveConverter.class,
            description = "the longest one submission's tests may run in all (default 120)")
    long timeBound = 120;

    @Option(names = "--visibility", paramLabel = "<v>", description = """
            results.json visibility: visible, hidden, after_due_date, after_published (default visible)""")
    String visibility = "visible";

    @Option(names = "--classroom", paramLabel = "<file>", description = """
            (working copy) also write GitHub Classroom's runner result, base64, for \
            autograding-grading-reporter""")
    String classroom;

    @Option(names = "--maven", description = "grade the working copy with mvn -q test -Plab instead")
    boolean maven;

    @Parameters(paramLabel = "<submission>", arity = "0..*",
            description = "one student's copy each (a folder, .zip or .tar.gz), named by the student's id")
    List<String> submissions = new ArrayList<>();

    @Override
    public int run(Io io) throws Exception {
        Path root = KitPaths.root();
        if (maven) return maven(root);
        Duration item = Duration.ofSeconds(itemTimeout);
        Grader.Options o = new Grader.Options(item, Duration.ofSeconds(timeBound),
                Grader.Options.OUTPUT_CAP, visibility, Grader.Options.fifthOf(item),
                (int) (jobs == null ? Runtime.getRuntime().availableProcessors() : (long) jobs));
        if (!Reports.VISIBILITY.contains(o.visibility())) {
            throw new UsageException("grade", "--visibility '" + o.visibility() + "': expected one of " + Reports.VISIBILITY);
        }
        Kit kit;
        try {
            kit = Kit.locate(root);
        } catch (IllegalStateException e) {
            throw new UsageException("grade", e.getMessage());
        }
        // A student's copy has no salt: its quiz is marked on the practice numbers, and the table says so.
        boolean studentsCopy = KitPaths.isRelease(root) || Files.isRegularFile(root.resolve("labs/STUDENT_COPY"));
        boolean unsalted = System.getenv("VRAMLAB_SALT") == null && System.getenv("VRAMLAB_SALT_FILE") == null
                && System.getProperty("vramlab.salt") == null && System.getProperty("vramlab.salt.file") == null;
        Salt salt = salt(practice || studentsCopy && unsalted && submissions.isEmpty(), kit.hasQuiz());
        if (!submissions.isEmpty() && KitPaths.isRelease(root)) {
            throw new UsageException("grade", "grading submissions needs the instructor's copy of the kit (the reference"
                    + " cores and the quiz keys stay there); a student release grades only its own labs/: ./vramlab grade");
        }
        if (out != null && Files.exists(Path.of(out)) && !Files.isDirectory(Path.of(out))) {
            // it read "grades.csv/.work: Not a directory (an internal error of the kit)", exit 1
            throw new UsageException("grade", "--out " + out + ": a file, not a folder: the reports go in a folder"
                    + " (results.json per student, gradebook.csv, gradebook-items.csv); name a folder");
        }
        List<Path> dirs = new ArrayList<>();
        for (String d : submissions) dirs.add(Path.of(d));
        if (!dirs.isEmpty() && dirs.stream().noneMatch(SubmissionIntake::isSubmission)) {
            Path p = dirs.get(0);
            throw new UsageException("grade", p + ": " + (Files.exists(p) ? "not a folder, a .zip or a .tar.gz"
                    : "no such file or folder"));
        }
        try {
            return dirs.isEmpty() ? workingCopy(root, kit, o, salt, io) : submissions(dirs, kit, o, salt, io);
        } catch (Gradebook.NotAGradebook e) {
            throw new UsageException("grade", e.getMessage());     // the --out folder given: bad input, exit 2
        } catch (IllegalStateException e) {
            io.err().println("error: grade: " + e.getMessage());
            return 1;
        }
    }

    /** The instructor's salt; without one, practice numbers only when {@code --practice} asks for them. */
    static Salt salt(boolean practice, boolean hasQuiz) {
        Salt salt;
        try {
            salt = Salt.resolve();
        } catch (RuntimeException e) {
            throw new UsageException("grade", e.getMessage());
        }
        if (practice && !salt.isPractice()) {
            throw new UsageException("grade", "--practice with an instructor salt set (VRAMLAB_SALT or VRAMLAB_SALT_FILE):"
                    + " pick one");
        }
        if (salt.isPractice() && !practice && hasQuiz) {
            throw new UsageException("grade", "no instructor salt: set VRAMLAB_SALT_FILE (or VRAMLAB_SALT) to grade the"
                    + " quiz sheets on the numbers you handed out, or pass --practice to mark them on practice numbers");
        }
        return practice ? Salt.PRACTICE : salt;
    }

    private int workingCopy(Path root, Kit kit, Grader.Options o, Salt salt, Io io) throws Exception {
        Path out = Path.of(this.out != null ? this.out : root.resolve("target/grading").toString());
        Grader g = new Grader(kit, o, Files.createDirectories(out.resolve("work")), salt, io.err());
        Grader.Result r = g.gradeOne(LabReport.workingCopyStudent(root), root, out);
        List<String> flags = new ArrayList<>(r.flags());
        if (!kit.hasQuiz()) flags.add("quiz not marked here: its keys need the kit's reference simulator (hand in labs/answers/)");
        else if (salt.isPractice()) flags.add("quiz marked on the practice numbers (no instructor salt here); a sheet with"
                + " the course's own numbers is marked by your instructor");
        io.out().println(Reports.table(r.rows(), flags));
        io.out().println("(run " + r.runId() + "; results.json in " + out + ")");
        if (classroom != null) {
            Files.writeString(Path.of(classroom), Base64.getEncoder().encodeToString(
                    Reports.classroomJson(r.rows()).getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        }
        return 0;
    }

    private int submissions(List<Path> dirs, Kit kit, Grader.Options o, Salt salt, Io io)
            throws Exception {
        if (classroom != null) {
            throw new UsageException("grade", "--classroom is for the working copy (GitHub Classroom grades one repository)");
        }
        Path out = Path.of(this.out != null ? this.out : "grades");
        Grader g = new Grader(kit, o, Files.createDirectories(out.resolve(Grader.CLASS_WORK)), salt, io.err());
        long t0 = System.nanoTime();
        Grader.ClassResult c;
        try {
            c = g.gradeSubmissions(dirs, out);
        } catch (IllegalArgumentException e) {
            throw new UsageException("grade", e.getMessage());
        }
        io.out().println(summary(c.results().size(), (System.nanoTime() - t0) / 1e9, c.flagged(), c.skipped().size(),
                g.runId()));
        io.out().println("gradebook: " + out.resolve(Gradebook.WIDE) + " and " + out.resolve(Gradebook.LONG));
        return 0;
    }

    /**
     * The class run's last line: "graded 12 submissions in 80.1 s (2 flagged, 1 skipped); run ...",
     * and "graded 1 submission" for one, which is every run of Gradescope's run_autograder.
     */
    static String summary(int graded, double seconds, long flagged, int skipped, String run) {
        return String.format(java.util.Locale.ROOT, "graded %d submission%s in %.1f s (%d flagged, %d skipped); run %s",
                graded, graded == 1 ? "" : "s", seconds, flagged, skipped, run);
    }

    private static int maven(Path root) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mvn", "-q", "-B", "test", "-Plab").directory(root.toFile()).inheritIO().start();
        return p.waitFor() == 0 ? 0 : 1;
    }
}
