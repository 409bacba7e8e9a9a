package vramlab.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * How a trace error names its place: {@code file:line: what}, {@code file:line:column: what},
 * {@code file: byte N: what}, and for the file as a whole (line 0) {@code file: what}, never a
 * line 0 that no editor can go to.
 */
@DisplayName("a trace error")
class TraceExceptionTest {

    @Test
    @DisplayName("at a line: file:line: what")
    void atALine() {
        TraceException e = new TraceException("run.trace", 1, "unknown command 'x'");
        assertThat(e).hasMessage("run.trace:1: unknown command 'x'");
        assertThat(e.file()).isEqualTo("run.trace");
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.what()).isEqualTo("unknown command 'x'");
    }

    @Test
    @DisplayName("about the whole file (line 0): file: what, with no line")
    void wholeFile() {
        TraceException e = new TraceException("s.pickle", 0, "not a memory snapshot");
        assertThat(e).hasMessage("s.pickle: not a memory snapshot");
        assertThat(e.line()).isZero();
        assertThat(new TraceException("s.json", 0, 7, "bad JSON")).as("a column without a line").hasMessage("s.json: bad JSON");
    }

    @Test
    @DisplayName("at a column: file:line:column: what")
    void atAColumn() {
        TraceException e = new TraceException("s.json", 1, 12, "expected a number");
        assertThat(e).hasMessage("s.json:1:12: expected a number");
        assertThat(e.file()).isEqualTo("s.json");
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.what()).isEqualTo("expected a number");
    }

    @Test
    @DisplayName("at a byte of a binary file: file: byte N: what, line 0")
    void atAByte() {
        TraceException e = TraceException.atByte("s.pickle", 0, "unknown opcode 0xff");
        assertThat(e).hasMessage("s.pickle: byte 0: unknown opcode 0xff");
        assertThat(e.file()).isEqualTo("s.pickle");
        assertThat(e.line()).isZero();
        assertThat(e.what()).isEqualTo("unknown opcode 0xff");
    }
}
