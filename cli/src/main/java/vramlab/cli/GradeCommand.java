package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

import vramlab.quiz.KitPaths;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.grade.Gradebook;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;
import vramlab.quiz.grade.LabReport;

/**
 * {@code vramlab grade [DIR...]}: grades the working copy (its labs/ and labs/answers/), or
 * each submission folder given, into a score table, Gradescope's results.json and a gradebook.
 */
final class GradeCommand implements Command {
    @Override public String name() { return "grade"; }
    @Override public String summary() { return "grade the working copy's labs and answers, or each submission given"; }

    @Override
    public String usage() {
        return """
                usage: vramlab grade [options] [<submission dir>...]

                Without a folder: grades this copy's labs/src/main/java and labs/answers/, prints the table
                ending in Score: X/Y and writes target/grading/results.json (Gradescope's format).
                With folders: each is one student's copy (its labs/ folder, or labs/'s contents), named by
                the student's id; writes <out>/<id>/results.json, <out>/gradebook.csv (one row per student:
                total, each chapter's lab and quiz points, flags) and <out>/gradebook-items.csv (one row per
                student and item, with the reason). Grading some students again keeps the others' rows.
                Graded tests and keys always come from this kit, never from a submission. The cores are
                compiled one at a time: a core that does not compile costs only its own steps. A
                submission that loops, exits, crashes or prints too much loses only the test that was
                running; submissions are graded in parallel, one line of progress each on stderr.
                  --out <dir>            where reports go (default: grades/, or target/grading/)
                  --practice             mark quiz sheets on practice numbers (no instructor salt)
                  --jobs <n>             submissions graded at once (default: the number of cores)
                  --item-timeout <s>     the longest one graded test may run (default 10; after a
                                         submission's first time-out, a fifth of it, at least 1)
                  --time-bound <s>       the longest one submission's tests may run in all (default 120)
                  --visibility <v>       results.json visibility: visible, hidden, after_due_date,
                                         after_published (default visible)
                  --classroom <file>     (working copy) also write GitHub Classroom's runner result,
                                         base64, for autograding-grading-reporter
                  --maven                grade the working copy with mvn -q test -Plab instead
                Quiz sheets are marked with the instructor's salt from VRAMLAB_SALT or VRAMLAB_SALT_FILE;
                without one, grading refuses to run unless --practice says practice numbers are meant.
                A test JVM keeps the first 256 KiB of what it prints.
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws Exception {
        Args a = Args.parse("grade", args, Set.of("--maven", "--practice"),
                Set.of("--out", "--item-timeout", "--time-bound", "--visibility", "--classroom", "--jobs"));
        Path root = KitPaths.root();
        if (a.flag("--maven")) return maven(root);
        Duration item = Duration.ofSeconds(number(a, "--item-timeout", 10));
        Grader.Options o = new Grader.Options(item, Duration.ofSeconds(number(a, "--time-bound", 120)),
                Grader.Options.OUTPUT_CAP, a.value("--visibility", "visible"), Grader.Options.fifthOf(item),
                (int) number(a, "--jobs", Runtime.getRuntime().availableProcessors()));
        if (!Reports.VISIBILITY.contains(o.visibility())) {
            throw new UsageException("grade", "--visibility '" + o.visibility() + "': expected one of " + Reports.VISIBILITY);
        }
        Kit kit;
        try {
            kit = Kit.locate(root);
        } catch (IllegalStateException e) {
            throw new UsageException("grade", e.getMessage());
        }
        Salt salt = salt(a.flag("--practice"), kit.hasQuiz());
        if (!a.positional().isEmpty() && KitPaths.isRelease(root)) {
            throw new UsageException("grade", "grading submissions needs the instructor's copy of the kit (the reference"
                    + " cores and the quiz keys stay there); a student release grades only its own labs/: ./vramlab grade");
        }
        List<Path> dirs = new ArrayList<>();
        for (String d : a.positional()) {
            Path p = Path.of(d);
            if (!Files.isDirectory(p)) throw new UsageException("grade", d + ": not a folder");
            dirs.add(p);
        }
        try {
            return dirs.isEmpty() ? workingCopy(a, root, kit, o, salt, io) : submissions(a, dirs, kit, o, salt, io);
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

    private static int workingCopy(Args a, Path root, Kit kit, Grader.Options o, Salt salt, Io io) throws Exception {
        Path out = Path.of(a.value("--out", root.resolve("target/grading").toString()));
        Grader g = new Grader(kit, o, Files.createDirectories(out.resolve("work")), salt, io.err());
        Grader.Result r = g.gradeOne(LabReport.workingCopyStudent(root), root, out);
        List<String> flags = new ArrayList<>(r.flags());
        if (!kit.hasQuiz()) flags.add("quiz not marked here: its keys need the kit's reference simulator (hand in labs/answers/)");
        io.out().println(Reports.table(r.rows(), flags));
        io.out().println("(run " + r.runId() + "; results.json in " + out + ")");
        String classroom = a.value("--classroom", null);
        if (classroom != null) {
            Files.writeString(Path.of(classroom), Base64.getEncoder().encodeToString(
                    Reports.classroomJson(r.rows()).getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        }
        return 0;
    }

    private static int submissions(Args a, List<Path> dirs, Kit kit, Grader.Options o, Salt salt, Io io)
            throws Exception {
        if (a.value("--classroom", null) != null) {
            throw new UsageException("grade", "--classroom is for the working copy (GitHub Classroom grades one repository)");
        }
        Path out = Path.of(a.value("--out", "grades"));
        Grader g = new Grader(kit, o, Files.createDirectories(out.resolve(".work")), salt, io.err());
        long t0 = System.nanoTime();
        List<Grader.Result> results;
        try {
            results = g.gradeClass(dirs, out);
        } catch (IllegalArgumentException e) {
            throw new UsageException("grade", e.getMessage());
        }
        long flagged = results.stream().filter(r -> !r.flags().isEmpty()).count();
        io.out().printf(java.util.Locale.ROOT, "graded %d submissions in %.1f s (%d flagged); run %s%n", results.size(),
                (System.nanoTime() - t0) / 1e9, flagged, g.runId());
        io.out().println("gradebook: " + out.resolve(Gradebook.WIDE) + " and " + out.resolve(Gradebook.LONG));
        return 0;
    }

    private static long number(Args a, String key, long orElse) {
        String v = a.value(key, null);
        if (v == null) return orElse;
        try {
            long s = Long.parseLong(v);
            if (s < 1) throw new NumberFormatException();
            return s;
        } catch (NumberFormatException e) {
            throw new UsageException("grade", key + " '" + v + "': expected a whole number, at least 1");
        }
    }

    private static int maven(Path root) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mvn", "-q", "-B", "test", "-Plab").directory(root.toFile()).inheritIO().start();
        return p.waitFor() == 0 ? 0 : 1;
    }
}
