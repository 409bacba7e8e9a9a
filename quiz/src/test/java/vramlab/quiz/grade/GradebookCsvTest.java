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
    @DisplayName("a reason holding a comma, a quote or a newline stays in its one cell")
    void reason(String reason) throws Exception {
        Gradebook g = Gradebook.open(tmp);
        g.put(graded("alice", reason, "flag, with \"quotes\"\nand a line"));
        g.write();
        List<List<String>> items = imported(tmp.resolve(Gradebook.LONG));
        assertThat(items.get(0)).containsExactly("student", "item", "points", "max", "status", "reason");
        assertThat(items).hasSize(3).allSatisfy(r -> assertThat(r).hasSize(6));
        assertThat(items.get(1)).containsExactly("alice", "3.1 rounds, up", "0", "2", "FAILED", reason);
        List<List<String>> wide = imported(tmp.resolve(Gradebook.WIDE));
        assertThat(wide).hasSize(2);
        assertThat(wide.get(1)).hasSameSizeAs(wide.get(0)).contains("flag, with \"quotes\"\nand a line");
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
                .filteredOn(r -> r.get(0).equals("bob") && r.get(1).startsWith("3.1"))
                .singleElement().satisfies(r -> assertThat(r.get(5)).isEqualTo(reason));
    }

    @Test
    @DisplayName("a formula is defused with a leading quote, so the spreadsheet shows it as text")
    void formula() throws Exception {
        Gradebook g = Gradebook.open(tmp);
        g.put(graded("mallory", "=HYPERLINK(\"http://x\", \"y\")"));
        g.write();
        assertThat(imported(tmp.resolve(Gradebook.LONG)).get(1).get(5)).isEqualTo("'=HYPERLINK(\"http://x\", \"y\")");
    }

    @Test
    @DisplayName("a gradebook with a quoted field never closed is refused by name")
    void unclosed() throws Exception {
        Files.writeString(tmp.resolve(Gradebook.LONG), "student,item,points,max,status,reason\na,b,1,2,FAILED,\"open\n");
        assertThatThrownBy(() -> Gradebook.open(tmp)).hasMessageContaining(Gradebook.LONG);
    }
}
