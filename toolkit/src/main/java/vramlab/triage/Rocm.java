package vramlab.triage;

import java.util.ArrayList;
import java.util.List;

/**
 * PyTorch built for ROCm: its "HIP out of memory" message comes from the same caching allocator
 * as CUDA's (c10/cuda/CUDACachingAllocator.cpp, translated to HIP by PyTorch's hipify at build
 * time), so its figures mean the same and the ladder applies unchanged. What changes is the
 * advice: the fixes name the allocator's variable as a ROCm build reads it.
 *
 * <p>Which variable a ROCm build reads, from PyTorch's source:
 * <ul>
 *   <li>c10/cuda/CUDAAllocatorConfig.h @012117ce596c0254dab7ef2cee454df935c6ebd9
 *       ({@code CUDAAllocatorConfig::instance}): {@code PYTORCH_CUDA_ALLOC_CONF}, and under
 *       {@code USE_ROCM} {@code PYTORCH_HIP_ALLOC_CONF} only when the first is unset
 *       ("convenience for ROCm users, allow alternative HIP token");</li>
 *   <li>c10/core/AllocatorConfig.cpp @0ac716637f3258efcaf7fdfb851bdd520c9c1441
 *       ({@code AcceleratorAllocatorConfig::instance}): {@code PYTORCH_ALLOC_CONF} first, then
 *       {@code PYTORCH_CUDA_ALLOC_CONF}, then {@code PYTORCH_HIP_ALLOC_CONF}, the first one set
 *       winning (the last two warn that they are deprecated).</li>
 * </ul>
 * So {@code PYTORCH_CUDA_ALLOC_CONF} works on every ROCm build read here, and
 * {@code PYTORCH_HIP_ALLOC_CONF}, the name some ROCm releases print in their hint (corpus 056,
 * 057), is silently ignored wherever {@code PYTORCH_CUDA_ALLOC_CONF} is also set.
 *
 * <p>Expandable segments came to ROCm late: pytorch/pytorch#177974 (March 2026, a reland of
 * #173330) enabled them, and #179930 keeps them off before ROCm 7.0; before that a ROCm build
 * warns "expandable_segments not supported on this platform" (CUDAAllocatorConfig.h @012117ce,
 * {@code expandable_segments()}) and ignores the setting.
 */
final class Rocm {
    /** The device word of a ROCm build's message ("HIP out of memory"). */
    static final String BACKEND = "HIP";

    private Rocm() {}

    static boolean is(Reading r) { return BACKEND.equals(r.backend()); }

    /** The note the reading of a HIP message carries. */
    static String note() {
        return "'HIP out of memory' is PyTorch built for ROCm: the same caching allocator as CUDA's "
                + "(c10/cuda/CUDACachingAllocator.cpp, translated by hipify), so the figures mean the "
                + "same and the ladder applies. torch.cuda.* calls work as written; the tools have AMD "
                + "names (amd-smi or rocm-smi for nvidia-smi, RCCL for NCCL, MIOpen for cuDNN, "
                + "HIP_VISIBLE_DEVICES for CUDA_VISIBLE_DEVICES).";
    }

    /** {@code fixes}' texts as a ROCm user should read them (as written for any other reading). */
    static List<String> fixes(Reading r, List<Fix> fixes) {
        List<String> out = new ArrayList<>();
        for (Fix f : fixes) out.add(text(r, f));
        return List.copyOf(out);
    }

    /** What a ROCm user reads after a fix or check that sets the variable. */
    static final String VARIABLE = "On ROCm set the same PYTORCH_CUDA_ALLOC_CONF: a ROCm build reads it "
            + "first, and PYTORCH_HIP_ALLOC_CONF (the name some ROCm messages print) only while "
            + "PYTORCH_CUDA_ALLOC_CONF is unset; releases that know PYTORCH_ALLOC_CONF read that before "
            + "both.";
    /** ... and after one that sets expandable segments. */
    static final String EXPANDABLE = "Expandable segments came to ROCm only in 2026 "
            + "(pytorch/pytorch#177974, ROCm 7 and later): an older ROCm build warns "
            + "'expandable_segments not supported on this platform' and ignores the setting, so "
            + "max_split_size_mb is the rung to try there.";
    /** ... and after the max_split_size_mb rung. */
    static final String SPLIT = "On ROCm it is also the rung for a build without expandable segments.";

    /**
     * {@code f}'s text as a ROCm user should read it, by the setting it changes ({@link Fix.Sets}):
     * an entry that sets {@code PYTORCH_CUDA_ALLOC_CONF}, naming it, gains the sentence that says
     * which name a ROCm build reads (and, for expandable segments, which ROCm builds have them);
     * the max_split_size_mb rung says it is ROCm's rung where expandable segments are missing.
     * Any other entry, and any entry of a reading not from ROCm, is its text unchanged.
     */
    static String text(Reading r, Fix f) {
        if (!is(r)) return f.text();
        return switch (f.sets()) {
            case EXPANDABLE_SEGMENTS -> f.text() + " " + VARIABLE + " " + EXPANDABLE;
            case ALLOC_CONF -> f.text() + " " + VARIABLE;
            case MAX_SPLIT_SIZE_MB -> f.text() + " " + SPLIT;
            case NOTHING, MEMORY_FRACTION -> f.text();
        };
    }
}
