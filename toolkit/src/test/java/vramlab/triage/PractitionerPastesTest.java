package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Real messages, pasted as users pasted them in public threads (each with its address), whose
 * first answer was wrong or misleading to a practitioner acting on it: a cause the text itself
 * rules out, or a fix the release that printed the message does not have. The report's wording
 * is held only where the wrong advice was.
 */
class PractitionerPastesTest {
    /** https://github.com/pytorch/pytorch/issues/16417 (its title): the 0.4-to-1.3 wording. */
    private static final String PYTORCH_16417 = "RuntimeError: CUDA out of memory. Tried to allocate "
            + "12.50 MiB (GPU 0; 10.92 GiB total capacity; 8.57 MiB already allocated; 9.28 GiB free; "
            + "4.68 MiB cached)\n";

    /** https://github.com/pytorch/pytorch/issues/16417 (WangFengtu1996's comment, 2024): 2.x wording. */
    private static final String PYTORCH_16417_2X = "torch.cuda.OutOfMemoryError: CUDA out of memory. "
            + "Tried to allocate 22.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 11.06 MiB is "
            + "free. Including non-PyTorch memory, this process has 23.60 GiB memory in use. Of the "
            + "allocated memory 22.90 GiB is allocated by PyTorch, and 194.87 MiB is reserved by PyTorch "
            + "but unallocated. If reserved but unallocated memory is large try setting "
            + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
            + "documentation for Memory Management  "
            + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

    /** https://github.com/RistoranteRist/FastFlow/issues/4: the 1.4-to-2.0 wording, with its hint. */
    private static final String FASTFLOW_4 = "When I run it, it raises  RuntimeError: CUDA out of memory. "
            + "Tried to allocate 74.00 MiB (GPU 0; 11.91 GiB total capacity; 10.79 GiB already allocated; "
            + "12.94 MiB free; 11.21 GiB reserved in total by PyTorch) If reserved memory is >> allocated "
            + "memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory "
            + "Management and PYTORCH_CUDA_ALLOC_CONF\n";

    /**
     * https://github.com/lkwq007/stablediffusion-infinity/issues/138: quoted, and cut in the last
     * word ("PYTORCH_CUDA_ALLOC_CON"), as pasted.
     */
    private static final String SD_INFINITY_138 = "\"CUDA out of memory. Tried to allocate 1.79 GiB (GPU 0; "
            + "12.00 GiB total capacity; 8.93 GiB already allocated; 0 bytes free; 11.21 GiB reserved in "
            + "total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb "
            + "to avoid fragmentation. See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CON\"\n";

    /**
     * https://github.com/vllm-project/perf-eval/pull/6 (NickLucche's comment, 2026-05-19): a vLLM
     * worker of a data- and expert-parallel run, its log prefix kept.
     */
    private static final String PERF_EVAL_6 = "[vllm] (Worker_DP6_EP6 pid=3853) ERROR 05-18 14:27:49 "
            + "[multiproc_executor.py:962] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
            + "1.75 GiB. GPU 6 has a total capacity of 139.80 GiB of which 1003.31 MiB is free. Process "
            + "2479093 has 138.80 GiB memory in use. Of the allocated memory 136.24 GiB is allocated by "
            + "PyTorch, and 556.66 MiB is reserved by PyTorch but unallocated. If reserved but unallocated "
            + "memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
            + "fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/"
            + "stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)\n";

    @Test
    @DisplayName("a 0.4-to-1.3 message with room on the card: no memory fraction to look for, since"
            + " set_per_process_memory_fraction came in 1.8")
    void noFractionBefore18() {
        Diagnosis d = Triage.of(PYTORCH_16417);
        assertThat(d.reading().family()).isEqualTo(Family.CACHED);
        assertThat(d.finding()).isEqualTo(Finding.ROOM_ON_CARD);
        assertThat(d.fixes()).as(d.text()).noneMatch(f -> f.contains("set_per_process_memory_fraction"))
                .hasSize(Finding.ROOM_ON_CARD.fixes().size() - 1);
        assertThat(d.tellApart()).as(d.text()).startsWith("To confirm it: ")
                .doesNotContain("search the code for set_per_process_memory_fraction")
                .doesNotContain("mem_get_info").contains("memory_cached()");
        assertThat(String.join("\n", d.evidence())).doesNotContain("this format prints one when it is set")
                .contains("came in 1.8");
    }

    @Test
    @DisplayName("a 2.x message with room on the card keeps the fraction's fix and check")
    void fractionAfter18() {
        Diagnosis d = Triage.of(
                "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                        + "total capacty of 4.00 GiB of which 2.80 GiB is free. Of the allocated memory 0 bytes "
                        + "is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.");
        assertThat(d.finding()).isEqualTo(Finding.ROOM_ON_CARD);
        assertThat(d.fixes()).isEqualTo(Finding.ROOM_ON_CARD.fixes());
        assertThat(d.tellApart()).isEqualTo("To confirm it: " + Finding.ROOM_ON_CARD.check());
    }

    @Test
    @DisplayName("a message older than 2.1: the expandable-segments rung and check say they need 2.1"
            + " (2.0 refuses the key), and how 2.0 records a snapshot")
    void expandableSegmentsNeed21() {
        for (String paste : new String[] {FASTFLOW_4, SD_INFINITY_138}) {
            Diagnosis d = Triage.of(paste);
            assertThat(d.reading().family()).isEqualTo(Family.RESERVED_IN_TOTAL);
            assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
            assertThat(d.fixes()).filteredOn(f -> f.contains("expandable_segments:True")).singleElement()
                    .asString().contains(Release.BEFORE_EXPANDABLE).doesNotContain("_snapshot()");
            assertThat(d.tellApart()).as(d.text()).contains("expandable_segments:True")
                    .contains(Release.BEFORE_EXPANDABLE).contains(Release.BEFORE_DUMP_SNAPSHOT);
        }
    }

    @Test
    @DisplayName("a 2.x message keeps the expandable-segments check as it is")
    void expandableSegmentsFrom21() {
        Diagnosis d = Triage.of(PYTORCH_16417_2X);
        assertThat(d.reading().family()).isEqualTo(Family.SENTENCE);
        assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(d.runnerUp()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.tellApart()).isEqualTo("To tell FULL_OR_DRIVER_RESERVE from FRAGMENTATION: "
                + Cause.FRAGMENTATION.check());
    }

    @Test
    @DisplayName("a vLLM worker named by its parallel ranks (Worker_DP6_EP6) is a distributed run:"
            + " 2 GiB outside PyTorch there is NCCL's, not an unknown library's")
    void vllmParallelWorkerIsDistributed() {
        Diagnosis d = Triage.of(PERF_EVAL_6);
        assertThat(d.reading().has(Clue.DISTRIBUTED)).isTrue();
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.NCCL_BUFFERS);
        assertThat(String.join("\n", d.evidence())).doesNotContain("shows no distributed run");
        // the same line as the worker prints it, its prefix first: the name is the source
        Diagnosis tp = Triage.of(PERF_EVAL_6.replace("[vllm] (Worker_DP6_EP6 pid=3853)", "(Worker_TP1 pid=77)"));
        assertThat(tp.reading().source()).isEqualTo("Worker_TP1 pid 77");
        assertThat(tp.cause()).isEqualTo(Cause.NCCL_BUFFERS);
        // a lone worker ("Worker", no ranks) is not
        assertThat(Triage.of(PERF_EVAL_6.replace("[vllm] (Worker_DP6_EP6 pid=3853)", "(Worker pid=77)")).cause())
                .isEqualTo(Cause.OUTSIDE_ALLOCATOR);
    }

    /**
     * vLLM's earlier worker prefixes (vllm/v1/executor/multiproc_executor.py, WorkerProc.__init__;
     * see Clue.DISTRIBUTED): "(VllmWorker rank=N pid=P)" until vllm-project/vllm#21780, as in
     * vllm-project/vllm#15182's paste ("(VllmWorker rank=5 pid=3073)   File ..."), then
     * "(VllmWorker TP1 pid=P)" (vllm-project/vllm#22205's "Before", "(VllmWorker TP1 pid=3996847)").
     * The message under the prefix is perf-eval#6's, its figures unchanged.
     */
    @Test
    @DisplayName("vLLM's earlier worker prefixes: rank=5 or TP1 is a distributed run; rank=0 alone, a lone"
            + " VllmWorker or EngineCore_0 is not (a world of one prints rank 0 too)")
    void vllmRankPrefixes() {
        String oom = PERF_EVAL_6.substring(PERF_EVAL_6.indexOf(" ERROR "));
        for (String prefix : new String[] {"(VllmWorker rank=5 pid=3073)", "(VllmWorker TP1 pid=3996847)",
                "(VllmWorker PP1_TP0 pid=12)", "\u001B[1;36m(VllmWorker rank=1 pid=219)\u001B[0;0m"}) {
            Diagnosis d = Triage.of(prefix + oom);
            assertThat(d.reading().has(Clue.DISTRIBUTED)).as(prefix).isTrue();
            assertThat(d.cause()).as(d.text()).isEqualTo(Cause.NCCL_BUFFERS);
        }
        assertThat(Triage.of("(VllmWorker rank=5 pid=3073)" + oom).reading().source())
                .isEqualTo("VllmWorker rank=5 pid 3073");
        for (String prefix : new String[] {"(VllmWorker rank=0 pid=3013)", "(VllmWorker pid=3013)",
                "(EngineCore_0 pid=1271000)"}) {
            Diagnosis d = Triage.of(prefix + oom);
            assertThat(d.reading().has(Clue.DISTRIBUTED)).as(prefix).isFalse();
            assertThat(d.cause()).as(d.text()).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
        }
        // rank 0's lines beside rank 1's: the paste shows the second worker
        Diagnosis both = Triage.of("(VllmWorker rank=0 pid=3013)" + oom + "(VllmWorker rank=1 pid=3024) INFO 03-20 "
                + "03:14:59 [parallel_state.py:967] rank 1 in world size 2\n");
        assertThat(both.reading().has(Clue.DISTRIBUTED)).isTrue();
    }

    /**
     * https://github.com/simplescaling/s1/issues/61 (its description, 2025-02-16): rank 2 of a
     * two-node torchrun, its line prefixed by init_process_group's excepthook (see
     * Clue.DISTRIBUTED), 1.89 GiB outside PyTorch.
     */
    private static final String S1_61 = "[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
            + "76.00 MiB. GPU 2 has a total capacity of 79.10 GiB of which 67.88 MiB is free. Including non-PyTorch "
            + "memory, this process has 79.02 GiB memory in use. Of the allocated memory 76.77 GiB is allocated by "
            + "PyTorch, and 372.49 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is "
            + "large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
            + "documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

    /**
     * PyTorch prefixes a traceback with [rankN]: in every process that called
     * init_process_group, a world of one included; only N of 1 and up proves a second process.
     * Rank 2 is s1#61 as pasted; rank 0 is the same message under rank 0's prefix (its figures
     * unchanged), and the triage corpus's 015-cobra.txt (OpenHelix-Team/cobra#24) is a real
     * [rank0]: paste.
     */
    @Test
    @DisplayName("PyTorch's [rank2]: is a distributed run; [rank0]: alone is not, and the report says rank 0"
            + " cannot tell one GPU from several instead of 'no distributed run'")
    void torchRankPrefixes() throws Exception {
        Diagnosis two = Triage.of(S1_61);
        assertThat(two.reading().has(Clue.DISTRIBUTED)).isTrue();
        assertThat(two.cause()).as(two.text()).isEqualTo(Cause.NCCL_BUFFERS);

        Diagnosis zero = Triage.of(S1_61.replace("[rank2]:", "[rank0]:"));
        assertThat(zero.reading().has(Clue.DISTRIBUTED)).as(zero.text()).isFalse();
        assertThat(zero.reading().has(Clue.RANK_ZERO)).isTrue();
        assertThat(zero.cause()).as(zero.text()).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
        assertThat(zero.evidence()).anySatisfy(e -> assertThat(e).startsWith("3. Outside PyTorch: ")
                .endsWith("; the paste shows rank 0 alone, which a run of one process prints too: it cannot tell"
                        + " one GPU from several, so not NCCL by default: a library's own cudaMalloc, cuBLAS or cuDNN"
                        + " workspaces outside PyTorch's cache, NCCL if other ranks share the run, or a larger context."));
        assertThat(zero.text()).doesNotContain("shows no distributed run");
        // with no rank at all the sentence stays as it was
        assertThat(Triage.of(S1_61.replace("[rank2]: ", "")).evidence())
                .anySatisfy(e -> assertThat(e).contains("; the paste shows no distributed run, so not NCCL by default"));

        String cobra = new String(getClass().getResourceAsStream("/triage-corpus/015-cobra.txt").readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        Diagnosis c = Triage.of(cobra);
        assertThat(c.reading().source()).isEqualTo("rank 0");
        assertThat(c.reading().has(Clue.DISTRIBUTED)).isFalse();
        assertThat(c.evidence()).anySatisfy(e -> assertThat(e).startsWith("3. Outside PyTorch: "));

        // rank 0 beside rank 1: the paste shows the second process
        assertThat(Triage.of(S1_61.replace("[rank2]:", "[rank0]:") + "[rank1]: Traceback (most recent call last):\n")
                .reading().has(Clue.DISTRIBUTED)).isTrue();
    }

    /**
     * torchrun's own prefix under --tee, [{role}{local_rank}]: with role "default"
     * (torch/distributed/elastic/multiprocessing/tail_log.py, TailLog.start): local rank 1 is
     * a second worker on the node, local rank 0 may be the only one.
     */
    @Test
    @DisplayName("torchrun's --tee prefix: [default1]: is a distributed run, [default0]: alone is not")
    void torchrunTeePrefixes() {
        Diagnosis one = Triage.of(S1_61.replace("[rank2]:", "[default1]:"));
        assertThat(one.reading().source()).isEqualTo("local rank 1");
        assertThat(one.cause()).as(one.text()).isEqualTo(Cause.NCCL_BUFFERS);
        Diagnosis zero = Triage.of(S1_61.replace("[rank2]:", "[default0]:"));
        assertThat(zero.reading().has(Clue.RANK_ZERO)).isTrue();
        assertThat(zero.cause()).as(zero.text()).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
    }

    /**
     * vLLM adds _DP{rank} only when the data-parallel group is larger than one
     * (multiproc_executor.py, WorkerProc.setup_proc_title_and_log_prefix), so a lone Worker_DP0
     * proves another engine as much as Worker_DP1; vLLM's "VllmWorker rank=0" gets rank 0's
     * sentence. The message under the prefix is perf-eval#6's, its figures unchanged.
     */
    @Test
    @DisplayName("vLLM: a lone Worker_DP0 is a distributed run (the suffix needs a DP group above one);"
            + " VllmWorker rank=0 alone gets rank 0's sentence")
    void vllmDataParallelAndRankZero() {
        String oom = PERF_EVAL_6.substring(PERF_EVAL_6.indexOf(" ERROR "));
        for (String prefix : new String[] {"(Worker_DP0 pid=3853)", "(Worker_DP1 pid=3854)"}) {
            Diagnosis d = Triage.of(prefix + oom);
            assertThat(d.reading().has(Clue.DISTRIBUTED)).as(prefix).isTrue();
            assertThat(d.cause()).as(d.text()).isEqualTo(Cause.NCCL_BUFFERS);
        }
        Diagnosis zero = Triage.of("(VllmWorker rank=0 pid=3013)" + oom);
        assertThat(zero.cause()).as(zero.text()).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
        assertThat(zero.evidence()).anySatisfy(e -> assertThat(e).contains("the paste shows rank 0 alone"));
    }

    @Test
    @DisplayName("1.4 to 2.0 print reserved and allocated, not their difference: 11.21 GiB - 10.79 GiB is"
            + " 0.42 GiB give or take 0.01 GiB, said so, not 430.08 MiB as if printed")
    void unallocatedAsPreciseAsItsFigures() {
        Diagnosis d = Triage.of(FASTFLOW_4);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("1. Fragmentation: 0.42 GiB ± 0.01 GiB is"
                + " reserved by PyTorch but unallocated (3.66% to 3.84% of the 11.21 GiB it reserved)."));
        assertThat(d.text()).contains("FRAGMENTATION          100%  0.42 GiB ± 0.01 GiB").doesNotContain("430.08 MiB");
    }

    /**
     * The kit's line for holes is 3% of what PyTorch reserved. "19.82 GiB reserved, 19.23 GiB
     * allocated" is 2.93% to 3.03%, "... 19.22 GiB allocated" 2.98% to 3.08%: one hundredth of a
     * GiB apart, within the messages' own rounding, they must not get opposite answers (they did:
     * a full card, then fragmentation), and neither may assert its answer. The message's shape is
     * RPL_14's; its figures are the kit's own.
     */
    @Test
    @DisplayName("a share on the kit's 3% line within the rounding is kept as a lead and said to be one: one"
            + " hundredth of a GiB does not flip the answer")
    void lineWithinRounding() {
        String at = "RuntimeError: CUDA out of memory. Tried to allocate 200.00 MiB (GPU 0; 20.00 GiB total capacity; "
                + "19.23 GiB already allocated; 30.00 MiB free; 19.82 GiB reserved in total by PyTorch)\n";
        for (String paste : new String[] {at, at.replace("19.23 GiB already", "19.22 GiB already")}) {
            Diagnosis d = Triage.of(paste);
            assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
            assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("1. Fragmentation: 0.")
                    .endsWith(" The message's figures are rounded to two decimals, and within that rounding the bytes"
                            + " may be under the kit's line of 3% of reserved: a lead, not a finding."));
            assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("Decision: FRAGMENTATION")
                    .endsWith(" Its rung is within the rounding of the message's figures: check it before acting on it."));
        }
        // well under the line, past the rounding, it stays ordinary slack
        assertThat(Triage.of(at.replace("19.23 GiB already", "19.40 GiB already")).cause())
                .isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
    }

    /** https://github.com/yyliu01/RPL/issues/14: a 5.70 GiB card, 1.80 GiB neither free nor PyTorch's. */
    private static final String RPL_14 = "RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; "
            + "5.70 GiB total capacity; 2.97 GiB already allocated; 340.50 MiB free; 3.57 GiB reserved in total "
            + "by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
            + "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n";

    @Test
    @DisplayName("memory beyond the context's ceiling: what is certainly another's is what lies past the"
            + " ceiling, not past a typical context (which the sentence named 'about' after 'up to')")
    void othersPastTheCeiling() {
        Diagnosis d = Triage.of(RPL_14);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.OTHER_PROCESSES);
        assertThat(d.runnerUp()).isEqualTo(Cause.FRAGMENTATION);
        // the gap is 5.70 GiB - 340.50 MiB - 3.57 GiB, each rounded to two decimals: 1.80 GiB give or take
        // 0.01 GiB, so what lies past the ceiling for certain is its least value's excess, 60.90 MiB
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("2. Other processes: 1.80 GiB ± 0.01 GiB"
                + " of the card is neither free nor PyTorch's; a context, the libraries and a desktop take up to 1.73"
                + " GiB on this card, so at least 60.90 MiB belongs to someone else (about 1.24 GiB ± 0.01 GiB beside"
                + " a typical context of 570.37 MiB)."));
    }

    /** https://github.com/Tianhao-Qi/Mask2DiT/issues/4: a 2.x message, 40.69 GiB of holes. */
    private static final String MASK2DIT_4 = "CUDA out of memory. Tried to allocate 35.60 GiB. GPU 0 has a total "
            + "capacity of 79.33 GiB of which 26.16 GiB is free. Process 76883 has 53.16 GiB memory in use. Of the "
            + "allocated memory 11.97 GiB is allocated by PyTorch, and 40.69 GiB is reserved by PyTorch but "
            + "unallocated. If reserved but unallocated memory is large try setting "
            + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
            + "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

    @Test
    @DisplayName("the expandable-segments rung keeps PYTORCH_CUDA_ALLOC_CONF: 2.9.1 ignores the setting under"
            + " the newer PYTORCH_ALLOC_CONF (pytorch/pytorch#183387), which the rung offered as equal")
    void olderNameForExpandableSegments() {
        Diagnosis d = Triage.of(MASK2DIT_4);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.fixes()).filteredOn(f -> f.contains("expandable_segments:True")).singleElement().asString()
                .contains("keep this name, which every release reads: 2.9.1 ignores the setting under the newer"
                        + " PYTORCH_ALLOC_CONF on CUDA, pytorch/pytorch#183387")
                .doesNotContain("also read PYTORCH_ALLOC_CONF");
    }

    /**
     * https://github.com/ray-project/ray/issues/47509: Ray's log table, the message cut after the
     * request ("Tried to allocate 3.39 GiB. GPU").
     */
    private static final String RAY_47509 = """
            2024-09-04, 11:21:35.374 | worker | RuntimeError: The following operation failed in the TorchScript interpreter.
            -- | -- | --
            U | 2024-09-04, 11:21:35.374 | worker | Traceback of TorchScript (most recent call last):
            U | 2024-09-04, 11:21:35.374 | worker | RuntimeError: CUDA out of memory. Tried to allocate 3.39 GiB. GPU
            """;

    @Test
    @DisplayName("the request alone, nothing to weigh it against: CANNOT_TELL, not 'the card is full'")
    void requestAloneCannotTell() {
        Diagnosis d = Triage.of(RAY_47509);
        assertThat(d.reading().get(Figure.REQUESTED)).isEqualTo(3639984783L);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.CANNOT_TELL);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("Only the request (3.39 GiB) in this text,"
                + " nothing to weigh it against"));
    }
}
