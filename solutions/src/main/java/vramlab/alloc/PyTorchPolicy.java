package vramlab.alloc;

import static vramlab.units.Bytes.MiB;

/**
 * PyTorch's native caching allocator's rules, from c10/cuda/CUDACachingAllocator.cpp (2024
 * main, commit 001074d), cited as CCA:lines. {@code should_split} and
 * {@code get_allocation_size} have the same bodies at the older eb42ad6; {@code round_size}
 * does not: there {@code divisions > 0} sends a size to {@code roundup_power2_next_division},
 * which returns it unrounded for one division (PR #126830, 2024, made that 512-B rounding).
 * The mechanism they drive is {@link CachingAllocator}'s, shared with the toy.
 */
public final class PyTorchPolicy implements Policy {
    /** {@code kLargeBuffer} (CCA:48-49): large requests under 10 MiB share 20 MiB segments. */
    public static final long LARGE_BUFFER = 20 * MiB;
    /** {@code kMinBlockSize} (CCA:118-119): every size is rounded to a multiple of 512 B. */
    public static final long MIN_BLOCK_SIZE = 512;
    /** {@code kSmallSize} (CCA:120): the largest small request. */
    public static final long SMALL_SIZE = MiB;
    /** {@code kSmallBuffer} (CCA:121-122): one small-pool segment. */
    public static final long SMALL_BUFFER = 2 * MiB;
    /** {@code kMinLargeAlloc} (CCA:123-124): from here a large segment is the request's own. */
    public static final long MIN_LARGE_ALLOC = 10 * MiB;
    /** {@code kRoundLarge} (CCA:125): large segments are rounded up to 2 MiB. */
    public static final long ROUND_LARGE = 2 * MiB;

    private final AllocConf conf;
    private final String confText;
    private final PyTorchRelease release;

    public PyTorchPolicy() { this(AllocConf.defaults()); }

    public PyTorchPolicy(AllocConf conf) {
        this(conf, conf.equals(AllocConf.defaults()) ? "" : conf.toString());
    }

    /** {@code new PyTorchPolicy("expandable_segments:True")}: a policy from a config string. */
    public PyTorchPolicy(String allocConf) { this(AllocConf.parse(allocConf), allocConf); }

    /** A policy from a parsed config and the text it came from (a snapshot's recorded settings). */
    public PyTorchPolicy(AllocConf conf, String confText) { this(conf, confText, PyTorchRelease.DEFAULT); }

    /** The same, following {@code release} where PyTorch's releases differ ({@link PyTorchRelease}). */
    public PyTorchPolicy(AllocConf conf, String confText, PyTorchRelease release) {
        this.conf = conf;
        this.confText = confText;
        this.release = release;
    }

    /** A config string read by {@code release}'s parser, under {@code release}'s rules. */
    public static PyTorchPolicy of(String allocConf, PyTorchRelease release) {
        return new PyTorchPolicy(AllocConf.parse(allocConf, release.rules()), allocConf, release);
    }

    /** The same settings under another release's rules (the parsed values are kept). */
    public PyTorchPolicy under(PyTorchRelease other) { return new PyTorchPolicy(conf, confText, other); }

    /**
     * The same settings with the memory fraction that {@code torch.cuda.set_per_process_memory_fraction}
     * sets before the first allocation, replacing any the config string set ({@link AllocConf#withMemoryFraction}).
     */
    public PyTorchPolicy withMemoryFraction(double fraction) {
        return new PyTorchPolicy(conf.withMemoryFraction(fraction), confText, release);
    }

    public AllocConf conf() { return conf; }

    /** The release whose rules this policy follows where releases differ. */
    public PyTorchRelease release() { return release; }

    /** The config string as the user wrote it, {@code ""} when none was set. */
    public String confText() { return confText; }

    @Override
    public String name() { return "pytorch"; }

    /** What JShell shows: {@code pytorch policy (expandable_segments:False)}, its options as PYTORCH_CUDA_ALLOC_CONF reads. */
    @Override
    public String toString() { return "pytorch policy (" + conf + ")"; }

    // tag::round[]
    /**
     * {@code round_size} (CCA:2026-2037): under 512 B becomes 512 B; with
     * {@code roundup_power2_divisions} d &gt; 1 and a size above 512 * d, the next 1/d step between
     * powers of two; otherwise the next multiple of 512 B.
     */
    @Override
    public long roundSize(long size) {
        if (size < MIN_BLOCK_SIZE) return MIN_BLOCK_SIZE;
        long divisions = conf.divisionsFor(size);
        if (divisions > 1 && size > MIN_BLOCK_SIZE * divisions) return roundupPower2NextDivision(size, divisions);
        return MIN_BLOCK_SIZE * ((size + MIN_BLOCK_SIZE - 1) / MIN_BLOCK_SIZE);
    }

    /** {@code roundup_power2_next_division} (CCA:2006-2024). */
    static long roundupPower2NextDivision(long size, long divisions) {
        if (Long.bitCount(size) == 1) return size;
        long floor = Long.highestOneBit(size);
        long step = floor >> (63 - Long.numberOfLeadingZeros(divisions));
        if (step == 0) return floor << 1;
        long roundedFloor = size & ~(step - 1);
        return roundedFloor == size ? size : roundedFloor + step;
    }
    // end::round[]

    // tag::pool[]
    /** {@code get_pool} (CCA:2445-2468): at most 1 MiB is small, anything larger is large. */
    @Override
    public PoolKind poolFor(long rounded) {
        return rounded <= SMALL_SIZE ? PoolKind.SMALL : PoolKind.LARGE;
    }
    // end::pool[]

    // tag::segment[]
    /**
     * {@code get_allocation_size} (CCA:2488-2496): 2 MiB for the small pool; 20 MiB while the
     * rounded size is under 10 MiB; from 10 MiB on, the size itself rounded up to 2 MiB.
     */
    @Override
    public long segmentSize(long rounded) {
        if (rounded <= SMALL_SIZE) return SMALL_BUFFER;
        if (rounded < MIN_LARGE_ALLOC) return LARGE_BUFFER;
        return ROUND_LARGE * ((rounded + ROUND_LARGE - 1) / ROUND_LARGE);
    }
    // end::segment[]

    // tag::split[]
    /**
     * {@code should_split} (CCA:2478-2486): in the small pool, or with expandable segments,
     * split when at least 512 B remain; in the large pool only when the request is under
     * {@code max_split_size} and strictly more than 1 MiB remains.
     */
    @Override
    public boolean shouldSplit(PoolKind pool, long blockSize, long rounded) {
        long remaining = blockSize - rounded;
        if (pool == PoolKind.SMALL || conf.expandableSegments()) return remaining >= MIN_BLOCK_SIZE;
        return rounded < conf.maxSplitSize() && remaining > SMALL_SIZE;
    }
    // end::split[]

    /** PyTorch 2.x's message (CCA:1351-1376), through the kit's one formatter, its hint the release's. */
    @Override
    public String oomMessage(OomReport report) {
        return PyTorchOomMessage.format(report.facts(), release.hintVariable());
    }

    @Override public boolean expandableSegments() { return conf.expandableSegments(); }
    @Override public long maxSplitSize() { return conf.maxSplitSize(); }
    @Override public long oversizeSlack() { return conf.maxNonSplitRounding(); }
    @Override public double garbageCollectionThreshold() { return conf.garbageCollectionThreshold(); }
    @Override public double memoryFraction() { return conf.memoryFraction(); }
    @Override public boolean wholeCardIsNoLimit() { return release.wholeCardIsNoLimit(); }
    @Override public boolean retriesBeforeOom() { return true; }
}
