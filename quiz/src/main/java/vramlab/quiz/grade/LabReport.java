package vramlab.quiz.grade;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;

/**
 * {@code mvn test -Plab}: grades this working copy with the same grader as {@code ./vramlab
 * grade} (its cores compiled one at a time, the kit's graded tests in child JVMs, the quiz
 * marked here), prints the table ending in {@code Score: X/Y}, and writes
 * {@code target/grading/results.json} and a one-student gradebook. Every row comes from this
 * run: nothing on disk from an earlier build (a {@code scores.tsv}, an old report) is read, and
 * the report refuses to print a score when its rows do not add up to what the kit declares.
 */
public final class LabReport {
    /**
     * The gradebook's name for a copy marked on the practice numbers (no student named): the
     * flag's words, where the grader's id for those numbers is {@link Variant#SEED}, a word
     * that means nothing to a student.
     */
    static final String PRACTICE_ROW = "practice";

    private LabReport() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        String filter = args.length > 1 ? args[1] : "";
        int status = run(root, filter, System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    /** Grades {@code root}'s labs/ and labs/answers/ on the kit built there; returns the exit status. */
    public static int run(Path root, String testFilter, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        if (testFilter != null && !testFilter.isBlank() && !testFilter.startsWith("${")) {
            out.println("note: -Dtest=" + testFilter + " is ignored under -Plab: the score covers every graded item"
                    + " (one step: ./vramlab check <step>)");
        }
        Kit kit;
        Salt salt;
        try {
            kit = Kit.locate(root);
            salt = Salt.resolve();
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            err.println("error: -Plab: " + e.getMessage());
            return 2;
        }
        return report(kit, root, root.resolve("target/grading"), workingCopyStudent(root), salt, out, err);
    }

    /**
     * Grades {@code submission} (a copy with {@code labs/}) for {@code student} into {@code outDir};
     * returns 0, or 1 with a message when the rows do not add up to the kit's declared total.
     */
    public static int report(Kit kit, Path submission, Path outDir, String student, Salt salt, PrintStream out,
                             PrintStream err) throws IOException, InterruptedException {
        Files.createDirectories(outDir);
        for (String old : List.of("results.json", Gradebook.WIDE, Gradebook.LONG)) Files.deleteIfExists(outDir.resolve(old));
        Grader g = new Grader(kit, Grader.Options.defaults().withJobs(1), outDir.resolve("work"), salt, err);
        Grader.Result r;
        try {
            r = g.gradeOne(student, submission, outDir);
        } catch (IllegalStateException e) {
            err.println("error: -Plab: " + e.getMessage());
            return 1;
        }
        List<String> flags = new ArrayList<>(r.flags());
        if (!kit.hasQuiz()) {
            flags.add("quiz not marked here: its keys need the kit's reference simulator, which this copy does not have"
                    + " (hand in labs/answers/chNN.txt)");
        } else if (salt.isPractice() && vramlab.quiz.KitPaths.isRelease(submission)) {
            flags.add("quiz marked on the practice numbers (no instructor salt here); a sheet with the course's own"
                    + " numbers is marked by your instructor");
        } else if (salt.isPractice()) {
            flags.add("quiz marked on the practice numbers" + (student.equals(Variant.SEED) ? "" : " for student '" + student + "'")
                    + " (no instructor salt: set VRAMLAB_SALT or VRAMLAB_SALT_FILE to mark the numbers you handed out)");
        }
        out.println(Reports.table(r.rows(), flags));
        Gradebook book = Gradebook.open(outDir);
        book.put(student.equals(Variant.SEED) ? new Grader.Result(PRACTICE_ROW, r.rows(), r.flags(), r.runId(),
                r.gradedAt(), r.millis(), r.found()) : r);
        book.write();
        out.println("(run " + r.runId() + "; results.json and " + Gradebook.WIDE + " in " + outDir + ")");
        return 0;
    }

    /** The working copy's student: VRAMLAB_STUDENT, else the first answer sheet's student line, else the practice variant. */
    public static String workingCopyStudent(Path root) throws IOException {
        String env = System.getenv("VRAMLAB_STUDENT");
        if (env != null && !env.isBlank()) return env.strip();
        Path answers = root.resolve("labs/answers");
        if (Files.isDirectory(answers)) {
            try (var s = Files.list(answers)) {
                for (Path p : s.filter(f -> f.getFileName().toString().matches("ch\\d\\d\\.txt")).sorted().toList()) {
                    try {
                        String id = AnswerSheet.read(p).get("student");
                        if (id != null) return id;
                    } catch (IllegalArgumentException e) {
                        // a malformed sheet is reported when its questions are marked
                    }
                }
            }
        }
        return Variant.SEED;
    }
}
