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

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

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
                the student's id; writes <out>/<id>/results.json and <out>/gradebook.csv.
                Graded tests and keys always come from this kit, never from a submission; a submission
                that loops, exits, crashes or prints too much loses only the test that was running.
                  --out <dir>            where reports go (default: grades/, or target/grading/)
                  --item-timeout <s>     the longest one graded test may run (default 10)
                  --time-bound <s>       the longest one submission may run in all (default 300)
                  --visibility <v>       results.json visibility: visible, hidden, after_due_date,
                                         after_published (default visible)
                  --classroom <file>     (working copy) also write GitHub Classroom's runner result,
                                         base64, for autograding-grading-reporter
                  --maven                grade the working copy with mvn -q test -Plab instead
                Quiz keys use the instructor's salt from VRAMLAB_SALT or VRAMLAB_SALT_FILE when set.
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws Exception {
        Args a = Args.parse("grade", args, Set.of("--maven"),
                Set.of("--out", "--item-timeout", "--time-bound", "--visibility", "--classroom"));
        Path root = KitPaths.root();
        if (a.flag("--maven")) return maven(root);
        Grader.Options o = new Grader.Options(Duration.ofSeconds(seconds(a, "--item-timeout", 10)),
                Duration.ofSeconds(seconds(a, "--time-bound", 300)), 4L << 20, a.value("--visibility", "visible"));
        if (!Reports.VISIBILITY.contains(o.visibility())) {
            throw new UsageException("grade", "--visibility '" + o.visibility() + "': expected one of " + Reports.VISIBILITY);
        }
        Salt salt;
        try {
            salt = Salt.resolve();
        } catch (RuntimeException e) {
            throw new UsageException("grade", e.getMessage());
        }
        Kit kit;
        try {
            kit = Kit.locate(root);
        } catch (IllegalStateException e) {
            throw new UsageException("grade", e.getMessage());
        }
        List<Path> dirs = new ArrayList<>();
        for (String d : a.positional()) {
            Path p = Path.of(d);
            if (!Files.isDirectory(p)) throw new UsageException("grade", d + ": not a folder");
            dirs.add(p);
        }
        if (dirs.isEmpty()) {
            Path out = Path.of(a.value("--out", root.resolve("target/grading").toString()));
            Grader g = new Grader(kit, o, Files.createDirectories(out.resolve("work")), salt, io.err());
            List<ScoreRow> rows = g.grade(student(root), root, out);
            io.out().println(Reports.table(rows));
            io.out().println("(results.json in " + out + ")");
            String classroom = a.value("--classroom", null);
            if (classroom != null) {
                Files.writeString(Path.of(classroom), Base64.getEncoder().encodeToString(
                        Reports.classroomJson(rows).getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
            }
            return 0;
        }
        Path out = Path.of(a.value("--out", "grades"));
        Grader g = new Grader(kit, o, Files.createDirectories(out.resolve(".work")), salt, io.out());
        g.gradeAll(dirs, out);
        io.out().println("gradebook: " + out.resolve("gradebook.csv"));
        return 0;
    }

    private static long seconds(Args a, String key, long orElse) {
        String v = a.value(key, null);
        if (v == null) return orElse;
        try {
            long s = Long.parseLong(v);
            if (s < 1) throw new NumberFormatException();
            return s;
        } catch (NumberFormatException e) {
            throw new UsageException("grade", key + " '" + v + "': expected a whole number of seconds, at least 1");
        }
    }

    /** The working copy's student: VRAMLAB_STUDENT, else the first answer sheet's student line. */
    private static String student(Path root) throws IOException {
        String env = System.getenv("VRAMLAB_STUDENT");
        if (env != null && !env.isBlank()) return env.strip();
        Path answers = root.resolve("labs/answers");
        if (Files.isDirectory(answers)) {
            try (var s = Files.list(answers)) {
                for (Path p : s.sorted().toList()) {
                    try {
                        String id = AnswerSheet.read(p).get("student");
                        if (id != null) return id;
                    } catch (IllegalArgumentException e) {
                        // a malformed sheet is reported when its questions are marked
                    }
                }
            }
        }
        return "seed";
    }

    private static int maven(Path root) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mvn", "-q", "-B", "test", "-Plab").directory(root.toFile()).inheritIO().start();
        return p.waitFor() == 0 ? 0 : 1;
    }
}
