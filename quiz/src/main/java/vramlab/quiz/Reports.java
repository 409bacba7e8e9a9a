package vramlab.quiz;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.csv.CSVFormat;

/**
 * One grading model (rows of {@link ScoreRow}), written for people and tools: the console table
 * that ends in {@code Score: X/Y}, Gradescope's {@code results.json} and GitHub Classroom's
 * runner result (the class gradebook is {@code vramlab.quiz.grade.Gradebook}). Each says why an
 * item lost points in the same words, "(needs step N first)" included.
 */
public final class Reports {
    /** Gradescope's visibility values (autograder_samples, docs/specs.md). */
    public static final List<String> VISIBILITY = List.of("hidden", "after_due_date", "after_published", "visible");

    private Reports() {}

    public static int earned(List<ScoreRow> rows) { return rows.stream().mapToInt(ScoreRow::earned).sum(); }
    public static int total(List<ScoreRow> rows) { return rows.stream().mapToInt(ScoreRow::points).sum(); }

    /** Rows in step order (3.2 before 3.10, lab steps before quiz questions), then by name. */
    public static List<ScoreRow> sorted(List<ScoreRow> rows) {
        List<ScoreRow> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(ScoreRow::step, Reports::compareSteps).thenComparing(ScoreRow::name));
        return out;
    }

    /** The table of graded items, ending in the one line {@code Score: X/Y}. */
    public static String table(List<ScoreRow> rows) { return table(rows, List.of()); }

    /** The table, with the grader's flags (copied sheets, compile errors, ...) above the score. */
    public static String table(List<ScoreRow> rows, List<String> flags) {
        StringBuilder sb = new StringBuilder("Graded steps and questions\n");
        for (ScoreRow r : rows) {
            sb.append(String.format(Locale.ROOT, "  %-6s %-7s %2d/%-2d %s%n", r.step(), shownStatus(r), r.earned(),
                    r.points(), r.name()));
            if (!r.reason().isEmpty() && r.earned() < r.points()) {
                String[] lines = told(r).split("\n");
                sb.append("           ").append(lines[0]).append('\n');
                for (int i = 1; i < lines.length; i++) sb.append("             ").append(lines[i]).append('\n');
            }
        }
        for (String f : flags) sb.append("Flag: ").append(f).append('\n');
        return sb.append("Score: ").append(earned(rows)).append('/').append(total(rows)).toString();
    }

    /** A row's item: its step and its title, the step not repeated ({@code 3.4 merges on free}). */
    public static String item(ScoreRow r) {
        String name = afterStep(r);
        return name.isEmpty() ? r.step() : r.step() + " " + name;
    }

    /** The row's name without a leading step id ("q3.1: Predict" is "Predict"; "3.2 on its own" is "on its own"). */
    static String afterStep(ScoreRow r) {
        String name = r.name().strip();
        if (name.startsWith(r.step() + ":")) name = name.substring(r.step().length() + 1).strip();
        else if (name.startsWith(r.step() + " ")) name = name.substring(r.step().length()).strip();
        return name;
    }

    /** Why a row lost points, as every report says it: "(needs step N first)" and the reason. */
    public static String explained(ScoreRow r) {
        if (r.reason().isEmpty()) return "";
        return blockedBy(r) + r.reason();
    }

    /**
     * A row's status as a student reads it: {@code TODO} for an item whose own work is not there
     * yet ({@link ScoreRow#todo}: its step not written, the rule {@code check} shows its {@code
     * TODO} by, or its question not answered), {@code WAITING} for one stopped at another step's
     * Todo ({@link ScoreRow#waiting}: check's {@code WAIT}), else the row's own. The gradebook's
     * status asks the row the same ({@code NOT_WRITTEN}, {@code WAITING}); the points are the same 0.
     */
    public static String shownStatus(ScoreRow r) {
        return r.todo() ? ScoreRow.TODO : r.waiting() ? ScoreRow.WAITING : r.status();
    }

    /**
     * Why a row lost points, as a student reads it in the table, {@code results.json} and the
     * Classroom result: {@link #explained}, but for a step not written yet {@code check}'s words,
     * "not written yet", followed by what the step's Todo says after them (the section of the
     * notes to read and the file to write it in), in place of the Todo's whole message. A question
     * not answered keeps its mark's words, as {@code quiz --check} prints them.
     */
    public static String told(ScoreRow r) {
        if (!r.notWritten()) return explained(r);
        String first = r.why();
        int at = first.indexOf(ScoreRow.NOT_WRITTEN_YET);
        String rest = r.reason().substring(first.length());
        return ScoreRow.NOT_WRITTEN_YET + (at < 0 ? "" : first.substring(at + ScoreRow.NOT_WRITTEN_YET.length())) + rest;
    }

    /**
     * Steps build on each other: a test of step 3.4 runs the allocator through steps 3.1-3.3
     * first, so on an untouched copy it stops at the first unwritten one. Say so, so the table
     * reads as the order to work in: "(needs step N first)" before the reason of a row that waits
     * ({@link ScoreRow#waitingFor}), unless the reason already starts so ({@code StepOrder}'s).
     */
    static String blockedBy(ScoreRow r) {
        String needed = r.waitingFor();
        if (needed == null || r.reason().startsWith(ScoreRow.NEEDS_STEP)) return "";
        return "(needs step " + needed + " first) ";
    }

    /**
     * Gradescope's {@code results.json}: top-level {@code score} (the sum), {@code output}, {@code visibility},
     * and one test per row with {@code name}, {@code number}, {@code score}, {@code max_score},
     * {@code status} ({@code passed}/{@code failed}), {@code output} and {@code visibility}.
     */
    public static String gradescopeJson(List<ScoreRow> rows, String visibility, String output) {
        if (!VISIBILITY.contains(visibility)) {
            throw new IllegalArgumentException("visibility '" + visibility + "': expected one of " + VISIBILITY);
        }
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("score", earned(rows));
        top.put("output", output);
        top.put("visibility", visibility);
        top.put("stdout_visibility", "hidden");
        List<Map<String, Object>> tests = new ArrayList<>();
        for (ScoreRow r : rows) {
            Map<String, Object> t = new LinkedHashMap<>();
            // Gradescope shows "number) name": a name that starts with its own step said it twice ("q3.1) q3.1: Predict").
            String name = afterStep(r);
            boolean repeats = r.name().strip().startsWith(r.step()) && !name.isEmpty();
            t.put("name", repeats ? name : r.name());
            t.put("number", r.step());
            t.put("score", r.earned());
            t.put("max_score", r.points());
            t.put("status", r.passed() ? "passed" : "failed");
            t.put("output", r.passed() ? explained(r) : shownStatus(r) + ": " + told(r));
            t.put("visibility", visibility);
            tests.add(t);
        }
        top.put("tests", tests);
        return Json.write(top, 2) + "\n";
    }

    /**
     * GitHub Classroom's runner result, as {@code autograding-grading-reporter} reads it (base64
     * of this JSON in the step output {@code result}): version 1, status, max_score and tests with
     * name, status, score and message.
     */
    public static String classroomJson(List<ScoreRow> rows) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("version", 1);
        top.put("status", earned(rows) == total(rows) ? "pass" : "fail");
        top.put("max_score", total(rows));
        List<Map<String, Object>> tests = new ArrayList<>();
        for (ScoreRow r : rows) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("name", item(r));
            t.put("status", r.passed() ? "pass" : "fail");
            t.put("score", r.earned());
            t.put("message", told(r));
            t.put("test_code", "");
            t.put("filename", "");
            t.put("line_no", 0);
            t.put("duration", 0);
            tests.add(t);
        }
        top.put("tests", tests);
        return Json.write(top, 0);
    }

    /**
     * The gradebooks' CSV (Commons CSV): RFC 4180 quoting, {@code \n} between records, empty
     * lines skipped on reading.
     */
    public static final CSVFormat CSV = CSVFormat.RFC4180.builder().setRecordSeparator('\n')
            .setIgnoreEmptyLines(true).get();

    /** One cell as {@link #CSV} writes it, made {@link #spreadsheetSafe} first. */
    public static String csv(String s) { return CSV.format(spreadsheetSafe(s)); }

    /** A leading quote for text a spreadsheet would run as a formula ({@code =+-@}). */
    public static String spreadsheetSafe(String s) {
        return !s.isEmpty() && "=+-@".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
    }

    /** Orders step ids numerically part by part: 3.2 before 3.10, q-ids after steps. */
    public static int compareSteps(String a, String b) {
        int c = Boolean.compare(a.startsWith("q"), b.startsWith("q"));
        if (c != 0) return c;
        String[] x = a.replaceAll("[^0-9.]", "").split("\\.");
        String[] y = b.replaceAll("[^0-9.]", "").split("\\.");
        for (int i = 0; c == 0 && i < Math.min(x.length, y.length); i++) {
            c = Long.compare(num(x[i]), num(y[i]));
        }
        if (c != 0) return c;
        c = Integer.compare(x.length, y.length);
        return c != 0 ? c : a.compareTo(b);
    }

    private static long num(String s) {
        if (s.isEmpty()) return 0;
        return s.length() > 18 ? Long.MAX_VALUE : Long.parseLong(s);
    }
}
