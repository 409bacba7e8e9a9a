package vramlab.cli;

import java.util.regex.Pattern;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;

/**
 * {@code replay --memory-fraction F}: what {@code torch.cuda.set_per_process_memory_fraction(F)}
 * does when the code calls it before its first CUDA allocation, in the chosen release's model.
 *
 * <p>From PyTorch's source:
 * <ul>
 * <li>torch/cuda/memory.py @00b65a04a2d3, {@code set_per_process_memory_fraction}: a float
 *     ({@code TypeError} otherwise) from 0 to 1, both ends allowed; else
 *     {@code ValueError: Invalid fraction value: F. Allowed range: 0~1}.</li>
 * <li>c10/cuda/CUDACachingAllocator.cpp, {@code DeviceCachingAllocator::setMemoryFraction}:
 *     {@code allowed_memory_maximum = static_cast<size_t>(fraction * total)}, the device's total
 *     memory times F rounded down to a whole byte ({@code vramlab.alloc.MemoryFraction} does the
 *     same); at @001074d (the kit's 2.9) any F sets a limit, 1.0 one of the whole device; after
 *     PR #161035 (2.10) 1.0 sets none.</li>
 * <li>Both the key and the call: in 2.10's allocator (after PR #161035) the
 *     {@code DeviceCachingAllocator} constructor, run at CUDA's lazy init, calls
 *     {@code setMemoryFraction(CUDAAllocatorConfig::per_process_memory_fraction())}, and
 *     {@code set_per_process_memory_fraction}, which calls {@code _lazy_init()} first, then calls
 *     {@code setMemoryFraction} again through {@code _cuda_setMemoryFraction}, replacing
 *     {@code allowed_memory_maximum}: the call, later, wins, whichever fraction is smaller.
 *     (The constructor and the 2.10 {@code setMemoryFraction} were read in a copy of the file
 *     with {@code std::optional<size_t> allowed_memory_maximum} whose commit the reading tool did
 *     not name; torch/cuda/memory.py's order, {@code _lazy_init()} then
 *     {@code _cuda_setMemoryFraction}, is @00b65a04a2d3's.)</li>
 * </ul>
 * The value is checked in {@link ReplayCommand#run}, so the fast path and picocli's give the
 * same error.
 */
final class MemoryFractionOption {
    private MemoryFractionOption() {}

    /** A plain decimal, as a user writes a fraction: {@code 0.99}, {@code .5}, {@code 1}, {@code 5e-1}. */
    private static final Pattern DECIMAL = Pattern.compile("(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    /**
     * {@code --memory-fraction}'s value, or null when not given.
     *
     * @throws UsageException naming the option and the value, and saying what is expected
     */
    static Double parse(String value) {
        if (value == null) return null;
        if (DECIMAL.matcher(value).matches()) {
            double f = Double.parseDouble(value);
            if (f >= 0 && f <= 1) return f;
        }
        throw new UsageException("replay", "--memory-fraction '" + value + "': expected a number from 0 to 1,"
                + " as torch.cuda.set_per_process_memory_fraction takes (the limit is that fraction of the card)");
    }

    /**
     * {@code policy} with the fraction set from its first allocation on, replacing any that its
     * {@code per_process_memory_fraction} key set (the call wins: see above); {@code policy}
     * itself when none is given.
     */
    static Policy apply(Policy policy, Double fraction) {
        if (fraction == null) return policy;
        if (!(policy instanceof PyTorchPolicy p)) {
            throw new UsageException("replay", "--memory-fraction applies to --policy pytorch, not to the toy");
        }
        return p.withMemoryFraction(fraction);
    }
}
