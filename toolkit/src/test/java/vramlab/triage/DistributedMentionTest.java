package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Words of torch.distributed or NCCL are printed by a world of one too (Clue.DISTRIBUTED_MENTION):
 * they make NCCL a lead, not a finding. Only a line that names a second rank or a world size
 * above one (Clue.DISTRIBUTED) puts non-PyTorch memory on NCCL's buffers.
 */
class DistributedMentionTest {
    /**
     * https://github.com/simplescaling/s1/issues/61's figures (1.89 GiB outside PyTorch), here
     * without its [rank2]: prefix, so that only the lines added show the run's size.
     */
    private static final String OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
            + "76.00 MiB. GPU 2 has a total capacity of 79.10 GiB of which 67.88 MiB is free. Including non-PyTorch "
            + "memory, this process has 79.02 GiB memory in use. Of the allocated memory 76.77 GiB is allocated by "
            + "PyTorch, and 372.49 MiB is reserved by PyTorch but unallocated.\n";

    /** ProcessGroupNCCL's destructor warning, as PyTorch 2.6 and later print it on rank 0 of each node. */
    private static final String WARNING = "[W1205 10:00:00.000000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: "
            + "destroy_process_group() was not called before program exit, which can leak resources. For more info, "
            + "please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        WARNING,
        "  File \"/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/fully_sharded_data_parallel.py\","
            + " line 863, in forward\n",
        "    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[0])\n",
        "[PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL initialization options: size: 1, global rank: 0\n",
        "node1:3063:3063 [0] NCCL INFO comm 0x55d4e0 rank 0 nranks 1 cudaDev 0 nvmlDev 0 busId 18000 commId"
            + " 0x1f - Init COMPLETE\n",
        "Namespace(batch_size=8, world_size=1)\n"})
    @DisplayName("a mention alone (a world of one prints it): OUTSIDE_ALLOCATOR, NCCL named as a lead, not a finding")
    void mentionIsALead(String words) {
        Diagnosis d = Triage.of(words + OOM);
        assertThat(d.reading().has(Clue.DISTRIBUTED)).as(d.text()).isFalse();
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("3. Outside PyTorch: ")
                .contains("so not NCCL by default"));
        if (d.reading().has(Clue.DISTRIBUTED_MENTION)) {
            assertThat(d.evidence()).anySatisfy(e -> assertThat(e).contains("the paste mentions torch.distributed or"
                    + " NCCL but shows no second rank").endsWith("(the mention is a lead, not a finding), or a larger context."));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "[rank1]:" + WARNING,
        "[PG ID 0 PG GUID 0(default_pg) Rank 3] ProcessGroupNCCL initialization options: size: 8, global rank: 3\n",
        "[PG ID 1 PG GUID 1 Rank 2] Watchdog caught collective operation timeout\n",
        "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE)\n",
        "node1:3063:3063 [0] NCCL INFO comm 0x55d4e0 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId"
            + " 0x1f - Init START\n",
        "node1:3063:3063 [0] NCCL INFO comm 0x55d4e0 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0\n",
        "[3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store\n",
        "Namespace(batch_size=8, world_size=4)\n",
        "INFO 03-20 03:14:59 [parallel_state.py:967] rank 1 in world size 2 is assigned as DP rank 0\n"})
    @DisplayName("a second rank or a world above one, as PyTorch, NCCL or vLLM print them: NCCL_BUFFERS")
    void secondRankIsAFinding(String line) {
        Diagnosis d = Triage.of(line + OOM);
        assertThat(d.reading().has(Clue.DISTRIBUTED)).as(d.text()).isTrue();
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.NCCL_BUFFERS);
        assertThat(String.join("\n", d.evidence())).doesNotContain("a lead, not a finding");
    }

    @Test
    @DisplayName("rank 0's own prefix on the warning keeps rank 0's sentence, not the mention's")
    void rankZeroWarning() {
        Diagnosis d = Triage.of("[rank0]: " + OOM + "[rank0]:" + WARNING);
        assertThat(d.reading().has(Clue.RANK_ZERO)).isTrue();
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).contains("the paste shows rank 0 alone"));
    }

    @Test
    @DisplayName("a raw CUDA error beside NCCL's words is no figure and no second rank: CANNOT_TELL, NCCL a lead")
    void rawErrorWithMention() {
        Diagnosis d = Triage.of("RuntimeError: CUDA error: out of memory\n"
                + "  File \"/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py\", line 88\n");
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.CANNOT_TELL);
        assertThat(d.evidence()).contains("3. NCCL: a raw CUDA call failed, and the paste mentions torch.distributed or"
                + " NCCL but shows no second rank, which a run of one process prints too: communicator set-up, which"
                + " allocates outside PyTorch's allocator, is a lead, not a finding.");
        assertThat(Triage.of("[rank1]: RuntimeError: CUDA error: out of memory\n").cause()).isEqualTo(Cause.NCCL_BUFFERS);
    }

    @Test
    @DisplayName("without a process list, a large gap under DDP's words is a co-tenant's, NCCL's buffers a lead")
    void gapWithMention() {
        String ddp = "    model = DistributedDataParallel(model, device_ids=[local_rank])\n"
                + "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 2; 31.75 GiB total capacity; "
                + "27.01 GiB already allocated; 210.06 MiB free; 27.40 GiB reserved in total by PyTorch)\n";
        Diagnosis d = Triage.of(ddp);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.OTHER_PROCESSES);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("2. Other processes: ").endsWith(
                " The paste mentions torch.distributed or NCCL but shows no second rank: NCCL's buffers in this process"
                        + " are a lead, not a finding."));
        assertThat(Triage.of("[rank1]: " + ddp).cause()).isEqualTo(Cause.NCCL_BUFFERS);
    }
}
