package vramlab.quiz;

import org.junit.platform.engine.TestExecutionResult;

/**
 * One graded item's result: its step (or question), name, points possible and earned, status
 * ({@code PASSED}, {@code FAILED}, {@code SKIPPED}) and the reason it lost points.
 *
 * <p>Invariant: {@code 0 <= earned <= points}; {@code PASSED} means full points.
 */
public record ScoreRow(String step, String name, int points, int earned, String status, String reason) {

    public ScoreRow {
        if (earned < 0 || earned > points) throw new IllegalArgumentException("earned " + earned + " of " + points);
        reason = reason == null ? "" : reason;
    }

    /** The row of a graded test that ended with {@code result}; a {@link PartialCredit} earns part. */
    static ScoreRow of(Graded g, String name, TestExecutionResult result) {
        return of(g.step(), name, g.points(), result.getStatus() == TestExecutionResult.Status.SUCCESSFUL,
                result.getThrowable().orElse(null));
    }

    /** The row of a graded item that passed, or failed with {@code failure}. */
    public static ScoreRow of(String step, String name, int points, boolean passed, Throwable failure) {
        if (passed) return new ScoreRow(step, name, points, points, "PASSED", "");
        int earned = failure instanceof PartialCredit p ? Math.min(p.earned(), points) : 0;
        return new ScoreRow(step, name, points, earned, "FAILED", failure == null ? "failed" : reason(failure));
    }

    /** A row for an item that never ran, or could not: 0 points and why. */
    public static ScoreRow zero(String step, String name, int points, String status, String why) {
        return new ScoreRow(step, name, points, 0, status, why);
    }

    /** One line that says why a test failed: the message's first line, or the exception's name. */
    public static String reason(Throwable t) {
        Throwable cause = t;
        // A class that failed to initialise hides the student's exception one level down.
        if (t instanceof ExceptionInInitializerError && t.getCause() != null) cause = t.getCause();
        String m = cause.getMessage();
        String line = m == null || m.isBlank() ? cause.getClass().getName() : firstLine(m);
        if (cause != t) line = t.getClass().getSimpleName() + ": " + line;
        else if (!(t instanceof AssertionError) && m != null) line = t.getClass().getSimpleName() + ": " + line;
        return line.length() > 500 ? line.substring(0, 500) + "..." : line;
    }

    private static String firstLine(String m) {
        String s = m.strip();
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    public boolean passed() { return "PASSED".equals(status); }

    public String toTsv() {
        return String.join("\t", clean(step), clean(name), Integer.toString(points), Integer.toString(earned),
                status, clean(reason));
    }

    public static ScoreRow fromTsv(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 6) throw new IllegalArgumentException("bad score row (expected 6 tab-separated fields): " + line);
        return new ScoreRow(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[4], f[5]);
    }

    private static String clean(String s) { return s.replace('\t', ' ').replace('\r', ' ').replace('\n', ' '); }
}
