package vramlab.snapshot;

/**
 * The Python calls that record a memory snapshot's history and save it, by the release that
 * writes the snapshot: one place, read by {@code triage} (a message in PyTorch 2.0's wording or
 * older, and the recipe under a snapshot in 2.0's layout) and {@code advise} (a snapshot in 2.0's
 * layout, {@link Snapshot#writtenBy2_0()}), so both name the same call.
 *
 * <p>From PyTorch's torch/cuda/memory.py:
 * <ul>
 *   <li>2.1 and later: {@code _record_memory_history(enabled="all", *args, **kwargs)} takes
 *       {@code max_entries} ({@code _record_memory_history_impl}, {@code max_entries: int =
 *       sys.maxsize}), and {@code _dump_snapshot(filename)} is {@code pickle.dump(_snapshot(), f)}
 *       ("Understanding CUDA Memory Usage", a page the docs gained in August 2023, for 2.1);</li>
 *   <li>2.0: the history is recorded with a boolean first argument and
 *       {@code trace_alloc_max_entries} (default 1), and the dict that {@code _snapshot()}
 *       ({@code _C._cuda_memorySnapshot()}) returns is pickled by hand ({@code _dump_snapshot}
 *       is named by 2.1's page above, not relied on for 2.0). 2.1 keeps that call as {@code _record_memory_history_legacy(enabled: bool,
 *       record_context=True, trace_alloc_max_entries=1, trace_alloc_record_context=False,
 *       device=None, record_context_cpp=False)}, which {@code _record_memory_history} reaches when
 *       {@code isinstance(enabled, bool)} (read in a 2.1-era copy of upstream's file,
 *       ShaoxunZeng/PyTorch-Medusa@de68b8092d45, torch/cuda/memory.py), and pytorch/pytorch@00b65a04a2d3
 *       still has it (with more keywords), so the 2.0 call also runs on every later release. The v2.0.0 tag's
 *       torch/cuda/memory.py itself could not be read where this was written (the stored
 *       pytorch/pytorch is 4 GB, over what could be fetched, and its index holds only
 *       later copies): what is said of 2.0 rests on 2.1's legacy path, kept for 2.0's
 *       callers, and on 2.0-era code that records and saves exactly so (Megatron-LM's
 *       {@code model_provider}: {@code _record_memory_history(True, trace_alloc_max_entries=100000,
 *       trace_alloc_record_context=True)}, then {@code dump(torch.cuda.memory._snapshot(), ...)}
 *       from an OOM observer).</li>
 * </ul>
 */
public final class RecordingCalls {
    private RecordingCalls() {}

    /** 2.1 and later: records the history, keeping the last {@code n} trace entries. */
    public static String record(String n) {
        return "torch.cuda.memory._record_memory_history(max_entries=" + n + ")";
    }

    /** PyTorch 2.0: records the history, keeping the last {@code n} trace entries. */
    public static String record2_0(String n) {
        return "torch.cuda.memory._record_memory_history(True, trace_alloc_max_entries=" + n + ")";
    }

    /**
     * What 2.0 makes of the one setting advice may name that it lacks: {@code expandable_segments}
     * came with 2.1 (pytorch/pytorch#100184, April 2023, after 2.0 shipped in March), and 2.0's
     * {@code CachingAllocatorConfig::parseArgs} (c10/cuda/CUDACachingAllocator.cpp) refuses a key
     * it does not know with {@code TORCH_CHECK(false, "Unrecognized CachingAllocator option: ", ...)}.
     * Read by {@code triage} (a message in 2.0's wording) and {@code advise} (a snapshot in 2.0's layout).
     */
    public static final String EXPANDABLE_SINCE_2_1 = "expandable_segments came in 2.1 (2.0 stops at its first"
            + " CUDA allocation with 'Unrecognized CachingAllocator option: expandable_segments')";

    /** PyTorch 2.0: saves the snapshot into the open binary file {@code f} (2.0 has no _dump_snapshot). */
    public static final String SAVE_2_0 = "pickle.dump(torch.cuda.memory._snapshot(), f)";
}
