package vramlab.alloc;

import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.alignUp;
import static vramlab.units.Bytes.toyMiB;

/**
 * The simplified (toy) policy chapter 3 starts from, exactly as the notes state it, with one
 * fix: the pool is decided by the request's rounded size and then belongs to the segment
 * (deciding it by a block's current size crashes on any request of 1 MiB or less).
 *
 * <p>Where it departs from real PyTorch (see {@code PyTorchPolicy} and the notes' "Where the
 * toy simplifies"): large blocks round to 2 MiB (PyTorch: 512 B), a large segment is at least
 * 20 MiB (PyTorch: 20 MiB only under 10 MiB), a large block splits when 2 MiB or more remain
 * (PyTorch: more than 1 MiB), and the message is the toy's own, not PyTorch's.
 */
public final class ToyPolicy implements Policy {
    public static final long SMALL_SIZE = MiB;          // the largest small request
    public static final long MIN_BLOCK = 512;           // the small pool's rounding step
    public static final long SMALL_SEGMENT = 2 * MiB;   // one small-pool cudaMalloc
    public static final long LARGE_STEP = 2 * MiB;      // the large pool's rounding step
    public static final long LARGE_SEGMENT = 20 * MiB;  // the smallest large-pool cudaMalloc

    @Override
    public String name() { return "toy"; }

    /** What JShell shows: the policy and its ladder, in the notes' words (no step runs). */
    @Override
    public String toString() {
        return "toy policy: 512 B steps up to 1 MiB (small pool, 2 MiB segments), 2 MiB steps above"
                + " (large pool, segments of at least 20 MiB)";
    }

    // tag::round[]
    @Override
    public long roundSize(long requested) {
        throw new vramlab.lab.Todo("3.1", "Round a request", "ch03 \"Rule 1: the rounding ladder\"", "labs/src/main/java/vramlab/alloc/ToyPolicy.java");
    }
    // end::round[]

    // tag::pool[]
    @Override
    public PoolKind poolFor(long rounded) {
        return rounded <= SMALL_SIZE ? PoolKind.SMALL : PoolKind.LARGE;
    }
    // end::pool[]

    // tag::segment[]
    @Override
    public long segmentSize(long rounded) {
        return poolFor(rounded) == PoolKind.SMALL ? SMALL_SEGMENT : Math.max(LARGE_SEGMENT, rounded);
    }
    // end::segment[]

    // tag::split[]
    @Override
    public boolean shouldSplit(PoolKind pool, long blockSize, long rounded) {
        throw new vramlab.lab.Todo("3.3", "The split rule", "ch03 \"Rule 4: split only into a legal remainder\"", "labs/src/main/java/vramlab/alloc/ToyPolicy.java");
    }
    // end::split[]

    // tag::oom[]
    @Override
    public String oomMessage(OomReport r) {
        throw new vramlab.lab.Todo("4.1", "The toy's OOM message", "ch04 \"Reading the toy's message\"", "labs/src/main/java/vramlab/alloc/ToyPolicy.java");
    }
    // end::oom[]
}
