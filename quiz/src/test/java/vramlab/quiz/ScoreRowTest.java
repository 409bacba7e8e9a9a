package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScoreRowTest {
    @Test
    @DisplayName("a failure keeps expected vs actual below its first line, and survives the TSV round trip")
    void multiLineReason() {
        AssertionError e = new AssertionError("[roundSize(512)] \nexpected: 512\n but was: 1024\n");
        ScoreRow r = ScoreRow.of("3.1", "rounds", 2, false, e);
        assertThat(r.reason()).isEqualTo("[roundSize(512)]\nexpected: 512\n but was: 1024");
        assertThat(r.why()).isEqualTo("[roundSize(512)]");
        String tsv = r.toTsv();
        assertThat(tsv).doesNotContain("\n").hasLineCount(1);
        assertThat(ScoreRow.fromTsv(tsv)).isEqualTo(r);
    }

    @Test
    @DisplayName("an item is not written when its own step's Todo is its first line: not another step's, not 3.10's for 3.1")
    void notWritten() {
        String own = "Todo: TODO step 3.1 (Round a request) is not written yet: read the notes, ch03 \"Rule 1\", then write it in F";
        assertThat(new ScoreRow("3.1", "n", 2, 0, "FAILED", own).notWritten()).isTrue();
        assertThat(new ScoreRow("3.1", "n", 2, 0, "FAILED", own + "\nmore").notWritten()).isTrue();
        assertThat(new ScoreRow("3.4", "n", 2, 0, "FAILED", own).notWritten()).as("another step's Todo: a wait").isFalse();
        assertThat(new ScoreRow("3.10", "n", 2, 0, "FAILED", own).notWritten()).isFalse();
        assertThat(new ScoreRow("3.1", "n", 2, 0, "FAILED", own.replace("3.1 (", "3.10 (")).notWritten()).isFalse();
        assertThat(new ScoreRow("3.1", "n", 2, 0, "FAILED", "expected 1\n" + own).notWritten())
                .as("a Todo below a failure's first line is not why it failed").isFalse();
        assertThat(new ScoreRow("3.1", "n", 2, 0, "FAILED", "needs step 3.1 first: Round a request is not written yet")
                .notWritten()).isFalse();
        assertThat(new ScoreRow("3.1", "n", 2, 2, "PASSED", own).notWritten()).isFalse();
    }

    @Test
    @DisplayName("a Todo without its title in brackets is still the step's own, not a wait for itself")
    void todoWithoutTitle() {
        ScoreRow own = new ScoreRow("3.1", "n", 2, 0, "FAILED", "TODO step 3.1 is not written yet");
        assertThat(own.notWritten()).isTrue();
        assertThat(own.waitingFor()).as("no item waits for its own step").isNull();
        ScoreRow other = new ScoreRow("3.4", "n", 2, 0, "FAILED", "TODO step 3.1 is not written yet");
        assertThat(other.notWritten()).isFalse();
        assertThat(other.waitingFor()).isEqualTo("3.1");
        assertThat(new ScoreRow("3.1", "n", 2, 0, "FAILED", "TODO step 3.1.").notWritten()).isTrue();
    }

    @Test
    @DisplayName("a question none of whose blanks is filled in is not answered (TODO); one answered in part is wrong")
    void notAnswered() {
        ScoreRow blank = new ScoreRow("q3.1", "q", 4, 0, "FAILED",
                "q3.1: 0/4: not answered (no blank of q3.1 is filled in labs/answers/ch03.txt)\nreread ch03 \"Rule 1\"");
        ScoreRow missing = new ScoreRow("q4.1", "q", 5, 0, "FAILED",
                "q4.1: 0/5: not answered (no blank of q4.1 is filled in labs/answers/ch04.txt, which is missing)");
        ScoreRow inPart = new ScoreRow("q3.1", "q", 4, 0, "FAILED",
                "q3.1: 0/4: (a) q3.1.a.size: not answered; (b) q3.1.b.layer: not the right choice");
        ScoreRow partial = new ScoreRow("q3.1", "q", 4, 2, "PARTIAL", "q3.1: 2/4: (b) q3.1.b.layer: not answered");
        assertThat(List.of(blank, missing, inPart, partial)).extracting(ScoreRow::notAnswered)
                .containsExactly(true, true, false, false);
        assertThat(List.of(blank, missing, inPart, partial)).extracting(ScoreRow::todo)
                .containsExactly(true, true, false, false);
        assertThat(blank.notWritten()).as("a question has no Todo").isFalse();
        assertThat(new ScoreRow("3.1", "n", 2, 0, "FAILED", "not answered").notAnswered()).as("a lab step is not answered").isFalse();
    }

    @Test
    @DisplayName("tabs and backslashes in a reason round-trip too")
    void escapes() {
        ScoreRow r = new ScoreRow("q3.1", "n", 1, 0, "FAILED", "a\\nb\tc\\");
        assertThat(ScoreRow.fromTsv(r.toTsv())).isEqualTo(r);
    }

    @Nested
    @DisplayName("points follow the status, and only the kit's marker gives part")
    class Credit {
        @ParameterizedTest(name = "{0} with {1} of 4 is refused")
        @CsvSource({"FAILED, 1", "FAILED, 4", "SKIPPED, 2", "PASSED, 3", "PARTIAL, 0", "PARTIAL, 4", "MAYBE, 0"})
        @DisplayName("a row whose points contradict its status cannot be made")
        void contradictions(String status, int earned) {
            assertThatThrownBy(() -> new ScoreRow("3.1", "n", 4, earned, status, ""))
                    .isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        @DisplayName("a failed test earns nothing, whatever it threw: a PartialCredit is just a failure")
        void thrownCreditIsIgnored() {
            ScoreRow r = ScoreRow.of("3.1", "n", 4, false, new PartialCredit(4, 4, "fine"));
            assertThat(r).extracting(ScoreRow::earned, ScoreRow::status).containsExactly(0, "FAILED");
            assertThat(r.reason()).isEqualTo("fine");
        }

        @ParameterizedTest(name = "{0} of 4 marked right: {1}")
        @CsvSource({"0, FAILED", "1, PARTIAL", "3, PARTIAL", "4, PASSED"})
        @DisplayName("a quiz item's row takes its points and status from the marker")
        void quizRows(int earned, String status) {
            ScoreRow r = ScoreRow.quiz("q3.1", "q3.1: t", new Mark("q3.1", earned, 4,
                    earned == 4 ? java.util.List.of() : java.util.List.of("(b) wrong")), "note");
            assertThat(r).extracting(ScoreRow::earned, ScoreRow::status).containsExactly(earned, status);
            assertThat(r.reason()).isEqualTo(earned == 4 ? "note" : "q3.1: " + earned + "/4: (b) wrong\nnote");
        }
    }

    @Test
    @DisplayName("a long message is cut to a bounded number of lines")
    void bounded() {
        String m = "why\n" + "line\n".repeat(100);
        ScoreRow r = ScoreRow.of("3.1", "n", 1, false, new AssertionError(m));
        assertThat(r.reason().lines().count()).isEqualTo(ScoreRow.MAX_REASON_LINES + 1);
        assertThat(r.reason()).endsWith("...");
    }
}
