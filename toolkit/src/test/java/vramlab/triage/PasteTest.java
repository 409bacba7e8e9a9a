package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Paste undoes what copying did to a message")
class PasteTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            [rank3]: Tried                                                       | rank 3
            [rank12]:Tried                                                       | rank 12
            [default0]: Tried                                                    | local rank 0
            (Worker_TP1 pid=510) Tried                                           | Worker_TP1 pid 510
            (VllmWorker rank=2 pid=77) ERROR 03-14 05:16:58 [core.py:843] Tried  | VllmWorker rank=2 pid 77
            (VllmWorker PP0_TP1 pid=78) Tried                                    | VllmWorker PP0_TP1 pid 78
            """)
    @DisplayName("a process prefix names the source and is removed")
    void processPrefixes(String line, String source) {
        String[] keyRest = Paste.stripPrefixes(line);
        assertThat(keyRest[0]).isEqualTo(source);
        assertThat(keyRest[1]).isEqualTo("Tried");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '^', textBlock = """
            ERROR 03-14 05:16:58 [core.py:843] Tried
            2025-01-19 22:04:51,377 - trainer - ERROR - Tried
            2025-01-19T22:04:51.377Z Tried
            E0314 05:16:58.123456  4242 trainer.cc:88] Tried
            ERROR:root:Tried
            3: Tried
            | ERROR    | trainer:step:88 - Tried
            stderr F Tried
            > Tried
            # Tried
            """)
    @DisplayName("a log prefix is removed and names no source")
    void noisePrefixes(String line) {
        String[] keyRest = Paste.stripPrefixes(line);
        assertThat(keyRest[0]).isNull();
        assertThat(keyRest[1]).isEqualTo("Tried");
    }

    @Test
    @DisplayName("a Python repr's escapes are undone, other backslashes kept")
    void repr() {
        assertThat(Paste.unescapeRepr("a\\nb \\'c\\' \\\"d\\\" e\\\\f \\d"))
                .isEqualTo("a\nb 'c' \"d\" e\\f \\d");
    }

    @Test
    @DisplayName("interleaved ranks become one source each, in order of appearance")
    void groups() {
        List<Paste.Source> s = Paste.read("[rank1]: A a\n[rank0]: B b\n[rank1]: C\nunprefixed\n[rank0]: D");
        assertThat(s).extracting(Paste.Source::name).containsExactly("rank 1", "rank 0");
        assertThat(s.get(0).squeezed()).isEqualTo("AaCunprefixed");
        assertThat(s.get(1).squeezed()).isEqualTo("BbD");
    }

    @Test
    @DisplayName("terminal colour codes are removed before anything else")
    void ansi() {
        List<Paste.Source> s = Paste.read("\u001b[31mERROR\u001b[0m 03-14 05:16:58 [core.py:843] "
                + "CUDA out of \u001b[1mmemory\u001b[0m.");
        assertThat(s.get(0).squeezed()).isEqualTo("CUDAoutofmemory.");
    }

    @Test
    @DisplayName("a loguru or containerd timestamp and its fields are removed together")
    void chainedPrefixes() {
        assertThat(Paste.read("2025-02-01 10:00:00.123 | ERROR    | trainer:step:88 - Tried to")
                .get(0).squeezed()).isEqualTo("Triedto");
        assertThat(Paste.read("2025-02-01T10:00:00.123456789Z stderr F Tried to")
                .get(0).squeezed()).isEqualTo("Triedto");
    }
}
