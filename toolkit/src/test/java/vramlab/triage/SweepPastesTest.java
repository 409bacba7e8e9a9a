package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Real messages from public issues whose triage claimed more than the message proves, each
 * quoted as far as the rule needs.
 */
class SweepPastesTest {
    /**
     * https://github.com/HKUST-SAIL/CraftsMan3D/issues/58 (its description, 2025-05-11): trained
     * with {@code --gpu 0}, one GPU; rank 0's traceback and ProcessGroupNCCL's 2.4/2.5 destructor
     * warning, which rank 0 of any run prints.
     */
    private static final String CRAFTSMAN3D_58 = "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to "
            + "allocate 8.87 GiB. GPU 0 has a total capacity of 23.62 GiB of which 898.31 MiB is free. Including "
            + "non-PyTorch memory, this process has 22.19 GiB memory in use. Of the allocated memory 21.07 GiB is "
            + "allocated by PyTorch, and 591.79 MiB is reserved by PyTorch but unallocated.\n"
            + "[rank0]:[W511 01:01:52.959205210 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT "
            + "been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call "
            + "destroy_process_group to ensure that any pending NCCL operations have finished in this process.\n";

    /**
     * https://github.com/OpenBMB/MiniCPM-V/issues/504 (its description, 2024-08-22): vLLM's demo
     * "with GPU 0", rank 0 and the same warning; another process holds 4.37 GiB.
     */
    private static final String MINICPM_V_504 = "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to "
            + "allocate 2.00 GiB. GPU 0 has a total capacity of 23.55 GiB of which 1.87 GiB is free. Process 1809110 "
            + "has 4.37 GiB memory in use. Including non-PyTorch memory, this process has 17.29 GiB memory in use. Of "
            + "the allocated memory 16.75 GiB is allocated by PyTorch, and 95.97 MiB is reserved by PyTorch but "
            + "unallocated.\n"
            + "[rank0]:[W822 09:49:35.946254597 ProcessGroupNCCL.cpp:1168] Warning: WARNING: process group has NOT "
            + "been destroyed before we destruct ProcessGroupNCCL.\n";

    @Test
    @DisplayName("one GPU's rank 0 with ProcessGroupNCCL's warning is no distributed run (CraftsMan3D#58, MiniCPM-V#504)")
    void singleGpuWarnings() {
        Diagnosis c = Triage.of(CRAFTSMAN3D_58);
        assertThat(c.reading().has(Clue.DISTRIBUTED)).as(c.text()).isFalse();
        assertThat(c.reading().has(Clue.DISTRIBUTED_MENTION)).isTrue();
        assertThat(c.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(c.evidence()).anySatisfy(e -> assertThat(e).startsWith("3. Outside PyTorch: "));
        Diagnosis m = Triage.of(MINICPM_V_504);
        assertThat(m.reading().has(Clue.DISTRIBUTED)).as(m.text()).isFalse();
        assertThat(m.cause()).isEqualTo(Cause.OTHER_PROCESSES);
    }

    /**
     * https://github.com/wxian3/NeuroLens/issues/2 (its description, 2024-01-14): 2.1's wording
     * ("capacty", the max_split_size_mb hint), which never printed the private-pool clause.
     */
    private static final String NEUROLENS_2 = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate "
            + "55.57 GiB. GPU 0 has a total capacty of 12.00 GiB of which 9.02 GiB is free. Of the allocated memory "
            + "984.52 MiB is allocated by PyTorch, and 463.48 MiB is reserved by PyTorch but unallocated. If reserved "
            + "but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See "
            + "documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF";

    @Test
    @DisplayName("2.1 to 2.3 have no private-pool figure (absent, not 0); 2.4's leaves the clause out only at 0")
    void privatePoolsBefore24() {
        Diagnosis d = Triage.of(NEUROLENS_2);
        assertThat(d.reading().has(Figure.PRIVATE_POOLS)).as(d.text()).isFalse();
        assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        // 2.2 and 2.3 word it as 2.4 does; the exception's name, torch.cuda.OutOfMemoryError until 2.4, dates it
        String twoThree = NEUROLENS_2.replace("capacty", "capacity").replace("setting max_split_size_mb",
                "setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
        assertThat(Triage.of(twoThree).reading().has(Figure.PRIVATE_POOLS)).isFalse();
        String newer = twoThree.replace("torch.cuda.OutOfMemoryError", "torch.OutOfMemoryError");
        assertThat(Triage.of(newer).reading().get(Figure.PRIVATE_POOLS)).isZero();
        Diagnosis near = Triage.of(NEUROLENS_2.replace("55.57 GiB", "9.50 GiB"));
        assertThat(near.evidence()).contains("4. Graph pools: cannot check, this format has no private-pool figure.");
    }
}
