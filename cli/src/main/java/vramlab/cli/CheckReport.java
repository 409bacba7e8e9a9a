package vramlab.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.ScoreRow;

/**
 * What {@code check} prints: per step, its title and where to write it (the file and the line of
 * its method, {@link StepLine}); per graded test, one line with its outcome and points, and under
 * a failure the lines that say why (expected against actual, the mistake it looks like, the
 * section of the notes to reread with the place to open it) and the method's file and line again;
 * then {@code Score: X/Y}.
 */
final class CheckReport {
    /** Steps in teaching order: 3.2 before 3.10. */
    static final Comparator<LabGenerator.Step> BY_STEP = Comparator.comparing(s -> key(s.id()));

    /** The most lines of a failure's reason shown under its test. */
    static final int MAX_LINES = 10;

    private final CheckCommand.Target target;
    private final List<ScoreRow> rows;
    private final Map<String, StepLine> places;
    private final UnaryOperator<String> rereads;

    /** {@code places}: each step's method in the student's file; a step without one names its file alone. */
    CheckReport(CheckCommand.Target target, List<ScoreRow> rows, Map<String, StepLine> places) {
        this(target, rows, places, UnaryOperator.identity());
    }

    /**
     * {@code rereads} gives a failure's {@code Reread:} line its place in the notes as the student
     * can open it from where they stand ({@link vramlab.quiz.feedback.RereadPlaces#fromCwd}).
     */
    CheckReport(CheckCommand.Target target, List<ScoreRow> rows, Map<String, StepLine> places, UnaryOperator<String> rereads) {
        this.target = target;
        this.rows = rows;
        this.places = places;
        this.rereads = rereads;
    }

    String text() {
        StringBuilder sb = new StringBuilder();
        for (LabGenerator.Step step : target.steps()) {
            List<ScoreRow> mine = rows.stream().filter(r -> r.step().equals(step.id())).toList();
            StepLine place = places.getOrDefault(step.id(), new StepLine(step.file(), null, 0));
            sb.append(step.id()).append(' ').append(step.title()).append("  (").append(place.place())
              .append("; notes: ").append(step.notes()).append(")\n");
            if (mine.isEmpty()) sb.append("  (no graded tests)\n");
            for (ScoreRow r : mine) item(sb, r, place, step.notes(), rereads);
        }
        int earned = rows.stream().mapToInt(ScoreRow::earned).sum();
        int total = rows.stream().mapToInt(ScoreRow::points).sum();
        sb.append("Score: ").append(earned).append('/').append(total).append('\n');
        return sb.toString();
    }

    private static void item(StringBuilder sb, ScoreRow r, StepLine place, String notes, UnaryOperator<String> rereads) {
        Outcome o = Outcome.of(r, place, notes, rereads);
        // The whole name, always: a long one pushes its points to the right rather than losing its end.
        sb.append(String.format("  %-5s %-70s %d/%d%n", o.tag, r.name(), r.earned(), r.points()));
        for (String line : o.lines) sb.append("        ").append(line).append('\n');
    }

    /** One test's outcome: a tag and the lines to show under it. */
    record Outcome(String tag, List<String> lines) {
        /**
         * {@code notes}: the section that teaches the step ({@code ch03 "Rule 1: the rounding ladder"});
         * {@code rereads}: a {@code Reread:} line with its place in the notes, for a failure's line and
         * for the section named under a step not written yet ({@link #toRead}).
         */
        static Outcome of(ScoreRow r, StepLine place, String notes, UnaryOperator<String> rereads) {
            if (r.passed()) return new Outcome("pass", List.of());
            String why = r.why();
            String needed = r.waitingFor();    // one rule with grade's WAITING and the gradebook's
            if (needed != null) return new Outcome("WAIT", List.of("needs step " + needed + " first (it is not written yet)"));
            if (r.notWritten()) return new Outcome(ScoreRow.TODO, List.of(ScoreRow.NOT_WRITTEN_YET + toRead(notes, rereads)));
            if (why.startsWith("does not compile: ")) return new Outcome("ERROR", splitErrors(why));
            List<String> lines = new ArrayList<>(rereads.apply(r.reason()).lines().toList());
            if (lines.size() > MAX_LINES) {
                lines = new ArrayList<>(lines.subList(0, MAX_LINES));
                lines.add("...");
            }
            lines.add(place.lookAt());           // after the cut, so it is never the line cut
            return new Outcome("FAIL", lines);
        }

        /**
         * After "not written yet", the section that teaches the step with the place a failure's
         * {@code Reread:} line gives it, from the same resolver: {@code : read ch03 "Rule 1: the
         * rounding ladder" (file:///.../notes.html#_rule_1_the_rounding_ladder).}; nothing when the
         * step names no section.
         */
        static String toRead(String notes, UnaryOperator<String> rereads) {
            if (notes == null || notes.isBlank()) return "";
            String line = rereads.apply("Reread: " + notes + ".");
            return ": read " + line.substring("Reread: ".length());
        }

        private static List<String> splitErrors(String why) {
            List<String> out = new ArrayList<>(List.of("does not compile:"));
            for (String e : why.substring("does not compile: ".length()).split("; ")) out.add("  " + e);
            return out;
        }
    }

    /** {@code 3.10} as a sortable key: chapter and step numbers, zero-padded. */
    static String key(String id) {
        String[] p = id.split("\\.");
        StringBuilder sb = new StringBuilder();
        for (String part : p) sb.append(String.format("%04d", part.matches("\\d+") ? Integer.parseInt(part) : 0));
        return sb.toString();
    }
}
