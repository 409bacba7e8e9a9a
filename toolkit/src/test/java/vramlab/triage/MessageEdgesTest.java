package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.triage.LadderRulesTest.card;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.triage.LadderRulesTest.R;

/**
 * The parser and the report on figures of 0 bytes and on the pieces of a paste the corpus never
 * isolates. Messages are built field by field from PyTorch's wording
 * (c10/cuda/CUDACachingAllocator.cpp: "(GPU d; T total capacity; A already allocated; F free;
 * R reserved in total by PyTorch)" in 1.4 to 2.0, the sentence form with NVML's "Process P has X
 * memory in use." lines in 2.1 and later), with sizes as format_size prints them ("0 bytes" up
 * to 1024 bytes, then two decimals of KiB, MiB or GiB).
 */
@DisplayName("Messages and reports at their edges")
class MessageEdgesTest {
    private static final long MiB = 1L << 20;

    static String parenthesized(String tried, String allocated, String free, String reserved) {
        return "RuntimeError: CUDA out of memory. Tried to allocate " + tried + " (GPU 0; 7.93 GiB total capacity; "
                + allocated + " already allocated; " + free + " free; " + reserved + " reserved in total by PyTorch)";
    }

    static Reading read(String paste) {
        List<Reading> rs = MessageParser.parse(paste);
        assertThat(rs).hasSize(1);
        return rs.get(0);
    }

    @Nested
    @DisplayName("the parser reads 0 bytes as a figure")
    class ZeroFigures {
        @Test
        @DisplayName("'Tried to allocate 0 bytes' is a request of 0, not a missing one")
        void zeroRequest() {
            Reading r = read(parenthesized("0 bytes", "130.35 MiB", "47.06 MiB", "188.00 MiB"));
            assertThat(r.get(Figure.REQUESTED)).isZero();
            assertThat(r.missing()).isEmpty();
        }

        @Test
        @DisplayName("0 bytes already allocated leaves all that is reserved unallocated; 0 of 0 leaves 0")
        void zeroAllocated() {
            Reading r = read(parenthesized("20.00 MiB", "0 bytes", "7.20 GiB", "20.00 MiB"));
            assertThat(r.get(Figure.ALLOCATED_BY_PYTORCH)).isZero();
            assertThat(r.get(Figure.RESERVED_BUT_UNALLOCATED)).isEqualTo(20 * MiB);
            Reading none = read(parenthesized("20.00 MiB", "0 bytes", "7.20 GiB", "0 bytes"));
            assertThat(none.get(Figure.RESERVED)).isZero();
            assertThat(none.has(Figure.RESERVED_BUT_UNALLOCATED)).isTrue();
            assertThat(none.get(Figure.RESERVED_BUT_UNALLOCATED)).isZero();
        }

        @Test
        @DisplayName("a process line of 0 bytes is still a process")
        void zeroProcess() {
            Reading r = read("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a "
                    + "total capacity of 23.65 GiB of which 10.00 MiB is free. Process 4242 has 0 bytes memory in "
                    + "use. Including non-PyTorch memory, this process has 23.00 GiB memory in use. Of the allocated "
                    + "memory 22.00 GiB is allocated by PyTorch, and 512.00 MiB is reserved by PyTorch but "
                    + "unallocated.");
            assertThat(r.processes()).containsExactly(Map.entry(4242, 0L));
            assertThat(r.get(Figure.OTHER_PROCESSES)).isZero();
        }
    }

    @Nested
    @DisplayName("the paste around the message")
    class Around {
        @Test
        @DisplayName("a paste that starts at 'Tried to allocate' says so first among its notes")
        void fragment() {
            Reading r = read("Tried to allocate 20.00 MiB (GPU 0; 7.93 GiB total capacity; 7.00 GiB already "
                    + "allocated; 10.00 MiB free; 7.50 GiB reserved in total by PyTorch)");
            assertThat(r.backend()).isEqualTo("CUDA");
            assertThat(r.notes().get(0)).isEqualTo("The paste starts at 'Tried to allocate': the words before it "
                    + "(which name the device) are missing, so CUDA is assumed.");
        }

        @Test
        @DisplayName("a raw CUDA error printed by a rank keeps the rank as its source")
        void rankedRawError() {
            Reading r = read("[rank3]: RuntimeError: CUDA error: out of memory\n"
                    + "[rank3]: CUDA kernel errors might be asynchronously reported at some other API call");
            assertThat(r.family()).isEqualTo(Family.CUDA_ERROR);
            assertThat(r.source()).isEqualTo("rank 3");
        }

        @Test
        @DisplayName("a repr's escapes are undone from the very first character")
        void leadingEscape() {
            assertThat(Paste.unescapeRepr("\\nRuntimeError")).isEqualTo("\nRuntimeError");
            assertThat(Paste.unescapeRepr("\\\"quoted\\\"")).isEqualTo("\"quoted\"");
            assertThat(Paste.unescapeRepr("no escapes")).isEqualTo("no escapes");
        }
    }

    @Nested
    @DisplayName("the report")
    class Report {
        static final String SENTENCE = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 "
                + "has a total capacity of 20.00 GiB of which 100.00 MiB is free. Including non-PyTorch memory, this "
                + "process has 19.50 GiB memory in use. Of the allocated memory 19.00 GiB is allocated by PyTorch, "
                + "and 100.00 MiB is reserved by PyTorch but unallocated.";

        @Test
        @DisplayName("names the format in words, and what was assumed about a 20 GiB card's context")
        void formatAndAssumption() {
            Diagnosis d = Triage.of(SENTENCE);
            assertThat(d.text()).startsWith("Format: PyTorch 2.1 and later: 'GPU d has a total capacity of T of "
                    + "which F is free. ...'\n");
            // a context: 512 MiB + 1% of 20 GiB = 716.80 MiB; with a desktop: 1.5 GiB + 4% = 2.30 GiB
            String assumed = "Assumed (this kit's rule of thumb, not a measured figure): on a 20.00 GiB card a CUDA "
                    + "context and the libraries typically take 716.80 MiB and at most 2.30 GiB (a desktop "
                    + "included); one process's non-PyTorch memory beyond 1024.00 MiB is more than a context.";
            assertThat(d.assumption()).isEqualTo(assumed);
            assertThat(d.text()).contains("\nAbout the message:\n").endsWith("  - " + assumed + "\n");
        }

        @Test
        @DisplayName("a foreign error gives no ladder step, no assumption")
        void foreign() {
            Diagnosis d = Triage.of("tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when "
                    + "allocating tensor with shape[1024,1024]");
            assertThat(d.brief()).startsWith("Most likely cause: NOT_PYTORCH_OOM\n");
            assertThat(d.text()).contains("\nMost likely cause: NOT_PYTORCH_OOM: ").doesNotContain("Assumed");
        }

        @Test
        @DisplayName("a shortfall of 0 bytes is printed as 0, its shares as '-'; a cause of 0 bytes has bytes 0")
        void zeroShortfall() {
            R r = card(20480L, 10L, 0L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 18000L)
                    .proc(4242, 2048);
            Diagnosis d = r.climb();
            assertThat(d.text()).contains("\nEach cause against the shortfall:\n")
                    .containsPattern("\n  OTHER_PROCESSES +-  2\\.00 GiB +enough alone\n");
            // the keys come in a fixed order (Diagnosis.json): a ranked row is cause, share, bytes, ...
            assertThat(d.json()).contains(",\"shortfall\":0,\"ranked\":[")
                    .contains("{\"cause\":\"FRAGMENTATION\",\"share\":0,\"bytes\":0,\"enoughAlone\":false,");
            assertThat(MiniJsonReader.isValid(d.json())).isTrue();
        }

        @Test
        @DisplayName("an unknown shortfall and a cause named by words have null figures in the JSON")
        void nulls() {
            R r = card(20480L, 4096L, 512L).put(Figure.RESERVED, 8000L);
            r.clues.add(Clue.GRAPH_CAPTURE);
            String json = r.climb().json();
            assertThat(json).contains(",\"shortfall\":null,\"ranked\":[{\"cause\":\"CUDA_GRAPH_POOLS\","
                    + "\"share\":100,\"bytes\":null,\"enoughAlone\":true,");
            assertThat(MiniJsonReader.isValid(json)).isTrue();
        }
    }

    @Nested
    @DisplayName("the JSON writer refuses what JSON cannot hold, however deep")
    class Deep {
        @Test
        @DisplayName("a double inside a list or a map, and a key that is not a string, are refused by name")
        void nested() {
            assertThatThrownBy(() -> Json.write(List.of(1L, 1.5))).hasMessage("Json.write: cannot write a Double");
            assertThatThrownBy(() -> Json.write(Map.of("a", 2.5f))).hasMessage("Json.write: cannot write a Float");
            assertThatThrownBy(() -> Json.write(List.of(Map.of(7, 1L))))
                    .hasMessage("Json.write: a key must be a string, not 7");
        }
    }
}
