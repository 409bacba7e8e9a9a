package vramlab.quiz.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import vramlab.quiz.Reports;
import vramlab.quiz.ScoreRow;

/**
 * Adds up every module's {@code target/grading/scores.tsv}, prints the table and its
 * {@code Score: X/Y} line, and writes {@code target/grading/results.json} (Gradescope) and
 * {@code target/grading/gradebook.csv} under the root.
 */
public final class ScoreReport {
    private ScoreReport() {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        String student = System.getProperty("vramlab.student", System.getenv().getOrDefault("VRAMLAB_STUDENT", "me"));
        List<ScoreRow> rows = Reports.sorted(collect(root));
        String table = Reports.table(rows);
        System.out.println(table);
        Path dir = root.resolve("target").resolve("grading");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.json"), Reports.gradescopeJson(rows, "visible", table),
                StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("gradebook.csv"),
                Reports.csvHeader(rows) + "\n" + Reports.csvRow(student, rows) + "\n", StandardCharsets.UTF_8);
    }

    /** Every module's rows under {@code root}. */
    public static List<ScoreRow> collect(Path root) throws IOException {
        List<ScoreRow> rows = new ArrayList<>();
        Path suffix = Path.of("target", "grading", "scores.tsv");
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(p -> p.endsWith(suffix)).sorted().toList()) {
                for (String line : Files.readAllLines(p)) if (!line.isBlank()) rows.add(ScoreRow.fromTsv(line));
            }
        }
        return rows;
    }
}
