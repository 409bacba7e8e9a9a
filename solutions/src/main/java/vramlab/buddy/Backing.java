package vramlab.buddy;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import vramlab.driver.CudaException;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Access;
import vramlab.units.Bytes;

/**
 * Where a buddy pool's memory comes from. Two ways, both through the driver's public calls:
 * <ul>
 *   <li>{@link #upfront}: one {@code cudaMalloc} of the whole pool at start-up (what a serving engine
 *       does with one {@code torch.empty}); {@code reserved} is the whole pool from the start.
 *   <li>{@link #onDemand}: reserve the pool's VA with {@code cuMemAddressReserve}, then commit
 *       2 MiB pages ({@code cuMemCreate} + {@code cuMemMap}) when a live block first touches
 *       them and give them back ({@code cuMemUnmap} + {@code cuMemRelease}) when the last one
 *       leaves: "commit physical memory on demand".
 * </ul>
 */
public abstract class Backing {
    /** The pool's first byte: every buddy offset is relative to it. */
    public abstract long base();

    /** Bytes of device memory this backing holds now. */
    public abstract long reserved();

    /** Makes {@code [offset, offset + size)} usable; throws {@link CudaException} on OOM. */
    abstract void commit(long offset, long size);

    /** The range no longer holds a live block. */
    abstract void release(long offset, long size);

    /** Checks the backing against the live (allocated) blocks. */
    abstract void check(Collection<BuddyAllocator.Span> liveBlocks);

    public abstract String name();

    /** One cudaMalloc of the whole pool at start-up. */
    public static Backing upfront(GpuProcess process, long poolBytes) {
        return new Upfront(process, poolBytes);
    }

    /** VA reserved at start-up, 2 MiB pages committed on demand. */
    public static Backing onDemand(GpuProcess process, long poolBytes) {
        return new OnDemand(process, poolBytes);
    }

    static final class Upfront extends Backing {
        private final GpuProcess process;
        private final long base;

        Upfront(GpuProcess process, long poolBytes) {
            this.process = process;
            this.base = process.cudaMalloc(poolBytes);
        }

        @Override public long base() { return base; }
        @Override public long reserved() { return process.allocationSize(base); }
        @Override void commit(long offset, long size) { }
        @Override void release(long offset, long size) { }
        @Override public String name() { return "upfront"; }

        @Override
        void check(Collection<BuddyAllocator.Span> liveBlocks) {
            if (process.allocationSize(base) <= 0) throw new IllegalStateException("pool's cudaMalloc is gone");
        }
    }

    /**
     * Invariant: a page is mapped exactly when at least one live block overlaps it, and
     * {@code refs.get(page)} is the number of live blocks that overlap it.
     */
    static final class OnDemand extends Backing {
        private final GpuProcess process;
        private final long base;
        private final long page;
        private final Map<Long, Integer> refs = new HashMap<>();      // page index -> live blocks
        private final Map<Long, Long> handles = new HashMap<>();      // page index -> cuMem handle

        OnDemand(GpuProcess process, long poolBytes) {
            this.process = process;
            this.page = process.granularity();
            this.base = process.cuMemAddressReserve(Bytes.alignUp(poolBytes, page));
        }

        @Override public long base() { return base; }
        @Override public long reserved() { return handles.size() * page; }
        @Override public String name() { return "on-demand"; }

        @Override
        void commit(long offset, long size) {
            long first = offset / page, last = (offset + size - 1) / page;
            long p = first;
            try {
                for (; p <= last; p++) {
                    if (!refs.containsKey(p)) map(p);
                    refs.merge(p, 1, Integer::sum);
                }
            } catch (CudaException e) {
                for (long q = first; q < p; q++) unref(q);   // all or nothing
                throw e;
            }
        }

        @Override
        void release(long offset, long size) {
            for (long p = offset / page; p <= (offset + size - 1) / page; p++) unref(p);
        }

        private void map(long p) {
            long h = process.cuMemCreate(page);
            process.cuMemMap(base + p * page, page, h);
            process.cuMemSetAccess(base + p * page, page, Access.READWRITE);
            handles.put(p, h);
        }

        private void unref(long p) {
            int n = refs.merge(p, -1, Integer::sum);
            if (n > 0) return;
            refs.remove(p);
            process.cuMemUnmap(base + p * page, page);
            process.cuMemRelease(handles.remove(p));
        }

        @Override
        void check(Collection<BuddyAllocator.Span> liveBlocks) {
            Map<Long, Integer> live = new HashMap<>();
            for (BuddyAllocator.Span b : liveBlocks) {
                long first = b.offset() / page, last = (b.offset() + b.size() - 1) / page;
                for (long p = first; p <= last; p++) live.merge(p, 1, Integer::sum);
            }
            if (!refs.equals(live) || !refs.keySet().equals(handles.keySet())) {
                throw new IllegalStateException("mapped pages " + new java.util.TreeMap<>(refs)
                        + " but live blocks touch " + new java.util.TreeMap<>(live));
            }
        }
    }
}
