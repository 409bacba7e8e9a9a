package vramlab.ch04.causes;

import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.alignUp;

import vramlab.alloc.OomReport;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Policy;

/**
 * A test-only stand-in for PyTorch's default rules (c10/cuda/CUDACachingAllocator.cpp
 * @001074d: round_size, get_allocation_size, should_split), so the
 * scenarios are checked against real rounding and splitting before the kit's own PyTorch policy
 * lands. Sizes round to 512 B; up to 1 MiB is the small pool with 2 MiB segments; a large
 * request under 10 MiB gets a 20 MiB segment, otherwise its size rounded up to 2 MiB; a large
 * block splits only if more than 1 MiB remains.
 */
final class RealRulesPolicy implements Policy {
    @Override public String name() { return "real-rules (test)"; }

    @Override public long roundSize(long requested) { return alignUp(Math.max(requested, 512), 512); }

    @Override public PoolKind poolFor(long rounded) { return rounded <= MiB ? PoolKind.SMALL : PoolKind.LARGE; }

    @Override
    public long segmentSize(long rounded) {
        if (rounded <= MiB) return 2 * MiB;
        if (rounded < 10 * MiB) return 20 * MiB;
        return alignUp(rounded, 2 * MiB);
    }

    @Override
    public boolean shouldSplit(PoolKind pool, long blockSize, long rounded) {
        long remaining = blockSize - rounded;
        return pool == PoolKind.SMALL ? remaining >= 512 : remaining > MiB;
    }

    @Override public String oomMessage(OomReport r) { return "CUDA out of memory (test policy)"; }
}
