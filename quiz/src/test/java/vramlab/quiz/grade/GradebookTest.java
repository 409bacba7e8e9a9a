package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.quiz.ScoreRow;

class GradebookTest {
    @TempDir Path tmp;

    static Grader.Result result(String student, int lab31, int q31, String... flags) {
        List<ScoreRow> rows = List.of(
                lab31 == 2 ? new ScoreRow("3.1", "3.1: rounds", 2, 2, "PASSED", "")
                        : new ScoreRow("3.1", "3.1: rounds", 2, 0, "FAILED", "expected: 512\n but was: 1024"),
                new ScoreRow("3.4", "3.4: merges", 3, 0, "FAILED", "Todo: TODO step 3.1 (Round) is not written yet"),
                new ScoreRow("1.1", "1.1: walks", 2, 2, "PASSED", ""),
                q31 == 0 ? new ScoreRow("q3.1", "q3.1: Predict, the block", 4, 0, "FAILED", "not answered")
                        : new ScoreRow("q3.1", "q3.1: Predict, the block", 4, q31, q31 == 4 ? "PASSED" : "PARTIAL", "(b) wrong"));
        return new Grader.Result(student, rows, List.of(flags), "run1", "2025-05-01T10:00:00Z", 1000);
    }

    static List<List<String>> read(Path f) throws Exception {
        return Gradebook.Csv.parse(Files.readString(f), f.toString());
    }

    @Test
    @DisplayName("one row per student: total, a lab and a quiz subtotal per chapter with its maximum, flags")
    void wide() throws Exception {
        Gradebook g = Gradebook.open(tmp);
        g.put(result("alice", 2, 1, "copied sheet? ch03.txt was written for student 'bob'"));
        g.put(result("bob", 0, 4));
        g.write();
        List<List<String>> rows = read(tmp.resolve(Gradebook.WIDE));
        assertThat(rows.get(0)).containsExactly("student", "total", "max", "ch01 lab (2)", "ch01 quiz (0)",
                "ch03 lab (5)", "ch03 quiz (4)", "flags", "graded_at", "run");
        assertThat(rows.get(1)).startsWith("alice", "5", "11", "2", "0", "2", "1").contains("run1")
                .anySatisfy(c -> assertThat(c).contains("copied sheet"));
        assertThat(rows.get(2)).startsWith("bob", "6", "11", "2", "0", "0", "4");
    }

    @Test
    @DisplayName("the item file has one row per student and item, its reason and which step comes first")
    void long_() throws Exception {
        Gradebook g = Gradebook.open(tmp);
        g.put(result("alice", 0, 1));
        g.write();
        List<List<String>> rows = read(tmp.resolve(Gradebook.LONG));
        assertThat(rows.get(0)).containsExactly("student", "step", "title", "points", "max", "status", "reason", "detail");
        assertThat(rows).hasSize(5);
        assertThat(rows.get(1)).containsExactly("alice", "3.1", "rounds", "0", "2", "FAILED", "expected: 512", "but was: 1024");
        assertThat(rows.get(2)).startsWith("alice", "3.4", "merges", "0", "3", "WAITING");
        assertThat(rows.get(2).get(6)).startsWith("(needs step 3.1 first) Todo");
        assertThat(rows.get(4)).startsWith("alice", "q3.1", "Predict, the block", "1", "4", "PARTIAL");
    }

    @Test
    @DisplayName("a step not written yet has check's and results.json's words in the item file, not the Todo's class and message")
    void notWrittenReason() throws Exception {
        String todo = "Todo: TODO step 3.1 (Round a request) is not written yet: read the notes, ch03 \"Rule 1\","
                + " then write it in labs/src/main/java/vramlab/alloc/ToyPolicy.java";
        ScoreRow row = new ScoreRow("3.1", "3.1: rounds", 2, 0, "FAILED", todo);
        List<String> cells = Gradebook.itemCells("alice", row);
        assertThat(cells.get(5)).isEqualTo("NOT_WRITTEN");
        assertThat(cells.get(6)).isEqualTo(vramlab.quiz.Reports.told(row)).isEqualTo("not written yet: read the notes,"
                + " ch03 \"Rule 1\", then write it in labs/src/main/java/vramlab/alloc/ToyPolicy.java");
    }

    @ParameterizedTest(name = "{0}: {2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            3.1  | FAILED  | expected: 512 but was: 1024                                              | FAILED
            3.1  | PASSED  |                                                                          | PASSED
            q3.1 | PARTIAL | (b) wrong                                                                | PARTIAL
            3.1  | FAILED  | timed out after 10 s (an infinite loop?)                                 | TIMEOUT
            3.1  | FAILED  | not run: the submission's time bound (120 s) was used up                 | TIMEOUT
            3.1  | FAILED  | not finished: the submission's time bound was used up                    | TIMEOUT
            3.4  | FAILED  | did not compile: the alloc core, so its steps earn nothing               | COMPILE_ERROR
            3.1  | FAILED  | Todo: TODO step 3.1 (Round) is not written yet                           | NOT_WRITTEN
            3.4  | FAILED  | Todo: TODO step 3.1 (Round) is not written yet                           | WAITING
            3.10 | FAILED  | Todo: TODO step 3.1 (Round) is not written yet                           | WAITING
            3.3  | FAILED  | needs step 3.2 first: Find a block is not written yet: read the notes    | WAITING
            q3.1 | FAILED  | not answered (no blank of q3.1 is filled in)                             | NOT_WRITTEN
            q4.1 | FAILED  | not answered (labs/answers/ch04.txt, which is missing)                   | NOT_WRITTEN
            3.1  | FAILED  | not graded: no labs/ found: looked for labs/src/main/java                | NOT_WRITTEN
            3.4  | FAILED  | the JVM exited with status 3 during this test (System.exit, or a crash)  | CRASHED
            3.1  | FAILED  | wrote more than 320 KiB of output around the 256 KiB cap                 | CRASHED
            3.1  | FAILED  | wrote files past the 256 MiB cap on what a test may write                | CRASHED
            3.1  | FAILED  | not run: the test JVM stopped before its first test: Error               | CRASHED
            3.1  | FAILED  | the test class could not run: ExceptionInInitializerError                | CRASHED
            """)
    @DisplayName("the item file's status tells a time-out, a compile error, a Todo and a crash from a wrong answer")
    void status(String step, String rowStatus, String reason, Gradebook.Status expected) {
        int points = 4;
        int earned = rowStatus.equals("PASSED") ? 4 : rowStatus.equals("PARTIAL") ? 1 : 0;
        ScoreRow row = new ScoreRow(step, step + ": x", points, earned, rowStatus, reason == null ? "" : reason);
        assertThat(Gradebook.status(row)).isEqualTo(expected);
    }

    @Test
    @DisplayName("regrading one student replaces that row, keeps the others' as they were, and flags the regrade")
    void regrade() throws Exception {
        Gradebook first = Gradebook.open(tmp);
        for (String s : List.of("alice", "bob", "carol")) first.put(result(s, 0, 0));
        first.write();
        String bobBefore = Files.readString(tmp.resolve(Gradebook.WIDE)).lines().filter(l -> l.startsWith("bob,"))
                .findFirst().orElseThrow();
        Gradebook again = Gradebook.open(tmp);
        assertThat(again.earlier("alice")).isEqualTo("2/11 at 2025-05-01T10:00:00Z");
        again.put(result("alice", 2, 4, "regraded (was " + again.earlier("alice") + ")"));
        again.write();
        List<String> lines = Files.readString(tmp.resolve(Gradebook.WIDE)).lines().toList();
        assertThat(lines).hasSize(4).contains(bobBefore);
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("alice,8,11,").contains("regraded (was 2/11"));
        assertThat(read(tmp.resolve(Gradebook.LONG))).filteredOn(r -> r.get(0).equals("carol")).hasSize(4);
    }

    @Test
    @DisplayName("a gradebook saved back from a spreadsheet with a byte-order mark is read, and written without one")
    void savedBackWithAByteOrderMark() throws Exception {
        Gradebook first = Gradebook.open(tmp);
        first.put(result("bob", 1, 2));
        first.write();
        for (String f : List.of(Gradebook.WIDE, Gradebook.LONG)) {
            Files.writeString(tmp.resolve(f), "\ufeff" + Files.readString(tmp.resolve(f)));
        }
        Gradebook again = Gradebook.open(tmp);
        assertThat(again.earlier("bob")).isEqualTo("4/11 at 2025-05-01T10:00:00Z");
        again.put(result("alice", 0, 0));
        again.write();
        assertThat(Files.readString(tmp.resolve(Gradebook.WIDE))).startsWith("student,")
                .contains("\nbob,").contains("\nalice,");
        assertThat(read(tmp.resolve(Gradebook.LONG))).filteredOn(r -> r.get(0).equals("bob")).isNotEmpty();
    }

    @Test
    @DisplayName("a gradebook with other columns (another kit) is not mixed with this one")
    void otherColumns() throws Exception {
        Files.writeString(tmp.resolve(Gradebook.WIDE),
                "student,total,max,ch01 lab (2),ch01 quiz (0),flags,graded_at,run\nzed,1,2,1,0,,2025-05-01T10:00:00Z,r0\n");
        Gradebook g = Gradebook.open(tmp);
        assertThatThrownBy(() -> g.put(result("alice", 0, 0))).hasMessageContaining("other columns");
        // An older kit's file of other columns altogether is refused as soon as it is opened.
        Files.writeString(tmp.resolve(Gradebook.WIDE), "student,score,max_score,3.1 3.1: rounds\nzed,1,2,1\n");
        assertThatThrownBy(() -> Gradebook.open(tmp)).hasMessageContaining("is not a gradebook");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"3.4, ch03", "q3.1, ch03", "12.1, ch12", "q7.6, ch07", "t.1, other"})
    @DisplayName("a step or question belongs to the chapter of its first number")
    void chapters(String step, String chapter) {
        assertThat(Gradebook.chapterOf(step)).isEqualTo(chapter);
    }

    @Test
    @DisplayName("CSV fields with commas, quotes and line breaks survive a write and a read")
    void csvRoundTrip() {
        List<String> cells = List.of("a,b", "say \"hi\"", "two\nlines", "", "plain");
        assertThat(Gradebook.Csv.parse(Gradebook.Csv.line(cells) + "\n" + Gradebook.Csv.line(cells), "x"))
                .containsExactly(cells, cells);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"@kim", "+kim", "-kim", "=kim"})
    @DisplayName("a student id a spreadsheet would run as a formula keeps one row when regraded, and is flagged so")
    void regradeQuotedId(String id) throws Exception {
        Gradebook g = Gradebook.open(tmp);
        g.put(result(id, 0, 1));
        g.put(result("zoe", 2, 4));
        g.write();
        Gradebook again = Gradebook.open(tmp);
        assertThat(again.students()).containsExactlyInAnyOrder(id, "zoe");
        assertThat(again.earlier(id)).isEqualTo("3/11 at 2025-05-01T10:00:00Z");
        again.put(result(id, 2, 4));
        again.write();
        List<List<String>> wide = read(tmp.resolve(Gradebook.WIDE));
        assertThat(wide).hasSize(3);
        assertThat(wide.stream().filter(r -> r.get(0).equals("'" + id))).singleElement()
                .satisfies(r -> assertThat(r.get(1)).isEqualTo("8"));
        assertThat(read(tmp.resolve(Gradebook.LONG)).stream().filter(r -> r.get(0).equals("'" + id))).hasSize(4);
    }

    @Test
    @DisplayName("a gradebook.csv that is no gradebook is refused when opened, before any submission is graded")
    void foreignWideFile() throws Exception {
        Files.writeString(tmp.resolve(Gradebook.WIDE), "name,score\nx,1\n");
        assertThatThrownBy(() -> Gradebook.open(tmp)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gradebook.csv is not a gradebook").hasMessageContaining("pick another --out");
        Gradebook empty = Gradebook.open(Files.createDirectories(tmp.resolve("fresh")));
        empty.write();
        assertThat(Gradebook.open(tmp.resolve("fresh")).students()).isEmpty();
    }
}
