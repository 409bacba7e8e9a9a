package vramlab.quiz.grade;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import vramlab.quiz.Reports;
import vramlab.quiz.ScoreRow;

/**
 * A class's grades in two CSV files under one folder, kept across runs:
 * <ul>
 *   <li>{@value #WIDE}: one row per student: id, total, max, a lab and a quiz subtotal per
 *       chapter (the header gives each column's maximum), flags (copied sheet, compile errors,
 *       time-outs, a regrade, ...), when it was graded and the run's id;
 *   <li>{@value #LONG}: one line per student and graded item: student, step, title, points,
 *       max, {@link Status status}, the reason in one line (with "(needs step N first)" where that
 *       is why) and the rest of it in {@code detail}, its line breaks written " | ".
 * </ul>
 * Opening a gradebook reads what an earlier run wrote there, once, before anything is graded;
 * grading some students replaces their rows and keeps everyone else's as they were.
 */
public final class Gradebook {
    public static final String WIDE = "gradebook.csv";
    public static final String LONG = "gradebook-items.csv";
    /** The suffix of the temporary file each of the two is written through. */
    static final String TMP = ".tmp";
    static final String LONG_HEADER = "student,step,title,points,max,status,reason,detail";
    /** The item file's header before issue 33: its rows are read and rewritten in the new columns. */
    static final String OLD_LONG_HEADER = "student,item,points,max,status,reason";

    /** Why an item earned what it did, for a spreadsheet's filter (the points are the grader's, whatever this says). */
    public enum Status {
        PASSED, PARTIAL, FAILED, TIMEOUT, COMPILE_ERROR, NOT_WRITTEN, WAITING, CRASHED
    }

    private final Path dir;
    private String header;
    private final Map<String, String> wide = new TreeMap<>();
    private final Map<String, List<String>> items = new TreeMap<>();
    private final Map<String, String> earlier = new LinkedHashMap<>();

    private Gradebook(Path dir) { this.dir = dir; }

    /** A file in the reports folder that is not a gradebook: the user's input, refused before grading. */
    public static final class NotAGradebook extends IllegalStateException {
        NotAGradebook(String why) { super(why); }
    }

    /**
     * A gradebook file's text, without the byte-order mark a spreadsheet adds when it saves the
     * file back as "CSV UTF-8" (Excel does): the kit writes none, and with it the header's first
     * cell would read {@code \ufeffstudent} and the file be refused as no gradebook.
     */
    private static String saved(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return text.startsWith("\ufeff") ? text.substring(1) : text;
    }

    /** The gradebook in {@code dir}, with the rows an earlier run left there. */
    public static Gradebook open(Path dir) throws IOException {
        Gradebook g = new Gradebook(dir);
        Path w = dir.resolve(WIDE);
        if (Files.isRegularFile(w)) {
            List<List<String>> records = Csv.parse(saved(w), w.toString());
            if (!records.isEmpty()) {
                List<String> head = records.get(0);
                if (head.size() < 6 || !head.subList(0, 3).equals(List.of("student", "total", "max"))
                        || !head.subList(head.size() - 3, head.size()).equals(List.of("flags", "graded_at", "run"))) {
                    // Said before anything is graded: put() found it only after a first batch of submissions.
                    throw new NotAGradebook(w + " is not a gradebook (its header is not student,total,max,..."
                            + ",flags,graded_at,run): move it away or pick another --out");
                }
                g.header = Csv.line(records.get(0));
                for (List<String> r : records.subList(1, records.size())) {
                    if (r.isEmpty() || r.get(0).isEmpty()) continue;
                    String student = Csv.unquoted(r.get(0));
                    g.wide.put(student, Csv.line(r));
                    g.earlier.put(student, r.size() > 2 ? r.get(1) + "/" + r.get(2) + " at " + graded(r) : "?");
                }
            }
        }
        Path l = dir.resolve(LONG);
        if (Files.isRegularFile(l)) {
            List<List<String>> records = Csv.parse(saved(l), l.toString());
            boolean old = !records.isEmpty() && Csv.line(records.get(0)).equals(OLD_LONG_HEADER);
            if (!records.isEmpty() && !old && !Csv.line(records.get(0)).equals(LONG_HEADER)) {
                throw new NotAGradebook(l + " is not a gradebook's item file (its header is not "
                        + LONG_HEADER + "): move it away or pick another --out");
            }
            for (List<String> r : records.subList(Math.min(1, records.size()), records.size())) {
                if (r.isEmpty() || r.get(0).isEmpty()) continue;
                List<String> cells = old ? fromOldColumns(r) : r;
                g.items.computeIfAbsent(Csv.unquoted(r.get(0)), k -> new ArrayList<>()).add(Csv.line(cells));
            }
        }
        return g;
    }

    private static String graded(List<String> r) { return r.size() >= 2 ? r.get(r.size() - 2) : "?"; }

    /** The students whose rows are in the gradebook. */
    public synchronized List<String> students() { return new ArrayList<>(wide.keySet()); }

    /** What an earlier run gave {@code student} ({@code 120/254 at ...}), or null when it did not grade them. */
    public synchronized String earlier(String student) { return earlier.get(student); }

    /** Replaces {@code r.student()}'s rows with {@code r}'s. */
    public synchronized void put(Grader.Result r) {
        String h = header(r.rows());
        if (header != null && !header.equals(h) && !wide.isEmpty()) {
            throw new IllegalStateException(dir.resolve(WIDE) + " has other columns than this kit grades (an older"
                    + " kit, or another course?): regrade everyone into a new --out, or move it away");
        }
        header = h;
        List<String> cells = new ArrayList<>(List.of(r.student(), Integer.toString(r.earned()),
                Integer.toString(r.total())));
        for (String ch : chapters(r.rows())) {
            cells.add(Integer.toString(sum(r.rows(), ch, false, true)));
            cells.add(Integer.toString(sum(r.rows(), ch, true, true)));
        }
        cells.add(String.join("; ", r.flags()).replaceAll("\\s*\\R\\s*", " | "));   // one line per student
        cells.add(r.gradedAt());
        cells.add(r.runId());
        wide.put(r.student(), Csv.line(cells));
        List<String> lines = new ArrayList<>();
        for (ScoreRow row : r.rows()) lines.add(Csv.line(itemCells(r.student(), row)));
        items.put(r.student(), lines);
    }

    /**
     * One item's cells, each on one line: student, step, title, points, max, status, the reason's
     * first line ("(needs step N first)" included) and the rest of it (expected vs actual, the
     * compiler's lines), its line breaks written " | ". The reason in grade's table's and
     * {@code results.json}'s words ({@link Reports#told}): a step not written yet reads "not
     * written yet: read the notes, ..., then write it in ...", as {@code check} says it, not the
     * Todo's "Todo: TODO step 3.1 (...) is not written yet: ...".
     */
    static List<String> itemCells(String student, ScoreRow row) {
        String item = Reports.item(row);
        String title = item.equals(row.step()) ? "" : item.substring(row.step().length()).strip();
        List<String> lines = Reports.told(row).lines().map(String::strip).filter(x -> !x.isEmpty()).toList();
        String reason = lines.isEmpty() ? "" : lines.get(0);
        String detail = lines.size() < 2 ? "" : String.join(" | ", lines.subList(1, lines.size()));
        return List.of(student, row.step(), title, Integer.toString(row.earned()), Integer.toString(row.points()),
                status(row).name(), reason, detail);
    }

    /** An item row of the old columns (student, "step title", points, max, status, reason) in the new ones. */
    private static List<String> fromOldColumns(List<String> r) {
        if (r.size() != 6) return r;
        String item = r.get(1);
        int sp = item.indexOf(' ');
        List<String> lines = r.get(5).lines().map(String::strip).filter(x -> !x.isEmpty()).toList();
        return List.of(r.get(0), sp < 0 ? item : item.substring(0, sp), sp < 0 ? "" : item.substring(sp + 1), r.get(2),
                r.get(3), r.get(4), lines.isEmpty() ? "" : lines.get(0),
                lines.size() < 2 ? "" : String.join(" | ", lines.subList(1, lines.size())));
    }

    /**
     * What happened to an item, from its row: full or some points (PASSED, PARTIAL); its core did
     * not compile (COMPILE_ERROR); it ran past its bound or the submission's (TIMEOUT); the test
     * JVM exited, crashed or was stopped for what it wrote (CRASHED); nothing was handed in, its
     * own step is not written or its question not answered (NOT_WRITTEN: the row's {@link
     * ScoreRow#todo}, grade's {@code TODO}); it stopped at an earlier step's Todo
     * (WAITING: {@link ScoreRow#waiting}, grade's too); any other lost points (FAILED: a wrong answer).
     */
    public static Status status(ScoreRow row) {
        if (row.passed()) return Status.PASSED;
        if (ScoreRow.PARTIAL.equals(row.status())) return Status.PARTIAL;
        String why = row.reason();
        if (why.startsWith("did not compile")) return Status.COMPILE_ERROR;
        if (why.startsWith("timed out") || why.startsWith("not finished: the submission's time bound")
                || why.startsWith("not run: the submission's time bound")) {
            return Status.TIMEOUT;
        }
        if (why.startsWith("the JVM exited") || why.startsWith("wrote more than") || why.startsWith("wrote files")
                || why.startsWith("not run: the test JVM stopped") || why.startsWith("the test class could not run")) {
            return Status.CRASHED;
        }
        // The row's own rule, the one grade's table and results.json show TODO and WAITING by.
        if (row.todo()) return Status.NOT_WRITTEN;
        if (row.waiting()) return Status.WAITING;
        return Status.FAILED;
    }

    /** Writes both files (each replaced whole, through a temporary file). */
    public synchronized void write() throws IOException {
        Files.createDirectories(dir);
        StringBuilder w = new StringBuilder(header == null ? "student,total,max,flags,graded_at,run" : header).append('\n');
        wide.values().forEach(l -> w.append(l).append('\n'));
        StringBuilder l = new StringBuilder(LONG_HEADER).append('\n');
        items.values().forEach(ls -> ls.forEach(x -> l.append(x).append('\n')));
        replace(dir.resolve(WIDE), w.toString());
        replace(dir.resolve(LONG), l.toString());
    }

    private static void replace(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + TMP);
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The wide file's header for these items: each chapter's lab and quiz column with its maximum. */
    static String header(List<ScoreRow> rows) {
        List<String> cells = new ArrayList<>(List.of("student", "total", "max"));
        for (String ch : chapters(rows)) {
            cells.add(ch + " lab (" + sum(rows, ch, false, false) + ")");
            cells.add(ch + " quiz (" + sum(rows, ch, true, false) + ")");
        }
        cells.addAll(List.of("flags", "graded_at", "run"));
        return Csv.line(cells);
    }

    /** The chapters these rows' items belong to, in order ({@code ch03} for step 3.4 and q3.1). */
    static List<String> chapters(List<ScoreRow> rows) {
        TreeMap<String, Boolean> out = new TreeMap<>();
        for (ScoreRow r : rows) out.put(chapterOf(r.step()), true);
        return new ArrayList<>(out.keySet());
    }

    /** {@code ch03} for {@code 3.4} or {@code q3.1}; {@code other} for a step without a chapter number. */
    public static String chapterOf(String step) {
        String s = step.startsWith("q") ? step.substring(1) : step;
        int dot = s.indexOf('.');
        String n = dot < 0 ? s : s.substring(0, dot);
        return n.matches("\\d{1,2}") ? String.format("ch%02d", Integer.parseInt(n)) : "other";
    }

    private static int sum(List<ScoreRow> rows, String chapter, boolean quiz, boolean earned) {
        return rows.stream().filter(r -> chapterOf(r.step()).equals(chapter) && r.step().startsWith("q") == quiz)
                .mapToInt(r -> earned ? r.earned() : r.points()).sum();
    }

    /**
     * RFC 4180 records through Commons CSV: commas, quotes and line breaks inside quoted fields;
     * each cell made safe for a spreadsheet first ({@link Reports#spreadsheetSafe}).
     */
    static final class Csv {
        private Csv() {}

        static String line(List<String> cells) {
            return Reports.CSV.format(cells.stream().map(Reports::spreadsheetSafe).toArray());
        }

        /**
         * A cell as it was before {@link Reports#spreadsheetSafe} quoted it: a student id such as
         * {@code @kim} or {@code +kim} is written {@code '@kim}, and read back so, its rows were
         * kept under {@code '@kim} while a regrade put {@code @kim}'s beside them (two rows, and
         * no "regraded" flag).
         */
        static String unquoted(String cell) {
            return cell.length() > 1 && cell.charAt(0) == '\'' && "=+-@".indexOf(cell.charAt(1)) >= 0 ? cell.substring(1) : cell;
        }

        static List<List<String>> parse(String text, String where) {
            List<List<String>> out = new ArrayList<>();
            try (CSVParser p = CSVParser.parse(text, Reports.CSV)) {
                for (CSVRecord r : p) out.add(r.toList());
            } catch (IOException | UncheckedIOException e) {
                throw new IllegalStateException(where + ": not a CSV file: " + e.getMessage(), e);
            }
            return out;
        }
    }
}
