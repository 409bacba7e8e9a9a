package vramlab.quiz;

import java.util.List;

/**
 * One graded item's result: its step (or question), name, points possible and earned, status
 * and the reason it lost points.
 *
 * <p>Statuses and their points: {@code PASSED} full points; {@code PARTIAL} some but not all,
 * and only for a quiz item that the kit's marker ({@link Mark}) marked in the grader's own JVM
 * ({@link #quiz}); {@code FAILED} and {@code SKIPPED} nothing. A test's exception never earns
 * points, whoever threw it: a lab step's graded test is all or nothing.
 */
public record ScoreRow(String step, String name, int points, int earned, String status, String reason) {
    public static final String PASSED = "PASSED";
    public static final String PARTIAL = "PARTIAL";
    public static final String FAILED = "FAILED";
    public static final String SKIPPED = "SKIPPED";

    public ScoreRow {
        if (earned < 0 || earned > points) throw new IllegalArgumentException("earned " + earned + " of " + points);
        if (status == null) throw new IllegalArgumentException("a score row needs a status");
        boolean ok = switch (status) {
            case PASSED -> earned == points;
            case PARTIAL -> earned > 0 && earned < points;
            case FAILED, SKIPPED -> earned == 0;
            default -> throw new IllegalArgumentException("status '" + status + "': expected one of "
                    + List.of(PASSED, PARTIAL, FAILED, SKIPPED));
        };
        if (!ok) throw new IllegalArgumentException("a " + status + " row cannot earn " + earned + " of " + points);
        reason = reason == null ? "" : reason;
    }

    /** The row of a graded item that passed, or failed with {@code failure} (0 points, whatever it is). */
    public static ScoreRow of(String step, String name, int points, boolean passed, Throwable failure) {
        if (passed) return new ScoreRow(step, name, points, points, PASSED, "");
        return new ScoreRow(step, name, points, 0, FAILED, failure == null ? "failed" : reason(failure));
    }

    /** A quiz item's row from the kit's own marking of an answer sheet: full, part or nothing. */
    public static ScoreRow quiz(String step, String name, Mark mark, String note) {
        String reason = mark.full() ? "" : mark.summary();
        if (note != null && !note.isBlank()) reason = reason.isEmpty() ? note : reason + "\n" + note;
        String status = mark.full() ? PASSED : mark.earned() > 0 ? PARTIAL : FAILED;
        return new ScoreRow(step, name, mark.points(), mark.earned(), status, reason);
    }

    /** A row for an item that never ran, or could not: 0 points and why. */
    public static ScoreRow zero(String step, String name, int points, String status, String why) {
        return new ScoreRow(step, name, points, 0, status, why);
    }

    /** The most lines of a failure message a row keeps (the first says why; the rest show expected vs actual). */
    public static final int MAX_REASON_LINES = 16;
    /** The most characters a row's reason keeps. */
    public static final int MAX_REASON_CHARS = 2000;

    /**
     * Why a test failed: its message (the first line says why, the next lines usually show
     * expected vs actual), or the exception's name; at most {@value #MAX_REASON_LINES} lines and
     * {@value #MAX_REASON_CHARS} characters.
     */
    public static String reason(Throwable t) {
        Throwable cause = t;
        // A class that failed to initialise hides the student's exception one level down.
        if (t instanceof ExceptionInInitializerError && t.getCause() != null) cause = t.getCause();
        String m = cause.getMessage();
        String text = m == null || m.isBlank() ? cause.getClass().getName() : trimmed(m);
        if (cause != t) text = t.getClass().getSimpleName() + ": " + text;
        else if (!(t instanceof AssertionError) && m != null) text = t.getClass().getSimpleName() + ": " + text;
        return text;
    }

    private static String trimmed(String m) {
        java.util.List<String> lines = m.strip().lines().map(String::stripTrailing)
                .filter(l -> !l.isBlank()).toList();
        String s = String.join("\n", lines.subList(0, Math.min(lines.size(), MAX_REASON_LINES)));
        if (lines.size() > MAX_REASON_LINES) s += "\n...";
        return s.length() > MAX_REASON_CHARS ? s.substring(0, MAX_REASON_CHARS) + "..." : s;
    }

    /** The first line of the reason: why, in one line. */
    public String why() {
        int nl = reason.indexOf('\n');
        return nl < 0 ? reason : reason.substring(0, nl);
    }

    public boolean passed() { return PASSED.equals(status); }

    /** What {@code check} and {@code grade} show, in place of the status, for an item whose own step is not written yet. */
    public static final String TODO = "TODO";
    /** ... and the words they say for it. */
    public static final String NOT_WRITTEN_YET = "not written yet";

    /**
     * True when this item lost its points because its own step is not written yet: the first line
     * of its reason names that step's {@code Todo}, as the lab stub throws it ({@code TODO step 3.1
     * (Round a request) is not written yet: ...}, {@code vramlab.lab.Todo} in {@code solutions/};
     * {@code TODO step 3.1 is not written yet} too). Another step's Todo is a wait for that step
     * ("needs step N first", {@link #waitingFor}), not this; a Todo below the first line is not
     * why the item failed. With {@link #notAnswered}, the one rule behind {@code check}'s
     * {@code TODO} line, {@code grade}'s ({@link Reports#table}, {@code results.json}) and the
     * gradebook's {@code NOT_WRITTEN} ({@link #todo}).
     */
    public boolean notWritten() { return !NEEDS.matcher(why()).lookingAt() && step.equals(todoStep()); }

    /**
     * True when this quiz question earned nothing because none of its blanks is filled in (its
     * mark says {@code q3.1: 0/4: not answered (no blank of q3.1 is filled in labs/answers/ch03.txt)},
     * as {@code quiz --check} prints it, and a missing sheet's mark ends in "which is missing").
     * A question answered in part, some blanks empty, is answered: a wrong answer.
     */
    public boolean notAnswered() {
        return !passed() && earned == 0 && step.startsWith("q") && NOT_ANSWERED.matcher(why()).lookingAt();
    }

    /**
     * True when the grader found no work to grade for this item: no {@code labs/} in the
     * submission ({@code not graded: no labs/ found: ...}) or no Java source in it ({@code no Java
     * sources in labs/src/main/java (...)}), the grader's words for an empty hand-in.
     */
    public boolean notHandedIn() {
        return !passed() && (reason.startsWith(NOT_GRADED) || reason.startsWith(NO_SOURCES));
    }

    /** How the grader says a submission had no {@code labs/}: {@code not graded: no labs/ found: ...}. */
    public static final String NOT_GRADED = "not graded: ";
    /** How the grader says a submission's {@code labs/src/main/java} held no Java source. */
    public static final String NO_SOURCES = "no Java sources in labs/src/main/java";

    /**
     * True when this item's own work is not there yet: its step is not written ({@link
     * #notWritten}), its question not answered ({@link #notAnswered}), or nothing was handed in
     * ({@link #notHandedIn}). Grade's table and {@code results.json} show it as {@value #TODO}, as
     * {@code check} and {@code quiz --check} do; the gradebook's status is {@code NOT_WRITTEN}.
     */
    public boolean todo() { return notWritten() || notAnswered() || notHandedIn(); }

    /** What {@code grade} shows, in place of the status, for an item stopped at another step's Todo ({@code check}: {@code WAIT}). */
    public static final String WAITING = "WAITING";

    /** How the reason of a test stopped at another step's Todo starts, under {@code StepOrder}: {@code needs step 3.2 first: ...}. */
    public static final String NEEDS_STEP = vramlab.quiz.feedback.StepOrder.NEEDS_STEP;

    /**
     * True when this item lost its points at another step's {@code Todo}: a chapter's graded test
     * says it {@code needs step 3.2 first: ...} ({@code StepOrder}), a test without that extension
     * throws the other step's Todo itself, on its reason's first line. The gradebook's and grade's
     * {@code WAITING}; {@code check}'s {@code WAIT}.
     */
    public boolean waiting() { return waitingFor() != null; }

    /** The step this item waits for ({@link #waiting}), or null. */
    public String waitingFor() {
        if (passed()) return null;
        java.util.regex.Matcher m = NEEDS.matcher(why());
        if (m.lookingAt()) return m.group(1);
        String todo = todoStep();
        return todo == null || todo.equals(step) ? null : todo;
    }

    /** The step whose Todo the first line of the reason names ({@code TODO step 3.1 ...}), or null. */
    private String todoStep() {
        if (passed()) return null;
        java.util.regex.Matcher m = TODO_STEP.matcher(why());
        return m.find() ? m.group(1) : null;
    }

    private static final java.util.regex.Pattern TODO_STEP = java.util.regex.Pattern.compile("TODO step (\\d+\\.\\d+)\\b");
    private static final java.util.regex.Pattern NEEDS =
            java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(NEEDS_STEP) + "(\\d+\\.\\d+)\\b");
    /** A question's mark with no blank filled in; {@code not answered (...)} alone as the gradebook's older rows say it. */
    private static final java.util.regex.Pattern NOT_ANSWERED =
            java.util.regex.Pattern.compile("(?:\\S+: 0/\\d+: )?not answered\\b");

    /** The same row with {@code more} added below its reason (a note for the instructor). */
    public ScoreRow withNote(String more) {
        if (more == null || more.isBlank()) return this;
        return new ScoreRow(step, name, points, earned, status, reason.isEmpty() ? more : reason + "\n" + more);
    }

    /** One line of six tab-separated fields; the reason's newlines, tabs and backslashes are escaped. */
    public String toTsv() {
        return String.join("\t", clean(step), clean(name), Integer.toString(points), Integer.toString(earned),
                status, escape(reason));
    }

    public static ScoreRow fromTsv(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 6) throw new IllegalArgumentException("bad score row (expected 6 tab-separated fields): " + line);
        return new ScoreRow(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[4], unescape(f[5]));
    }

    private static String clean(String s) { return s.replace('\t', ' ').replace('\r', ' ').replace('\n', ' '); }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "").replace("\n", "\\n");
    }

    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) { sb.append(c); continue; }
            char n = s.charAt(++i);
            sb.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
        }
        return sb.toString();
    }
}
