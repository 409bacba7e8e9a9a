package vramlab.alloc;

import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.AllocConf.Rules;

/**
 * The PyTorch releases whose rules {@code --policy pytorch} follows where PyTorch changed a
 * rule between them ({@code --pytorch-version}); {@link #DEFAULT} when nothing says otherwise.
 * Each row cites the source that has the rule and how the release boundary is known. Release
 * boundaries come from dates: the 2.9 release branch was cut in September 2025 (its first
 * release candidate on 2025-09-10, as pytorch/xla#9647 reports) and 2.9.0 was released on
 * 2025-10-15 (the PyTorch 2.9 release blog), before the October 2025 pull requests below were
 * merged, so they reach 2.10 and not 2.9. Where a boundary is not established from the sources
 * the kit could read, the row says so and keeps the older rule.
 *
 * <table>
 *   <caption>The rules that differ</caption>
 *   <tr><th>rule</th><th>2.9</th><th>2.10</th></tr>
 *   <tr><td>the least {@code max_split_size_mb} / {@code max_non_split_rounding_mb}</td>
 *       <td>&gt; 20</td><td>&gt;= 20</td></tr>
 *   <tr><td>where a {@code >} entry of {@code roundup_power2_divisions} starts</td>
 *       <td>at the last listed interval</td><td>after it</td></tr>
 *   <tr><td>the OOM message's hint</td>
 *       <td>{@code PYTORCH_CUDA_ALLOC_CONF}</td><td>{@code PYTORCH_ALLOC_CONF}</td></tr>
 *   <tr><td>a memory fraction of 1.0</td><td>a limit of the whole card</td><td>no limit</td></tr>
 *   <tr><td>the keys the parser accepts ({@link AllocConfKeys})</td>
 *       <td>thirteen; no {@code pinned_reserve_segment_size_mb},
 *       {@code per_process_memory_fraction}</td><td>2.9's and those two</td></tr>
 *   <tr><td>an unknown key</td><td>{@code Unrecognized CachingAllocator option: KEY}</td>
 *       <td>{@code Unrecognized key 'KEY' in CUDA allocator config.}</td></tr>
 * </table>
 */
public enum PyTorchRelease {
    /**
     * 2.9: CUDA parses its config with c10/cuda/CUDAAllocatorConfig.cpp's own parser
     * ({@link Rules#CUDA_ALLOCATOR_CONFIG}): in 2.9.1 the CUDA allocator still reads its keys
     * only from {@code PYTORCH_CUDA_ALLOC_CONF} (pytorch/pytorch#183387), and the OOM message
     * still says {@code PYTORCH_CUDA_ALLOC_CONF} (PyTorch 2.9 test logs quoted in
     * ROCm/TheRock#2118, November 2025). The memory fraction keeps the rule of
     * CUDACachingAllocator.cpp @001074d ({@code setMemoryFraction} sets a limit for any
     * fraction, 1.0 included): PR #161035, which keeps no limit at 1.0, was still under review
     * on 2025-09-09, the eve of the 2.9 branch cut, and no source the kit could read shows it
     * in 2.9. Its parser has no {@code per_process_memory_fraction} key either (the copy of
     * CUDAAllocatorConfig.cpp of 2.9's parser, read for {@link AllocConfKeys}, compares 2.9's
     * thirteen keys and {@code pinned_reserve_segment_size_mb}, which came after the branch cut,
     * and refuses any other), so in 2.9 a fraction is set from code
     * ({@code torch.cuda.set_per_process_memory_fraction}).
     */
    V2_9("2.9", Rules.CUDA_ALLOCATOR_CONFIG, "PYTORCH_CUDA_ALLOC_CONF", false),
    /**
     * 2.10: CUDA parses through c10/core/AllocatorConfig.cpp (PR #165135 "Reuse
     * AcceleratorAllocatorConfig in CUDAAllocatorConfig", October 2025) with its roundup fix (PR
     * #165304 "Fix AllocatorConfig parse roundup division bug", merged 2025-10-19):
     * {@link Rules#ACCELERATOR_CONFIG_0AC7166}, the rules c10/test/core/AllocatorConfig_test.cpp
     * @13e144e expects, and the keys of CUDAAllocatorConfig.cpp @b944315 ({@link AllocConfKeys}),
     * {@code per_process_memory_fraction} among them. The release rests on the merge dates: 2.10.0's
     * release notes (meta-pytorch/torch-release-notes 2.10.0/final.md, as stored) list neither PR.
     * The OOM message says {@code PYTORCH_ALLOC_CONF}, with 2.9's link (PR #172327, January
     * 2026, describes that message on main and changes it back to {@code PYTORCH_CUDA_ALLOC_CONF}
     * with a docs.pytorch.org link, the form 2.11 prints, {@link PyTorchOomMessage#TAIL_SINCE_2_11};
     * releases after 2.10 are not modelled). A fraction of 1.0
     * is no limit: {@code setMemoryFraction} keeps {@code allowed_memory_maximum} empty unless
     * {@code fraction < 1.0} (CUDACachingAllocator.cpp as PR #161035, "Add
     * per_process_memory_fraction to PYTORCH_CUDA_ALLOC_CONF", September 2025, left it), so
     * garbage collection, which runs only under a limit, does not run.
     */
    V2_10("2.10", Rules.ACCELERATOR_CONFIG_0AC7166, "PYTORCH_ALLOC_CONF", true);

    /** The release the kit follows when nothing names one. */
    public static final PyTorchRelease DEFAULT = V2_9;

    private final String version;
    private final Rules rules;
    private final String hintVariable;
    private final boolean wholeCardIsNoLimit;

    PyTorchRelease(String version, Rules rules, String hintVariable, boolean wholeCardIsNoLimit) {
        this.version = version;
        this.rules = rules;
        this.hintVariable = hintVariable;
        this.wholeCardIsNoLimit = wholeCardIsNoLimit;
    }

    /** {@code "2.9"}, as {@code --pytorch-version} takes it. */
    public String version() { return version; }

    /** How its parser reads a config string where the parsers differ. */
    public Rules rules() { return rules; }

    /** The environment variable the OOM message's hint names. */
    public String hintVariable() { return hintVariable; }

    /** Whether a memory fraction of 1.0 sets no limit (and so no garbage collection runs). */
    public boolean wholeCardIsNoLimit() { return wholeCardIsNoLimit; }

    /** The versions the kit models, oldest first: {@code [2.9, 2.10]}. */
    public static List<String> versions() {
        List<String> out = new ArrayList<>();
        for (PyTorchRelease r : values()) out.add(r.version);
        return out;
    }

    /**
     * The release named {@code version} ({@code "2.10"}).
     *
     * @throws IllegalArgumentException saying which versions the kit models
     */
    public static PyTorchRelease named(String version) {
        for (PyTorchRelease r : values()) if (r.version.equals(version)) return r;
        throw new IllegalArgumentException("'" + version + "' is not a release the kit models; expected one of "
                + String.join(", ", versions()));
    }

    @Override
    public String toString() { return "PyTorch " + version; }
}
