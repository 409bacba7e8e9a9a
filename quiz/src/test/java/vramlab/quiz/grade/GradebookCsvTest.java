package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.quiz.ScoreRow;

/** The gradebooks as a spreadsheet imports them: RFC 4180, one cell per field whatever it holds. */
@DisplayName("a gradebook imports into a spreadsheet cell for cell")
class GradebookCsvTest {
    @TempDir Path tmp;

    /** How a spreadsheet reads the file: plain RFC 4180 (CRLF or LF), no knowledge of the kit. */
    static List<List<String>> imported(Path f) throws Exception {
        List<List<String>> out = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(f, StandardCharsets.UTF_8);
             CSVParser p = CSVParser.parse(in, CSVFormat.RFC4180)) {
            for (CSVRecord r : p) out.add(r.toList());
        }
        return out;
    }

    static Grader.Result graded(String student, String reason, String... flags) {
        List<ScoreRow> rows = List.of(new ScoreRow("3.1", "3.1: rounds, up", 2, 0, "FAILED", reason),
                new ScoreRow("q3.1", "q3.1: predict", 4, 4, "PASSED", ""));
        return new Grader.Result(student, rows, List.of(flags), "run1", "2025-05-01T10:00:00Z", 1000);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "expected: \"512\", but was: 1024\n  at step 3.1",
        "a, b, and \"c\"",
        "\"\"",
        "CRLF\r\nline",
        "é 中 \uD83D\uDE00, unicode",
        "# not a comment",
        " leading and trailing space "})
    @DisplayName("a reason holding a comma, a quote or a line break stays in its cells, each record on one line")
    void reason(String reason) throws Exception {
        Gradebook g = Gradebook.open(tmp);
        g.put(graded("alice", reason, "flag, with \"quotes\"\nand a line"));
        g.write();
        List<List<String>> items = imported(tmp.resolve(Gradebook.LONG));
        assertThat(items.get(0)).containsExactly("student", "step", "title", "points", "max", "status", "reason", "detail");
        assertThat(items).hasSize(3).allSatisfy(r -> assertThat(r).hasSize(8));
        List<String> lines = reason.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        assertThat(items.get(1)).containsExactly("alice", "3.1", "rounds, up", "0", "2", "FAILED", lines.get(0),
                String.join(" | ", lines.subList(1, lines.size())));
        assertThat(Files.readString(tmp.resolve(Gradebook.LONG)).lines()).as("one line per record").hasSize(3);
        List<List<String>> wide = imported(tmp.resolve(Gradebook.WIDE));
        assertThat(wide).hasSize(2);
        assertThat(wide.get(1)).hasSameSizeAs(wide.get(0)).contains("flag, with \"quotes\" | and a line");
        assertThat(Files.readString(tmp.resolve(Gradebook.WIDE)).lines()).hasSize(2);
    }

    /**
     * UTF-8 with no byte-order mark, as quiz/README.adoc says, and why: the header is the files'
     * contract, matched by the grader when it reads them back and by scripts, and a mark before
     * it would be part of the first cell for a plain reader (Commons CSV here; Python's csv
     * module alike). Excel is told how to open the files instead (Data > From Text/CSV, UTF-8).
     */
    @Test
    @DisplayName("UTF-8 with no byte-order mark: the first header cell is 'student' for a plain reader")
    void noByteOrderMark() throws Exception {
        Gradebook g = Gradebook.open(tmp);
        g.put(graded("José", "é"));
        g.write();
        for (String f : List.of(Gradebook.WIDE, Gradebook.LONG)) {
            byte[] bytes = Files.readAllBytes(tmp.resolve(f));
            assertThat(new String(bytes, 0, 8, StandardCharsets.US_ASCII)).as(f).isEqualTo("student,");
            assertThat(new String(bytes, StandardCharsets.UTF_8)).as(f).contains("\nJosé,");
            assertThat(imported(tmp.resolve(f)).get(0).get(0)).as(f).isEqualTo("student");
        }
        Path marked = Files.write(tmp.resolve("marked.csv"), ("\uFEFF" + Files.readString(tmp.resolve(Gradebook.WIDE)))
                .getBytes(StandardCharsets.UTF_8));
        assertThat(imported(marked).get(0).get(0)).as("what a mark would do").isEqualTo("\uFEFFstudent");
    }

    @Test
    @DisplayName("a regrade reads the earlier file back and keeps such cells as they were")
    void regrade() throws Exception {
        String reason = "x, \"y\"\nz";
        Gradebook first = Gradebook.open(tmp);
        first.put(graded("bob", reason));
        first.put(graded("carol", "other"));
        first.write();
        Gradebook again = Gradebook.open(tmp);
        again.put(graded("carol", "regraded"));
        again.write();
        assertThat(imported(tmp.resolve(Gradebook.LONG)))
                .filteredOn(r -> r.get(0).equals("bob") && r.get(1).equals("3.1"))
                .singleElement().satisfies(r -> assertThat(r.subList(6, 8)).containsExactly("x, \"y\"", "z"));
    }

    @Test
    @DisplayName("a formula is defused with a leading quote, so the spreadsheet shows it as text")
    void formula() throws Exception {
        Gradebook g = Gradebook.open(tmp);
        g.put(graded("mallory", "=HYPERLINK(\"http://x\", \"y\")"));
        g.write();
        assertThat(imported(tmp.resolve(Gradebook.LONG)).get(1).get(6)).isEqualTo("'=HYPERLINK(\"http://x\", \"y\")");
    }

    @Test
    @DisplayName("a gradebook with a quoted field never closed is refused by name")
    void unclosed() throws Exception {
        Files.writeString(tmp.resolve(Gradebook.LONG), "student,item,points,max,status,reason\na,b,1,2,FAILED,\"open\n");
        assertThatThrownBy(() -> Gradebook.open(tmp)).hasMessageContaining(Gradebook.LONG);
    }

    @Test
    @DisplayName("an item file in the columns before step and title were split is read and rewritten in the new ones")
    void oldColumns() throws Exception {
        Files.writeString(tmp.resolve(Gradebook.LONG), "student,item,points,max,status,reason\n"
                + "zed,3.4 merges on free,0,3,FAILED,\"expected: 1\n but was: 2\"\n");
        Gradebook g = Gradebook.open(tmp);
        g.put(graded("alice", "why"));
        g.write();
        assertThat(imported(tmp.resolve(Gradebook.LONG))).contains(
                List.of("zed", "3.4", "merges on free", "0", "3", "FAILED", "expected: 1", "but was: 2"));
    }
}
