package vramlab.alloc;

import static vramlab.units.Bytes.formatSize;

import java.util.List;

/**
 * The text of PyTorch 2.x's CUDA out-of-memory error, built as
 * {@code c10/cuda/CUDACachingAllocator.cpp} builds it (2024 main, lines 1258-1377; the
 * process lines from NVML at 984-1039). Double spaces are the source's own.
 *
 * <pre>
 * CUDA out of memory. Tried to allocate &lt;segment&gt;. GPU &lt;d&gt; has a total capacity of &lt;total&gt;
 * of which &lt;free&gt; is free. &lt;process lines&gt;&lt;allowed&gt;Of the allocated memory &lt;allocated&gt; is
 * allocated by PyTorch, &lt;private pools&gt;and &lt;reserved - allocated&gt; is reserved by PyTorch but
 * unallocated. If reserved ... expandable_segments:True to avoid fragmentation.  See ...
 * </pre>
 * "Tried to allocate" is the would-be segment size, not the request; "allocated by PyTorch"
 * includes the private pools' cached bytes, which are subtracted from the unallocated figure.
 * Sizes print through {@code format_size}, whose ties round to even ({@link
 * vramlab.units.Bytes#formatSize}).
 *
 * <p>Version note: the hint's variable is the release's ({@link PyTorchRelease#hintVariable}):
 * {@code PYTORCH_CUDA_ALLOC_CONF} up to 2.9, {@code PYTORCH_ALLOC_CONF} in 2.10, whose
 * c10/core/AllocatorConfig.cpp reads {@code PYTORCH_ALLOC_CONF} first and keeps
 * {@code PYTORCH_CUDA_ALLOC_CONF} as a deprecated fallback ({@link #TAIL_NEWER}); the rest of the
 * text is the same in both, the link included. 2.11 changed the hint again ({@link #TAIL_SINCE_2_11}:
 * the older variable, and a docs.pytorch.org link to the section on it); the kit models no release
 * after 2.10 ({@link PyTorchRelease}), so no replay prints that form, and {@code triage} reads it.
 */
public final class PyTorchOomMessage {
    /** The hint and link, as the 2024 source prints them, and 2.9 ({@link PyTorchRelease#V2_9}). */
    public static final String TAIL = "If reserved but unallocated memory is large try setting "
            + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  "
            + "See documentation for Memory Management  "
            + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)";

    /**
     * The same hint as 2.10 ({@link PyTorchRelease#V2_10}) words it: the newer variable, the same
     * link (what pytorch/pytorch#172327 says main printed before it changed both, January 2026).
     */
    public static final String TAIL_NEWER = TAIL.replace("PYTORCH_CUDA_ALLOC_CONF=", "PYTORCH_ALLOC_CONF=");

    /**
     * The hint as 2.11 and later print it: {@code PYTORCH_CUDA_ALLOC_CONF} again, and the link to
     * the docs' section on it at docs.pytorch.org. Word for word the stored
     * c10/cuda/CUDACachingAllocator.cpp at commit eb42ad6eca0c ({@code malloc}'s
     * {@code TORCH_CHECK_WITH(OutOfMemoryError, ...)}; a main after PR #165135, as it reads
     * {@code AcceleratorAllocatorConfig::max_split_size()}). The change is pytorch/pytorch#172327
     * ("Update memory error message documentation link and variable name for
     * PYTORCH_CUDA_ALLOC_CONF", opened 2026-01-13), whose description says the message named
     * {@code PYTORCH_ALLOC_CONF}, as 2.10's does ({@link #TAIL_NEWER}), and linked an anchor that
     * no longer held. The first release that prints it is 2.11: a torch-2.11.0+cu128 log (an
     * Ultralytics 8.4.116 run) has this text word for word. The PR's merge commit is not among the
     * sources the kit could read. Not modelled: the kit's releases end at 2.10.
     */
    public static final String TAIL_SINCE_2_11 = "If reserved but unallocated memory is large try setting "
            + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  "
            + "See documentation for Memory Management  "
            + "(https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)";

    private PyTorchOomMessage() {}

    /** One process NVML lists on the device. */
    public record ProcessUsage(int pid, long bytes, boolean isThisProcess) {}

    /**
     * What the message reports.
     *
     * @param tried        the segment size the allocator tried to get ({@code alloc_size})
     * @param device       the device index
     * @param total        {@code cudaMemGetInfo}'s total ({@code device_total}): the card's total as
     *                     CUDA reports it, the context and other processes included, the same
     *                     with a memory fraction or without (malloc at @001074d prints
     *                     {@code format_size(device_total)} in both cases; the fraction adds only
     *                     the "allowed" clause). A snapshot replay has no such figure and passes
     *                     PyTorch's share here, and says so under its messages
     * @param free         {@code cudaMemGetInfo}'s free
     * @param processes    NVML's list, in its order; empty when NVML is unavailable
     * @param allowed      the per-process limit from {@code set_per_process_memory_fraction}
     *                     ({@code allowed_memory_maximum}), or -1: printed when 2.9's
     *                     {@code set_fraction} is true (any fraction, 1.0 included), in 2.10 when
     *                     {@code allowed_memory_maximum.has_value()} (a fraction below 1.0)
     * @param allocated    {@code allocated_bytes.all.current}
     * @param privatePools cached free bytes in private pools (CUDA graphs)
     * @param reserved     {@code reserved_bytes.all.current}
     */
    public record Facts(long tried, int device, long total, long free, List<ProcessUsage> processes,
                        long allowed, long allocated, long privatePools, long reserved) {}

    /** The message as the default release ({@link PyTorchRelease#DEFAULT}) prints it. */
    public static String format(Facts f) { return format(f, PyTorchRelease.DEFAULT.hintVariable()); }

    /** The message with the hint naming {@code hintVariable} ({@code PYTORCH_ALLOC_CONF} in 2.10). */
    // tag::format[]
    public static String format(Facts f, String hintVariable) {
        StringBuilder sb = builder().append("CUDA out of memory. Tried to allocate ");
        formatSize(f.tried(), sb).append(". GPU ").append(f.device())
                .append(" has a total capacity of ");
        formatSize(f.total(), sb).append(" of which ");
        formatSize(f.free(), sb).append(" is free. ");
        List<ProcessUsage> processes = f.processes();
        for (int i = 0; i < processes.size(); i++) {   // by index: no iterator per message
            ProcessUsage p = processes.get(i);
            if (p.isThisProcess()) {
                sb.append("Including non-PyTorch memory, this process has ");
            } else {
                sb.append("Process ").append(p.pid()).append(" has ");
            }
            formatSize(p.bytes(), sb).append(" memory in use. ");
        }
        if (f.allowed() >= 0) formatSize(f.allowed(), sb).append(" allowed; ");
        sb.append("Of the allocated memory ");
        formatSize(f.allocated() + f.privatePools(), sb).append(" is allocated by PyTorch, ");
        if (f.privatePools() > 0) {
            sb.append("with ");
            formatSize(f.privatePools(), sb).append(" allocated in private pools (e.g., CUDA Graphs), ");
        }
        sb.append("and ");
        formatSize(f.reserved() - f.allocated() - f.privatePools(), sb)
          .append(" is reserved by PyTorch but unallocated. ")
          .append(tail(hintVariable));
        return sb.toString();
    }
    // end::format[]

    /**
     * This thread's builder for {@link #format}, emptied: made once, at the size of a message
     * with a process line or two, so a replay's tens of thousands of OOMs each copy only the
     * finished text (each size is appended in place, {@link vramlab.units.Bytes#formatSize(long,
     * StringBuilder)}, not made a string first). {@code format} calls nothing that formats a
     * message, so one builder per thread is never in use twice.
     */
    private static StringBuilder builder() {
        StringBuilder sb = BUILDER.get();
        sb.setLength(0);
        return sb;
    }

    private static final ThreadLocal<StringBuilder> BUILDER = ThreadLocal.withInitial(() -> new StringBuilder(1024));

    /** {@link #TAIL} naming {@code hintVariable}: the two the releases name are made once. */
    private static String tail(String hintVariable) {
        if (hintVariable.equals("PYTORCH_CUDA_ALLOC_CONF")) return TAIL;
        if (hintVariable.equals("PYTORCH_ALLOC_CONF")) return TAIL_NEWER;
        return TAIL.replace("PYTORCH_CUDA_ALLOC_CONF=", hintVariable + "=");
    }
}
