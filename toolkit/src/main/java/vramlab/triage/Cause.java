package vramlab.triage;

import java.util.List;

/**
 * The causes of a real CUDA OOM in the order the 3 a.m. ladder checks them, plus the answer
 * for a message that is not a PyTorch CUDA OOM at all. Each cause carries its fix ladder,
 * cheapest first.
 */
public enum Cause {
    FRAGMENTATION(1, "fragmentation: the cache holds the bytes, but not in one piece", new Fix(
            "Record a snapshot at the failure (torch.cuda.memory._record_memory_history("
                    + "max_entries=100000) at the start, and torch.cuda.memory._dump_snapshot("
                    + "\"oom.pickle\") in an except torch.OutOfMemoryError around the step: a dump "
                    + "placed after the step is never reached) and run ./vramlab advise oom.pickle; "
                    + "or rerun once with "
                    + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: if the OOM goes away, the "
                    + "holes were the cause (if not, they may lie inside pages, which only steady "
                    + "shapes close).", Fix.Sets.EXPANDABLE_SEGMENTS), FixLadder.entries(FixLadder.FRAGMENTATION_FIXES)),
    OTHER_PROCESSES(2, "other processes hold memory on the same GPU",
            "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv next to "
                    + "os.getpid() (inside a container the pids are the host's: match the sizes "
                    + "instead).", List.of(
            "List them: nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv.",
            "Stop the stale one (an old notebook kernel, a cron job), ask its owner, or move to a "
                    + "free GPU with CUDA_VISIBLE_DEVICES.",
            "If the co-tenant is another PyTorch process of yours, torch.cuda.empty_cache() there "
                    + "hands its cached segments back, and "
                    + "torch.cuda.set_per_process_memory_fraction caps it.",
            "Several small clients on one GPU: MPS saves little memory. Since Volta each client "
                    + "keeps its own address space and a context, smaller only \"to a much lesser "
                    + "degree\" (NVIDIA's MPS documentation); it buys throughput, not capacity.")),
    NCCL_BUFFERS(3, "NCCL communicators hold scratch buffers outside the caching allocator",
            "Compare torch.cuda.mem_get_info() with torch.cuda.memory_reserved() before and after "
                    + "init_process_group and the first collective, with NCCL_DEBUG=INFO "
                    + "NCCL_DEBUG_SUBSYS=ALLOC.", List.of(
            "Count the communicators: every process group (new_group, device mesh dimension) "
                    + "has its own, and each keeps its buffers until it is destroyed.",
            "Destroy groups you no longer use with torch.distributed.destroy_process_group(group).",
            "Trade bandwidth for memory: fewer channels (NCCL_MAX_NCHANNELS) or smaller buffers "
                    + "(NCCL_BUFFSIZE, default 4 MiB per channel and peer).",
            "Run once with NCCL_DEBUG=INFO to see the channels and buffers each communicator sets up.",
            "Budget for it: what PyTorch may use is the capacity minus the context and NCCL's "
                    + "scratch.")),
    // Which in-process memory lies outside PyTorch's cache (pytorch/pytorch main, read 2026-12):
    // cuBLAS's workspace comes from the caching allocator (aten/src/ATen/cuda/CublasHandlePool.cpp:
    // allocateCUDABlasWorkspace; its size from CUBLAS_WORKSPACE_CONFIG, getChosenWorkspaceSize),
    // and the comment in setupCUDABlasHandle says that without it cuBLAS (CUDA 12.2+) allocates
    // with cudaMallocAsync outside the cache; cuDNN's convolution workspace also comes from the
    // cache (aten/src/ATen/native/cudnn/Conv_v7.cpp: Workspace, raw_alloc). NCCL allocates with
    // cudaMalloc or, since 2.19, cuMem (NVIDIA/nccl src/include/alloc.h: ncclCudaCalloc, ncclCuMemAlloc), logged
    // under NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=ALLOC.
    OUTSIDE_ALLOCATOR(3, "this process holds memory outside PyTorch's caching allocator",
            "Tell the holders apart one run at a time, comparing nvidia-smi's figure for this "
                    + "process with torch.cuda.memory_reserved(): a process that only calls "
                    + "torch.cuda.init() shows the context alone; NCCL_DEBUG=INFO "
                    + "NCCL_DEBUG_SUBSYS=ALLOC logs NCCL's own allocations in a distributed run; "
                    + "a run without the suspect library (an extension, TensorRT, CuPy, a custom "
                    + "kernel) shows what it holds.", List.of(
            "Measure the context first: nvidia-smi's figure for a process that only calls "
                    + "torch.cuda.init() is the context and the loaded kernels; only what lies "
                    + "beyond it belongs to a library.",
            "NCCL, only in a distributed run: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=ALLOC logs its "
                    + "buffers, and the NCCL rung's fixes apply (fewer communicators, "
                    + "NCCL_BUFFSIZE, NCCL_MAX_NCHANNELS).",
            "cuBLAS and cuDNN: PyTorch hands them workspaces from its own cache, counted in "
                    + "reserved; a library that calls them with its own handles gets workspaces "
                    + "outside it. CUBLAS_WORKSPACE_CONFIG bounds cuBLAS's, and "
                    + "torch.backends.cudnn.benchmark = False keeps cuDNN's choices modest.",
            "Another library's direct cudaMalloc (CuPy, TensorRT, a custom extension): rerun "
                    + "without it, or route it through PyTorch's allocator where the library "
                    + "takes one (c10::cuda::CUDACachingAllocator::raw_alloc from C++).",
            "Budget for it: what PyTorch may use is the capacity minus the context and what the "
                    + "libraries hold.")),
    CUDA_GRAPH_POOLS(4, "CUDA graphs keep their private memory pools reserved",
            "torch.cuda.memory_summary() and a snapshot (segments whose segment_pool_id is not "
                    + "(0, 0) belong to graphs); then rerun once without graphs (vLLM "
                    + "--enforce-eager, SGLang --disable-cuda-graph, torch.compile "
                    + "mode=\"default\").", List.of(
            "Drop the graphs you no longer replay: a private pool is released only when its "
                    + "graph object is gone, then empty_cache() can return it.",
            "Capture graphs that run one after another into one shared pool "
                    + "(torch.cuda.graph(..., pool=torch.cuda.graph_pool_handle())).",
            "With torch.compile(mode=\"reduce-overhead\"), fewer distinct shapes mean fewer "
                    + "graphs; mode=\"default\" captures none.",
            "Capture with smaller static shapes (the pool holds every intermediate of the "
                    + "capture).",
            "In a serving engine, leave room for the capture: lower vLLM's "
                    + "--gpu-memory-utilization or SGLang's --mem-fraction-static, capture fewer "
                    + "batch sizes (--max-num-seqs, --cuda-graph-max-bs), or run eagerly "
                    + "(--enforce-eager, --disable-cuda-graph).")),
    CUDNN_WORKSPACE(5, "a cuDNN algorithm's workspace spiked at the edge",
            "Rerun once with torch.backends.cudnn.benchmark = False, then once with "
                    + "torch.backends.cudnn.enabled = False: if the failure moves or goes away, the "
                    + "workspace was the cause.", List.of(
            "Set torch.backends.cudnn.benchmark = False: benchmarking may pick an algorithm "
                    + "with a workspace of hundreds of MiB.",
            "Leave headroom at the convolution for the chosen algorithm's workspace, not only "
                    + "for the tensors.",
            "Lower the batch size at the convolution, or checkpoint the activations around it.")),
    FULL_OR_DRIVER_RESERVE(6, "the card is full: tensors, context and the driver's reserve",
            "torch.cuda.max_memory_allocated() after one step at two batch sizes: if the peak "
                    + "grows with the batch and nears the card, the tensors themselves are the "
                    + "cause.", List.of(
            "Budget from the real total: the capacity in the message is what cudaMemGetInfo "
                    + "reports, already short of the card's nominal size by the driver's reserve, "
                    + "and the context takes hundreds of MiB of it before the first tensor.",
            "Lower the batch size, or keep it and accumulate gradients over micro-batches.",
            "Checkpoint activations, train in bf16/fp16, use a smaller optimizer state "
                    + "(8-bit, or sharded with FSDP/ZeRO).",
            "Use a GPU with more memory, or shard the model over several.")),
    CANNOT_TELL(0, "cannot tell from this text: it carries no figure that supports a cause",
            "Collect the failure's own figures: the full message PyTorch printed (its sentences give"
                    + " the request, free, reserved and allocated bytes), or a snapshot dumped at the"
                    + " failure.", List.of(
            "Paste the whole error, not its last line: PyTorch's OutOfMemoryError text carries the"
                    + " figures the ladder needs (then run this triage again).",
            "Record a snapshot at the failure: torch.cuda.memory._record_memory_history(max_entries="
                    + "100000) at start, and torch._C._cuda_attach_out_of_memory_observer(lambda device,"
                    + " alloc, device_alloc, device_free: torch.cuda.memory._dump_snapshot(\"oom.pickle\"))"
                    + " (or _dump_snapshot in an except torch.OutOfMemoryError around the step); then"
                    + " ./vramlab triage oom.pickle.",
            "At the failure, note nvidia-smi's per-process memory and torch.cuda.memory_reserved():"
                    + " the gap between them is memory outside PyTorch's allocator.")),
    NOT_PYTORCH_OOM(0, "not a PyTorch CUDA out-of-memory error",
            "", List.of(
            "This triage reads PyTorch CUDA caching-allocator messages only; look up the memory "
                    + "settings of the framework or library that printed this one."));

    private final int step;
    private final String title;
    private final Fix check;
    private final List<Fix> fixes;

    /** A cause whose check and fixes change no allocator setting. */
    Cause(int step, String title, String check, List<String> fixes) {
        this(step, title, Fix.plain(check), Fix.plain(fixes));
    }

    Cause(int step, String title, Fix check, List<Fix> fixes) {
        this.step = step;
        this.title = title;
        this.check = check;
        this.fixes = List.copyOf(fixes);
    }

    /** The step of the ladder (1 to 6); 0 for {@link #CANNOT_TELL} and {@link #NOT_PYTORCH_OOM}. */
    public int step() { return step; }

    public String title() { return title; }

    /** The command or experiment that confirms this cause or rules it out. */
    public String check() { return check.text(); }

    /** {@link #check()} with the allocator setting it changes. */
    public Fix checkEntry() { return check; }

    /** The fix ladder, cheapest first. */
    public List<String> fixes() { return Fix.texts(fixes); }

    /** The fix ladder, each entry with the allocator setting it changes. */
    public List<Fix> fixEntries() { return fixes; }
}
