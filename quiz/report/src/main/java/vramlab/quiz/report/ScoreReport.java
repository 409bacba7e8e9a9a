package vramlab.quiz.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import vramlab.quiz.ScoreRow;

/** Adds up every module's {@code target/grading/scores.tsv} and prints the table and score. */
public final class ScoreReport {
    private ScoreReport() {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        List<ScoreRow> rows = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(p -> p.endsWith(Path.of("target", "grading", "scores.tsv"))).sorted().toList()) {
                for (String line : Files.readAllLines(p)) if (!line.isBlank()) rows.add(ScoreRow.fromTsv(line));
            }
        }
        rows.sort(Comparator.comparing(ScoreRow::step, ScoreReport::compareSteps).thenComparing(ScoreRow::name));
        System.out.println(table(rows));
    }

    /** The table of graded steps, ending in the one line {@code Score: X/Y}. */
    public static String table(List<ScoreRow> rows) {
        StringBuilder sb = new StringBuilder("Graded steps\n");
        int earned = 0, total = 0;
        for (ScoreRow r : rows) {
            sb.append(String.format("  %-6s %-7s %2d/%-2d %s%n", r.step(), r.status(), r.earned(), r.points(), r.name()));
            if (!r.reason().isEmpty() && r.earned() < r.points()) sb.append("           ").append(r.reason()).append('\n');
            earned += r.earned();
            total += r.points();
        }
        return sb.append("Score: ").append(earned).append('/').append(total).toString();
    }

    /** Orders step ids numerically part by part: 3.2 before 3.10, q-ids after steps. */
    static int compareSteps(String a, String b) {
        String[] x = a.replaceAll("[^0-9.]", "").split("\\.");
        String[] y = b.replaceAll("[^0-9.]", "").split("\\.");
        int c = Boolean.compare(a.startsWith("q"), b.startsWith("q"));
        for (int i = 0; c == 0 && i < Math.min(x.length, y.length); i++) {
            c = Integer.compare(x[i].isEmpty() ? 0 : Integer.parseInt(x[i]), y[i].isEmpty() ? 0 : Integer.parseInt(y[i]));
        }
        return c != 0 ? c : Integer.compare(x.length, y.length);
    }
}
