package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * 2.2 and 2.3 print no private-pool clause and count a CUDA graph's pool among the unallocated
 * bytes (pytorch/pytorch#121932); 2.4 and later print the clause when a pool holds memory and
 * leave it out otherwise, in the same words. The message alone cannot tell them apart; the
 * exception's name around it can (torch.cuda.OutOfMemoryError before 2.4, torch.OutOfMemoryError
 * since), as can a warning only 2.4 and later print. The messages are written for this test in
 * 2.x's wording; the fragmentation story is echomimic-v2's (corpus 003).
 */
class PoolClauseTest {
    private static final String BODY = "CUDA out of memory. Tried to allocate 4.22 GiB. GPU 0 has a total capacity"
            + " of 23.65 GiB of which 3.71 GiB is free. Including non-PyTorch memory, this process has 11.14 GiB memory"
            + " in use. Of the allocated memory 10.14 GiB is allocated by PyTorch, and 771.43 MiB is reserved by PyTorch"
            + " but unallocated. If reserved but unallocated memory is large try setting"
            + " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory"
            + " Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

    private static String rung(Diagnosis d, String start) {
        return d.evidence().stream().filter(e -> e.startsWith(start)).findFirst().orElseThrow();
    }

    private static String decision(Diagnosis d) { return rung(d, "Decision: "); }

    @Test
    @DisplayName("no exception name, no 2.4 line: fragmentation is kept, and its line says a pool may hide in its bytes")
    void ambiguous() {
        Diagnosis d = Triage.of(BODY);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.reading().get(Figure.PRIVATE_POOLS)).isZero();
        assertThat(rung(d, "1. Fragmentation: ")).contains("The message prints no private-pool clause, which 2.4 and"
                + " later leave out when no pool holds memory but 2.2 and 2.3 never print").contains("(print torch.__version__)")
                .endsWith("part of these bytes may be a pool, not holes: a lead, not a finding.");
        assertThat(d.evidence()).contains("4. Graph pools: the message prints no private-pool clause: none on 2.4 and"
                + " later, which print it only when a pool holds memory; 2.2 and 2.3 never print it (see rung 1).");
        assertThat(decision(d)).endsWith(" Its bytes may include a CUDA graph's private pool (see its line): check the"
                + " release and the run's graphs before acting on it.");
    }

    @Test
    @DisplayName("torch.OutOfMemoryError, or a warning only 2.4+ prints: the missing clause means no pool, and no lead")
    void since24() {
        String[] pastes = {
            "torch.OutOfMemoryError: " + BODY,
            "train.py:12: FutureWarning: `torch.cuda.amp.autocast(args...)` is deprecated. Please use"
                    + " `torch.amp.autocast('cuda', args...)` instead.\n  with autocast():\nOutOfMemoryError: " + BODY,
            "OutOfMemoryError: " + BODY + "[rank0]:[W1205 10:00:00.000000000 ProcessGroupNCCL.cpp:1524] Warning: WARNING:"
                    + " destroy_process_group() was not called before\nprogram exit, which can leak resources.\n"};
        for (String paste : pastes) {
            Diagnosis d = Triage.of(paste);
            assertThat(d.reading().has(Clue.SINCE_2_4)).as(paste).isTrue();
            assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
            assertThat(rung(d, "1. Fragmentation: ")).as(paste).doesNotContain("private pool");
            assertThat(d.evidence()).contains("4. Graph pools: no memory cached in private pools.");
            assertThat(decision(d)).doesNotContain("private pool");
        }
    }

    @Test
    @DisplayName("torch.cuda.OutOfMemoryError with 2.2's words: older than 2.4, no pool figure, and the pool may be in the holes")
    void before24() {
        Diagnosis d = Triage.of("torch.cuda.OutOfMemoryError: " + BODY);
        assertThat(d.reading().has(Figure.PRIVATE_POOLS)).as(d.text()).isFalse();
        assertThat(d.cause()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(rung(d, "1. Fragmentation: ")).contains(" This message is older than 2.4, which counted a CUDA graph's"
                + " private pool among these unallocated bytes (pytorch/pytorch#121932)").endsWith("a lead, not a finding.");
        assertThat(d.evidence()).contains("4. Graph pools: cannot check, this format has no private-pool figure.");
        assertThat(decision(d)).contains("Its bytes may include a CUDA graph's private pool");
        String json = d.json();
        assertThat(json).contains("\"privatePools\":null");
    }

    @Test
    @DisplayName("where fragmentation is not blamed, a hidden pool could only shrink it: no sentence")
    void onlyWhereTheVerdictDependsOnIt() {
        // 100 MiB unallocated of 10.24 GiB reserved is under the kit's 3% line: ordinary slack either way
        Diagnosis d = Triage.of(BODY.replace("771.43 MiB is reserved", "100.00 MiB is reserved"));
        assertThat(d.cause()).as(d.text()).isNotEqualTo(Cause.FRAGMENTATION);
        assertThat(rung(d, "1. Fragmentation: ")).doesNotContain("private pool");
    }
}
