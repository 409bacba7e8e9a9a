package vramlab.quiz;

import org.junit.platform.engine.TestExecutionResult;

/** One graded test's result: its step, name, points possible and earned, status and reason. */
public record ScoreRow(String step, String name, int points, int earned, String status, String reason) {

    static ScoreRow of(Graded g, String name, TestExecutionResult result) {
        boolean passed = result.getStatus() == TestExecutionResult.Status.SUCCESSFUL;
        String reason = result.getThrowable().map(ScoreRow::firstLine).orElse("");
        return new ScoreRow(g.step(), name, g.points(), passed ? g.points() : 0,
                passed ? "PASSED" : "FAILED", reason);
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    public String toTsv() {
        return String.join("\t", step, clean(name), Integer.toString(points), Integer.toString(earned),
                status, clean(reason));
    }

    public static ScoreRow fromTsv(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 6) throw new IllegalArgumentException("bad score row: " + line);
        return new ScoreRow(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[4], f[5]);
    }

    private static String clean(String s) { return s.replace('\t', ' ').replace('\n', ' '); }
}
