package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

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
    @DisplayName("tabs and backslashes in a reason round-trip too")
    void escapes() {
        ScoreRow r = new ScoreRow("q3.1", "n", 1, 0, "FAILED", "a\\nb\tc\\");
        assertThat(ScoreRow.fromTsv(r.toTsv())).isEqualTo(r);
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
