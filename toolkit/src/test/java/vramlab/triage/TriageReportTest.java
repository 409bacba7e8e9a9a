package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What triage reports about a message, beyond its cause: the report's sections, the JSON's
 * nulls, which of several messages it reads, and the parser's notes and missing figures. The
 * messages are PyTorch's own wordings (c10/cuda/CUDACachingAllocator.cpp across releases).
 */
@DisplayName("Triage's report, JSON and notes")
class TriageReportTest {
    static final String SENTENCE = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. "
            + "GPU 0 has a total capacity of 24.00 GiB of which 50.00 MiB is free. Process 31337 has 9.00 GiB "
            + "memory in use. Including non-PyTorch memory, this process has 14.00 GiB memory in use. Of the "
            + "allocated memory 12.00 GiB is allocated by PyTorch, and 1024.00 MiB is reserved by PyTorch but "
            + "unallocated. If reserved but unallocated memory is large try setting "
            + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.";
    static final String PARENTHESIZED_14 = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 MiB (GPU 1; "
            + "15.78 GiB total capacity; 14.10 GiB already allocated; 1.50 MiB free; 14.50 GiB reserved in total "
            + "by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
            + "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF";
    static final String CACHED_10 = "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; "
            + "10.76 GiB total capacity; 9.51 GiB already allocated; 50.56 MiB free; 9.80 GiB cached)";

    @Nested
    @DisplayName("the report")
    class Report {
        @Test
        @DisplayName("lists the format, every figure found with its bytes, the processes, the "
                + "cause, why, the fixes and notes")
        void sections() {
            Diagnosis d = Triage.of(SENTENCE);
            String t = d.text();
            assertThat(t).startsWith("Format: " + Family.SENTENCE.description() + "\n\nNumbers found:\n");
            assertThat(t).contains(String.format("  %-45s %s%n", Figure.REQUESTED.label(), "20.00 MiB (20971520 bytes)"));
            assertThat(t).contains(String.format("  %-45s %s%n", Figure.DEVICE.label(), "0"));
            assertThat(t).contains(String.format("  %-45s %s%n", "  process 31337", "9.00 GiB"));
            assertThat(t).contains("\nMost likely cause: " + d.cause().name() + " (ladder step " + d.cause().step()
                    + " of 6): " + d.cause().title() + "\nRunner-up: " + d.runnerUp().name() + "\n"
                    + d.tellApart() + "\n\nEach cause against the shortfall");
            assertThat(t.indexOf("\nEach cause against the shortfall")).as("the ranking before the ladder's words")
                    .isLessThan(t.indexOf("\n\nWhy, in the ladder's order:\n"));
            for (String e : d.evidence()) assertThat(t).contains("  - " + e + "\n");
            assertThat(d.evidence()).isNotEmpty();
            assertThat(t).contains("\nFix ladder, cheapest first:\n  1. " + d.fixes().get(0) + "\n");
            assertThat(t).contains("  " + d.fixes().size() + ". " + d.fixes().get(d.fixes().size() - 1) + "\n");
            assertThat(t).contains("\nAbout the message:\n  - Its hint suggests expandable_segments:True");
            assertThat(t).doesNotContain("Printed by").doesNotContain("missing:").doesNotContain("  none\n");
            assertThat(d.fixes()).isNotEmpty().isEqualTo(d.cause().fixes());
        }

        @Test
        @DisplayName("says who printed it, 'none' without figures, what is missing, and no step for a foreign error")
        void sparse() {
            Diagnosis d = Triage.of("[rank3]: something\n[rank3]: RESOURCE_EXHAUSTED: Out of "
                    + "memory while trying to allocate");
            String t = d.text();
            assertThat(t).contains("Numbers found:\n  none\n");
            assertThat(t).contains("Most likely cause: NOT_PYTORCH_OOM: " + Cause.NOT_PYTORCH_OOM.title());
            assertThat(t).doesNotContain("ladder step");
            assertThat(t).doesNotContain("About the message");
            Diagnosis cut = Triage.of("[rank1]: torch.OutOfMemoryError: CUDA out of memory. "
                    + "Tried to allocate 20.00 MiB. "
                    + "GPU 0 has a total capacity of 24.00 GiB");
            assertThat(cut.text()).contains("Printed by: rank 1\n").contains("  missing: " + Figure.FREE.label());
        }

        @Test
        @DisplayName("the JSON has every figure's key, null when absent, and the processes with their bytes")
        void json() {
            String j = Triage.of(SENTENCE).json();
            for (Figure f : Figure.values()) assertThat(j).contains("\"" + f.key() + "\":");
            assertThat(j).contains("\"allowed\":null").contains("\"requested\":20971520")
                    .contains("\"processes\":[{\"pid\":31337,\"bytes\":" + (9L << 30) + ",\"thisProcess\":false}]")
                    .contains("\"family\":\"SENTENCE\"");
            assertThat(MiniJsonReader.isValid(j)).isTrue();
        }
    }

    @Nested
    @DisplayName("several messages in one paste")
    class Several {
        @Test
        @DisplayName("the one with the most figures is read, and the preface says how many and from whom")
        void most() {
            Diagnosis d = Triage.of("[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB.\n"
                    + "[rank1]: " + SENTENCE);
            assertThat(d.evidence().get(0)).isEqualTo("The paste holds 2 out-of-memory messages (from rank 0, rank 1); "
                    + "this reads the one with the most figures, from rank 1.");
            assertThat(d.reading().source()).isEqualTo("rank 1");
        }

        @Test
        @DisplayName("on a tie the first is read; without sources the preface names none")
        void tie() {
            String a = "CUDA out of memory. Tried to allocate 2.00 MiB.";
            String b = "CUDA out of memory. Tried to allocate 4.00 MiB.";
            Diagnosis d = Triage.of(a + "\n" + b);
            assertThat(d.evidence().get(0)).isEqualTo("The paste holds 2 out-of-memory messages; this reads the one "
                    + "with the most figures.");
            assertThat(d.reading().get(Figure.REQUESTED)).isEqualTo(2L << 20);
            assertThat(Triage.of(a).evidence().get(0))
                    .as("one message, no preface").doesNotStartWith("The paste holds");
        }
    }

    @Nested
    @DisplayName("the parser's reading")
    class Parser {
        @Test
        @DisplayName("1.4-2.0: reserved in total, unallocated = reserved - allocated, and the max_split_size_mb hint")
        void reservedInTotal() {
            Reading r = Triage.of(PARENTHESIZED_14).reading();
            assertThat(r.family()).isEqualTo(Family.RESERVED_IN_TOTAL);
            assertThat(r.get(Figure.DEVICE)).isEqualTo(1);
            assertThat(r.get(Figure.RESERVED_BUT_UNALLOCATED))
                    .isEqualTo(r.get(Figure.RESERVED) - r.get(Figure.ALLOCATED_BY_PYTORCH)).isPositive();
            assertThat(r.missing()).isEmpty();
            assertThat(r.notes()).containsExactly("Its hint suggests max_split_size_mb (late 1.x releases up to 2.1).");
            assertThat(Triage.of(SENTENCE.replace("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF")).reading().notes())
                    .contains("It names PYTORCH_ALLOC_CONF, the newer, device-neutral name of the variable, as"
                            + " PyTorch 2.10 words its hint (2.9 and older, and 2.11 and later, name"
                            + " PYTORCH_CUDA_ALLOC_CONF).");
        }

        @Test
        @DisplayName("0.4-1.3: 'cached' is the unused cache, reserved = allocated + cached, with a note; a cut one"
                + " says it cannot tell the two formats apart")
        void cached() {
            Reading r = Triage.of(CACHED_10).reading();
            assertThat(r.family()).isEqualTo(Family.CACHED);
            assertThat(r.get(Figure.RESERVED_BUT_UNALLOCATED)).as("9.80 GiB cached")
                    .isEqualTo(Sizes.parseOrMinusOne("9.80 GiB")).isPositive();
            assertThat(r.get(Figure.RESERVED)).isEqualTo(r.get(Figure.ALLOCATED_BY_PYTORCH)
                    + r.get(Figure.RESERVED_BUT_UNALLOCATED));
            assertThat(r.notes()).contains("Before 1.4, 'cached' is the memory PyTorch holds but no tensor uses "
                    + "(cached minus allocated); reserved is allocated plus cached.");
            Reading cut = Triage.of("RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 10.76 GiB "
                    + "total capacity; 9.51 GiB already allocated").reading();
            assertThat(cut.family()).isEqualTo(Family.RESERVED_IN_TOTAL);
            assertThat(cut.notes())
                    .contains("It is cut before its last figure, so 0.4-1.3 and 1.4-2.0 look alike here.");
            assertThat(cut.missing()).contains(Figure.FREE.label(), Figure.RESERVED.label());
            assertThat(cut.has(Figure.RESERVED_BUT_UNALLOCATED)).isFalse();
            assertThat(cut.has(Figure.CAPACITY)).isTrue();
        }

        @Test
        @DisplayName("a sentence cut before its device figures, or without a request, names what it lacks")
        void cutSentence() {
            Reading r = Triage.of("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.").reading();
            assertThat(r.notes()).contains("The message stops before its device figures.");
            assertThat(r.missing()).contains(Figure.CAPACITY.label(), Figure.FREE.label());
            Reading noRequest = Triage.of("CUDA out of memory. GPU 0 has a total capacity of 24.00 GiB of which 50.00 "
                    + "MiB is free.").reading();
            assertThat(noRequest.missing()).contains(Figure.REQUESTED.label(), Figure.ALLOCATED_BY_PYTORCH.label());
            assertThat(noRequest.has(Figure.PRIVATE_POOLS)).as("no allocated figure: no zero private pools").isFalse();
        }

        @Test
        @DisplayName("the async backend: its figures, no memory fraction at 2^64, and what it lacks")
        void async() {
            Reading r = Triage.of("torch.OutOfMemoryError: Allocation on device 2 would exceed allowed memory. (out of "
                    + "memory)\nCurrently allocated     : 10.00 GiB\nRequested               : 2.00 GiB\nDevice limit  "
                    + "          : 11.00 GiB\nFree (according to CUDA): 500.00 MiB\nPyTorch "
                    + "limit (set by user-supplied "
                    + "memory fraction)\n                        : 17179869184.00 GiB").reading();
            assertThat(r.family()).isEqualTo(Family.MALLOC_ASYNC);
            assertThat(r.get(Figure.DEVICE)).isEqualTo(2);
            assertThat(r.has(Figure.ALLOWED)).isFalse();
            assertThat(r.notes()).anySatisfy(n -> assertThat(n)
                    .startsWith("Its PyTorch limit is 17179869184.00GiB (2^64 bytes)"));
            assertThat(r.missing()).isEmpty();
            Reading cut = Triage.of("Allocation on device 0 would exceed allowed memory. "
                    + "Currently allocated : 1.00 GiB")
                    .reading();
            assertThat(cut.missing()).contains(Figure.REQUESTED.label(), Figure.CAPACITY.label());
        }

        @Test
        @DisplayName("raw CUDA and NCCL errors carry a note that no allocator figures exist; look-alikes do not")
        void noFigures() {
            assertThat(Triage.of("RuntimeError: CUDA error: out of memory").reading().notes())
                    .containsExactly("It carries no allocator figures; the ladder can only go by its words.");
            Reading nccl = Triage.of("torch.distributed.DistBackendError: NCCL error: unhandled cuda error, "
                    + "NCCL version 2.18.1\nncclUnhandledCudaError: Call to CUDA function failed.\n"
                    + "Cuda failure 'out of memory'").reading();
            assertThat(nccl.family()).isEqualTo(Family.NCCL_ERROR);
            // NCCL's own log names no second rank ("[3]" is the CUDA device): a mention, not a world size
            assertThat(nccl.has(Clue.DISTRIBUTED_MENTION)).isTrue();
            assertThat(nccl.has(Clue.DISTRIBUTED)).isFalse();
            Reading look = Triage.of("tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when "
                    + "allocating tensor").reading();
            assertThat(look.family()).isEqualTo(Family.LOOK_ALIKE);
            assertThat(look.backend()).isEqualTo("TensorFlow");
            assertThat(look.notes()).isEmpty();
        }

        @Test
        @DisplayName("the enums' words: each clue, figure and family describes itself; only "
                + "the device is no byte count")
        void words() {
            for (Clue c : Clue.values()) assertThat(c.description()).isNotBlank();
            assertThat(Clue.CUDNN.description()).isEqualTo("a convolution through cuDNN");
            assertThat(Figure.CAPACITY.label()).isEqualTo("total capacity");
            assertThat(Figure.DEVICE.isBytes()).isFalse();
            assertThat(Figure.FREE.isBytes()).isTrue();
            assertThat(Cause.FRAGMENTATION.title()).startsWith("fragmentation");
            assertThat(Set.of(Cause.values())).allSatisfy(c -> assertThat(c.fixes()).isNotEmpty());
        }
    }
}
