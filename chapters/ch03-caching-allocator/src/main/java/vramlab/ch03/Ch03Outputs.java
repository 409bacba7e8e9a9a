package vramlab.ch03;

import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import vramlab.alloc.AllocConf;
import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.MemorySummary;
import vramlab.alloc.Policy;
import vramlab.alloc.PoolKind;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.PyTorchRelease;
import vramlab.driver.Gpu;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;

/**
 * What the simulator says for the examples chapter 03's prose discusses, printed when the site
 * is built ({@code outputXxx()} -> {@code {generated}/output-xxx.txt}). Every number here is
 * computed now, by the reference allocator; the notes only include it.
 */
public final class Ch03Outputs {
    private Ch03Outputs() {}

    /** The three counters after each call of a short run: rounding, then a cached free. */
    public static String outputThreeNumbers() {
        Sim sim = new Sim(mib(64));
        StringBuilder sb = new StringBuilder(String.format("%-24s %12s %12s %12s%n", "call (toy policy)",
                "requested", "allocated", "reserved"));
        Block t0 = sim.alloc(100);
        row(sb, "t0 = alloc(100 B)", sim);
        Block t1 = sim.alloc(mib(3) + 1);
        row(sb, "t1 = alloc(3 MiB + 1 B)", sim);
        sim.alloc(mib(5) + 1);
        row(sb, "t2 = alloc(5 MiB + 1 B)", sim);
        sim.free(t1);
        row(sb, "free(t1)", sim);
        sim.free(t0);
        row(sb, "free(t0)", sim);
        sb.append("segments: ").append(sim.allocator().segments().size())
          .append(", emptyCache() would release ").append(readable(sim.emptyCache())).append('\n');
        return sb.toString();
    }

    private static void row(StringBuilder sb, String call, Sim sim) {
        sb.append(String.format("%-24s %12s %12s %12s%n", call, bytes(sim.requested()), bytes(sim.allocated()),
                bytes(sim.reserved())));
    }

    private static String bytes(long n) { return String.format("%,d", n); }

    /** The size ladder under both policies, side by side: where the toy and PyTorch part ways. */
    public static String outputLadderBothPolicies() {
        Policy toy = new ToyPolicy();
        Policy real = new PyTorchPolicy();
        StringBuilder sb = new StringBuilder(String.format("%-20s %-26s %-26s%n", "request",
                "toy: block, pool, segment", "PyTorch: block, pool, segment"));
        for (long n : LADDER_SIZES) {
            sb.append(String.format("%-20s %-26s %-26s%n", readable(n), cell(toy, n), cell(real, n)));
        }
        return sb.toString();
    }

    /** The requests of the ladder, in the table and in {@link Ch03Figures#figureSizeLadder}. */
    static final long[] LADDER_SIZES = {100, 300_000, mib(1), mib(1) + 1, mib(3) / 2, 2_516_582, mib(9),
        mib(10), mib(25)};

    static String cell(Policy p, long n) {
        long r = p.roundSize(n);
        return compact(r) + ", " + p.poolFor(r).name().toLowerCase() + ", " + compact(p.segmentSize(r));
    }

    private static String compact(long n) {
        if (n % mib(1) == 0) return n / mib(1) + " MiB";
        if (n % kib(1) == 0) return n / kib(1) + " KiB";
        return n + " B";
    }

    /** A 900 KiB request next to 20 MiB of cached large-pool memory: a new 2 MiB segment. */
    public static String outputPoolsNeverMix() {
        Sim sim = new Sim(mib(64));
        Block big = sim.alloc(mib(20));
        sim.free(big);
        StringBuilder sb = new StringBuilder("alloc(20 MiB), then free it: the large pool caches 20 MiB\n");
        sb.append(sim.map());
        Block small = sim.alloc(kib(900));
        sb.append("\nalloc(900 KiB): rounds to ").append(readable(small.size())).append(", pool ")
          .append(small.pool().name().toLowerCase()).append(", served from segment ")
          .append(small.segment().id()).append(" (").append(readable(small.segment().size())).append(")\n");
        sb.append(sim.map());
        return sb.toString();
    }

    /**
     * A 5 MiB hole serving a 4 MiB request under PyTorch's rules: a remainder of 1 MiB is not
     * more than 1 MiB, so the whole block is handed over and the tail counts as allocated.
     */
    public static String outputWholeBlockHandedOver() {
        Sim sim = new Sim(mib(64), new PyTorchPolicy());
        Block five = sim.alloc(mib(5));
        sim.alloc(mib(15));                                // fills the rest of the 20 MiB segment
        sim.free(five);                                    // a 5 MiB hole at the front
        StringBuilder sb = new StringBuilder("PyTorch policy: alloc(5 MiB), alloc(15 MiB), free the 5 MiB\n");
        sb.append("  free blocks: ").append(readable(sim.freeBytes())).append(" in one hole\n");
        Block four = sim.alloc(mib(4));
        sb.append("alloc(4 MiB) gets a block of ").append(readable(four.size()))
          .append(four.next() == null || four.next().isAllocated() ? " (not split)" : " (split)").append('\n');
        sb.append(String.format("  requested=%s  allocated=%s  allocated - requested=%s%n",
                readable(sim.requested()), readable(sim.allocated()),
                readable(sim.allocated() - sim.requested())));
        return sb.toString();
    }

    /** Freeing a tensor leaves reserved (what nvidia-smi sees) where it was; emptyCache moves it. */
    public static String outputFreeKeepsReserved() {
        Sim sim = new Sim(mib(64));
        Block a = sim.alloc(mib(30));
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-28s %s%n", "a = alloc(30 MiB)", sim.counters()));
        sim.free(a);
        sb.append(String.format("%-28s %s%n", "free(a)", sim.counters()));
        Block b = sim.alloc(mib(30));
        sb.append(String.format("%-28s %s (same segment %d, no cudaMalloc)%n", "b = alloc(30 MiB)",
                sim.counters(), b.segment().id()));
        sim.free(b);
        long released = sim.emptyCache();
        sb.append(String.format("%-28s %s (released %s)%n", "free(b); emptyCache()", sim.counters(),
                readable(released)));
        return sb.toString();
    }

    /** One live block pins its whole segment: emptyCache gives back only the wholly free one. */
    public static String outputOneLiveBlockPins() {
        Sim sim = new Sim(mib(64));
        Block keep = sim.alloc(mib(2));
        Block gone = sim.alloc(mib(16));
        Block other = sim.alloc(mib(22));
        sim.free(gone);
        sim.free(other);
        StringBuilder sb = new StringBuilder("alloc 2, 16 and 22 MiB; free the 16 and the 22 MiB blocks\n");
        sb.append(sim.map());
        long released = sim.emptyCache();
        sb.append("\nemptyCache() released ").append(readable(released)).append('\n').append(sim.map());
        sb.append("\nthe live 2 MiB block (").append(keep).append(") keeps all 20 MiB of its segment\n");
        return sb.toString();
    }

    /** The run of {@link #outputThreeNumbers()} as PyTorch's memory_summary() lays it out. */
    public static String outputMemorySummary() {
        return MemorySummary.format(summaryRun().allocator().memoryStats(), 0, true);
    }

    /** The run the summary prints (and {@link Ch03Figures#figureMemorySummary} annotates). */
    static Sim summaryRun() {
        Sim sim = new Sim(mib(64), new PyTorchPolicy());
        Block t0 = sim.alloc(100);
        Block t1 = sim.alloc(mib(3) + 1);
        sim.alloc(mib(5) + 1);
        sim.free(t1);
        sim.free(t0);
        return sim;
    }

    // tag::rules-by-release[]
    /**
     * The rules that differ between the PyTorch releases the kit models ({@link PyTorchRelease}),
     * each cell measured by running that release's policy: a parse, a rounding, an OOM, a limit,
     * a key its parser accepts or refuses ({@code vramlab.alloc.AllocConfKeys}).
     */
    public static String outputRulesByRelease() {
        String[] rules = {"rule (--pytorch-version)", "least max_split_size_mb accepted",
            "[256:1,512:2,1024:4,>:8]: divisions at 1024 MB", "the OOM message's hint names",
            "memory fraction 1.0: the limit", "...so garbage collection (threshold 0.5) frees",
            "key per_process_memory_fraction"};
        StringBuilder sb = new StringBuilder();
        for (int row = 0; row < rules.length; row++) {
            StringBuilder line = new StringBuilder(String.format("%-52s", rules[row]));
            for (PyTorchRelease r : PyTorchRelease.values()) {
                line.append(String.format(" %-24s", row == 0 ? r.version() : cell(row - 1, r)));
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private static String cell(int row, PyTorchRelease r) {
        switch (row) {
            case 0 -> {
                for (int mb = 0; ; mb++) {
                    try {
                        AllocConf.parse("max_split_size_mb:" + mb, r.rules());
                        return mb + " MB";
                    } catch (IllegalArgumentException tooSmall) {
                        // the next
                    }
                }
            }
            case 1 -> {
                return String.valueOf(AllocConf.parse("roundup_power2_divisions:[256:1,512:2,1024:4,>:8]", r.rules())
                        .divisionsFor(mib(1024)));
            }
            case 2 -> {
                try {
                    allocator("", r, mib(64)).alloc(mib(100));
                    return "(no OOM)";
                } catch (CudaOutOfMemoryError e) {
                    String m = e.getMessage();
                    int at = m.indexOf("try setting ") + "try setting ".length();
                    return m.substring(at, m.indexOf('=', at));
                }
            }
            case 3 -> {
                CachingAllocator a = allocator("", r, mib(1024));
                a.setMemoryFraction(1.0);
                return a.allowedMemory() < 0 ? "none" : readable(a.allowedMemory()) + " (the card)";
            }
            case 5 -> {
                try {
                    AllocConf.parse("per_process_memory_fraction:0.5", r.rules());
                    return "accepted";
                } catch (IllegalArgumentException unknown) {
                    return "refused (unknown key)";
                }
            }
            default -> {
                CachingAllocator a = allocator("garbage_collection_threshold:0.5", r, mib(128));
                a.setMemoryFraction(1.0);                  // from code: 2.9's parser has no key for it
                Block old = a.alloc(mib(40));
                a.alloc(mib(30));
                a.free(old);
                a.alloc(mib(50));
                boolean freed = a.freeBlocks(PoolKind.LARGE).stream().noneMatch(b -> b.size() == mib(40));
                return freed ? "the old 40 MiB block" : "nothing";
            }
        }
    }

    private static CachingAllocator allocator(String conf, PyTorchRelease r, long card) {
        CachingAllocator a = new CachingAllocator(new Gpu(card).openToyProcess(), PyTorchPolicy.of(conf, r));
        a.expectOoms(true);
        return a;
    }
    // end::rules-by-release[]
}
