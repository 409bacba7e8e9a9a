package vramlab.triage;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Words around a message (traceback frames, log prefixes) that point at a cause the numbers
 * alone cannot name. {@link #GRAPH_CAPTURE} is strong evidence (the failure happened while a
 * CUDA graph was being captured); the others are hints the ladder weighs after the figures.
 */
public enum Clue {
    /**
     * vLLM names a worker process by its parallel ranks, and only when the run is parallel:
     * "Worker" plus _DP, _PP, _PCP, _TP, _DCP for each group larger than one and _EP when
     * experts are parallel (vllm/v1/executor/multiproc_executor.py,
     * WorkerProc.setup_proc_title_and_log_prefix), so "(Worker_DP6_EP6 pid=3853)" is rank 6 of
     * a distributed run; v0 ran its tensor-parallel workers as "VllmWorkerProcess"
     * (vllm/executor/multiproc_worker_utils.py, ProcessWorkerWrapper).
     *
     * <p>Before that name, v1's MultiprocExecutor prefixed a worker's lines two other ways
     * (vllm/v1/executor/multiproc_executor.py, WorkerProc.__init__). From the executor's start
     * until vllm-project/vllm#21780 (July 2025) it was "(VllmWorker rank=N pid=P)", N the rank
     * in {@code range(world_size)} with world_size = tensor x pipeline parallel: so rank 1 and
     * up prove a second GPU, but rank 0 does not (nothing in the executor requires a second
     * worker: the mp backend chosen for one GPU runs a world of one), and a paste of rank 0's
     * lines alone is not read as distributed. Then (@00f6c9bf) "(VllmWorker TP1 pid=P)", "PP0_TP1": the suffix printed only
     * when tensor or pipeline parallel size is above one (a lone worker is plain "VllmWorker"),
     * until #22205 (August 2025) renamed it Worker_...; the process itself is named
     * "VllmWorker-N" (make_worker_process), the name the engine's "Worker proc VllmWorker-2
     * died" line gives. The engine core's own prefix, "(EngineCore_0 pid=P)", counts data-parallel
     * engines from 0 (vllm/v1/engine/utils.py, CoreEngineProcManager: name=f"EngineCore_{global_index}")
     * and is printed by a one-GPU engine too: it is no clue.
     *
     * <p>A lone data-parallel suffix is a clue: "Worker_DP0" with no other group appears only
     * when the data-parallel group is larger than one ({@code if dp_size > 1: process_name +=
     * f"_DP{dp_rank}"}, the same function), so another engine runs beside it on GPUs of its own
     * (on one node, DP rank r's workers get devices r x world_size up to (r + 1) x world_size:
     * vllm/v1/engine/utils.py, get_device_indices); DP0 proves it as much as DP1.
     *
     * <p>PyTorch's {@code [rankN]:} prefix is not torchrun's: init_process_group installs a
     * sys.excepthook that prefixes every line of an uncaught exception's traceback with
     * {@code f"[rank{get_rank()}]"} plus ": " (torch/distributed/distributed_c10d.py,
     * init_process_group, _distributed_excepthook; pytorch/pytorch#118190, merged January 2024,
     * so from 2.3; read @0034a6dc). N is the global rank, below the world size, so [rank1]: and
     * up prove a second process; [rank0]: is printed by any process that called
     * init_process_group, a world of one included (torchrun --nproc-per-node 1, or world_size=1
     * by hand): see {@link #RANK_ZERO}. torchrun's own prefix, only on streams it tees (--tee,
     * default off), is "[{role}{local_rank}]:" unless TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE
     * replaces it (torch/distributed/elastic/multiprocessing/tail_log.py, TailLog.start, header
     * = f"[{self._name}{local_rank}]:", read @ca70f656), role "default" unless --role is given
     * (torch/distributed/run.py, get_args_parser, read @010929fd): [default1]: is a second
     * worker on the node, [default0]: proves nothing more than [rank0]: (MessageParser reads
     * both from the source's name).
     *
     * <p>Other lines that name a rank above 0 or a world above one: ProcessGroupNCCL's log prefix,
     * "[Rank N] " before 2.3 and "[PG ID i PG GUID g(desc) Rank N] " since (createLogPrefix), N the
     * rank in that group; its ncclUniqueId error "[N] is setting up NCCL communicator and
     * retrieving ncclUniqueId from [0]", which only ranks other than 0 print
     * (broadcastUniqueNCCLID; both torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, read @0007e752
     * and in ROCm/pytorch@01bab558); NCCL's own "comm 0x.. rank 0 nranks 8 cudaDev 0 ... - Init
     * START" and "comm 0x.. rank 0 nRanks 8 nNodes 1 ..." (NVIDIA/nccl src/init.cc, read
     * @00ad458b); and a world size printed above one ("world_size=8", vLLM's "rank 1 in world size
     * 2"). The words alone ("ProcessGroupNCCL", "torch.distributed", FSDP) are only
     * {@link #DISTRIBUTED_MENTION}.
     */
    DISTRIBUTED("a distributed run (a second rank, or a world size above one)",
            "\\[rank0*[1-9]\\d*\\]"
                    + "|(?:\\[|\\) |pg guid \\d+ )rank 0*[1-9]\\d*\\]"
                    + "|\\[0*[1-9]\\d*\\] is setting up nccl communicator"
                    + "|\\bnranks 0*(?:[2-9]|[1-9]\\d+)\\b"
                    + "|\\bworld[_ ]size\\W{0,3}0*(?:[2-9]|[1-9]\\d+)\\b"
                    + "|\\bworker(?:_(?:dp|pp|pcp|tp|dcp|ep)\\d+)+\\b|vllmworkerprocess"
                    + "|\\bvllmworker(?: rank=0*[1-9]\\d*| (?:pp\\d+_)?tp\\d+| pp\\d+|-0*[1-9]\\d*)\\b", null),
    /**
     * Words of torch.distributed or NCCL that any process using them prints, a world of one
     * included: a process group's name, a collective, DDP, FSDP. ProcessGroupNCCL's destructor
     * warns on the first rank of each node, {@code if (rank_ % localDeviceCount_ == 0)
     * TORCH_WARN_ONCE("WARNING: destroy_process_group() was not called before program exit, ...")}
     * (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, ProcessGroupNCCL::~ProcessGroupNCCL, read
     * in AMD's fork ROCm/pytorch@01bab558: the copies of pytorch/pytorch's own file that the kit
     * could read predate the wording; pytorch/pytorch#152407, April 2025, quotes the warning from
     * its main branch; 2.4 and 2.5 worded it "process group has NOT been
     * destroyed before we destruct ProcessGroupNCCL", pytorch/pytorch#126275), so
     * "[rank0]:[W1205 ...] ProcessGroupNCCL.cpp:1250] Warning: ..." is printed by
     * torchrun --nproc-per-node 1 too; FSDP and DDP wrap a single GPU as readily. A mention is
     * a lead the ladder names, not a finding: only {@link #DISTRIBUTED}'s lines show a second rank.
     */
    DISTRIBUTED_MENTION("words of torch.distributed or NCCL, which a run of one process prints too",
            "nccl|torch\\.distributed|processgroup|all_?reduce|all_?gather|reduce_?scatter"
                    + "|\\bddp\\b|fsdp|distributedDataParallel", null),
    /**
     * Rank 0 of a run whose size the paste does not show: PyTorch's [rank0]: (or torchrun's
     * [default0]:) and vLLM's "VllmWorker rank=0", which a run of one process prints too (see
     * {@link #DISTRIBUTED}). It cannot tell one GPU from several; the ladder says so where it
     * would otherwise say the paste shows no distributed run.
     */
    RANK_ZERO("rank 0 of a run of unknown size",
            "\\[rank0+\\]|\\[default0+\\]|\\bvllmworker rank=0+\\b", null),
    /**
     * A line that only PyTorch 2.4 and later print, which settles that a sentence-worded message
     * with no private-pool clause had none in private pools ({@link PoolClause}). The exception's
     * own name: pytorch/pytorch#121702 (merged April 2024, after the 2.3 branch; 2.3.0 shipped that
     * month) renamed it from "torch.cuda.OutOfMemoryError" to "torch.OutOfMemoryError"
     * (torch/csrc/Exceptions.cpp, THPException_init: {@code PyErr_NewExceptionWithDoc(
     * "torch.OutOfMemoryError", ...)} and {@code PyModule_AddObject(module, "OutOfMemoryError", ...)}),
     * so a traceback ends "torch.OutOfMemoryError: CUDA out of memory." and code may name
     * torch.OutOfMemoryError only from then on (the corpus's one message with a pool clause,
     * 010-kaito, prints it). The device-specific autocast calls warn {@code FutureWarning: `torch.cuda.amp.autocast(args...)`
     * is deprecated. Please use `torch.amp.autocast('cuda', args...)` instead.} (likewise
     * {@code custom_fwd} and {@code custom_bwd}: torch/cuda/amp/autocast_mode.py, read
     * @d2d77eb0), added by pytorch/pytorch#126062 (merged May 2024, after 2.3.0 shipped in
     * April; 2.4.0 users report the warning, mit-han-lab/efficientvit#127). ProcessGroupNCCL's
     * exit warning (see {@link #DISTRIBUTED_MENTION}) was worded "... but this warning has only
     * been added since PyTorch 2.4" in 2.4 (pytorch/pytorch#126275 quotes it from a 2.4 nightly)
     * and "destroy_process_group() was not called before program exit" later (pytorch/pytorch#152407,
     * April 2025). The absence of these lines proves nothing: warnings are filtered, and a run
     * may never call the deprecated names.
     */
    SINCE_2_4("a warning only PyTorch 2.4 and later print",
            ("torch\\.outofmemoryerror|torch\\.cuda\\.amp\\.(?:autocast|custom_fwd|custom_bwd)\\(args\\.\\.\\.\\)`? is deprecated"
                    + "|this warning has only been added since pytorch 2\\.4"
                    + "|destroy_process_group\\(\\) was not called before program exit").replace(" ", "\\s+"), null),
    /**
     * The exception's name before 2.4: a traceback's "torch.cuda.OutOfMemoryError: CUDA out of
     * memory." (since pytorch/pytorch#83146, 2022; pytorch/pytorch#121200 quotes it from March
     * 2024's source), renamed in 2.4 (see {@link #SINCE_2_4}). With a sentence-worded message it
     * dates the message to 2.1 to 2.3, which print no private-pool clause ({@link PoolClause}).
     */
    BEFORE_2_4("the exception's name as PyTorch before 2.4 printed it",
            "torch\\.cuda\\.outofmemoryerror:\\s*(?:cuda|hip) out of memory", null),
    CUDNN("a convolution through cuDNN",
            "cudnn|conv[123]d|_conv_forward|convolution|conv_transpose", null),
    CUDA_GRAPHS("CUDA graphs (capture, replay, reduce-overhead)",
            "cuda_?graph|cudagraph|graph\\.replay|torch\\.cuda\\.graph|reduce-overhead"
                    + "|graph_pool_handle|stream capture", null),
    /**
     * A capture under way when memory ran out: a capture frame in the traceback (PyTorch's
     * torch/cuda/graphs.py and cudagraph trees, vLLM's capture_model, SGLang's
     * cuda_graph_runner), or a serving engine's "capturing" log line with no line saying the
     * capture finished.
     */
    GRAPH_CAPTURE("a CUDA-graph capture in progress",
            "torch[/\\\\]cuda[/\\\\]graphs\\.py|capture_(?:begin|end)\\b|with torch\\.cuda\\.graph\\("
                    + "|cudagraph_trees|cuda_graph_runner\\.py|capture_model\\b|capture_one_batch_size"
                    + "|capture cuda graph (?:failed|begin)|capturing (?:the model for )?cuda ?graphs?"
                    + "|capturing cudagraphs|capturing batches|before starting graph capture",
            "graph capturing finished|capture cuda graph end"
                    + "|capturing (?:cuda ?graphs? )?(?:finished|done)");

    private final String description;
    private final Pattern pattern;
    private final Pattern cancel;

    Clue(String description, String regex, String cancelRegex) {
        this.description = description;
        this.pattern = Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
        this.cancel = cancelRegex == null ? null
                : Pattern.compile(cancelRegex, Pattern.CASE_INSENSITIVE);
    }

    public String description() { return description; }

    /** Whether the (unsqueezed) text shows this clue, and nothing in it cancels the clue. */
    public boolean foundIn(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        return pattern.matcher(t).find() && (cancel == null || !cancel.matcher(t).find());
    }
}
