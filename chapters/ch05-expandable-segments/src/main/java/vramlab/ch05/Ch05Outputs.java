package vramlab.ch05;

import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.ExpandableSegment;
import vramlab.alloc.MemoryStats;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;

/**
 * The simulator output the chapter's prose discusses: worked examples and the runs that refute
 * its common misconceptions. The site calls each {@code outputXxx()} when it is built and the
 * notes include {@code {generated}/output-xxx.txt}; no number in them is typed in.
 */
public final class Ch05Outputs {
    static final String EXPANDABLE = "expandable_segments:True";

    private Ch05Outputs() {}

    static CachingAllocator allocator(long device, boolean expandable) {
        return new CachingAllocator(new Gpu(device).openToyProcess(),
                expandable ? new PyTorchPolicy(EXPANDABLE) : new PyTorchPolicy());
    }

    static String name(boolean expandable) { return expandable ? "expandable" : "defaults  "; }

    /** The address range one expandable segment reserves, for three card sizes. */
    public static String outputReservation() {
        StringBuilder sb = new StringBuilder();
        for (long card : new long[] {mib(64), mib(40 * 1024), mib(80 * 1024)}) {
            for (long page : new long[] {PyTorchPolicy.SMALL_BUFFER, PyTorchPolicy.LARGE_BUFFER}) {
                ExpandableSegment s = new ExpandableSegment(new Gpu(card).openToyProcess(), card, page);
                sb.append(String.format("card %-10s page %-8s reserves %-12s = %6d pages, %s mapped%n",
                        readable(card), readable(page), readable(s.size()), s.pageCount(),
                        readable(s.mappedBytes())));
            }
        }
        return sb.toString();
    }

    /** 25 MiB, 10 MiB and 5 MiB on a fresh allocator, under each policy. */
    public static String outputSplitRule() {
        StringBuilder sb = new StringBuilder();
        for (boolean exp : new boolean[] {false, true}) {
            CachingAllocator a = allocator(mib(256), exp);
            for (long size : new long[] {mib(25), mib(10), mib(5)}) {
                Block b = a.alloc(size);
                sb.append(String.format("%s alloc(%-7s) -> block %-7s in segment %d at +%-7s reserved %s%n",
                        name(exp), readable(size), readable(b.size()), b.segment().id(),
                        readable(b.offset()), readable(a.reserved())));
            }
        }
        return sb.toString();
    }

    /** Best fit walks past a free tail that could grow, to a hole that cannot. */
    public static String outputBestFitGrowth() {
        CachingAllocator a = allocator(mib(256), true);
        a.alloc(mib(6));
        Block b = a.alloc(mib(6));
        a.alloc(mib(6));
        a.free(b);
        StringBuilder sb = new StringBuilder("after alloc(6 MiB) x3, free(second):\n").append(a).append('\n');
        Block c = a.alloc(mib(2));
        return sb.append("alloc(2 MiB) -> block at +").append(readable(c.offset()))
                 .append(" (the 6 MiB hole), not at +18 MiB (the 2 MiB tail before unmapped space)\n")
                 .append(a).append('\n').toString();
    }

    /** Freeing keeps the pages mapped; empty_cache() unmaps them. */
    public static String outputFreeKeepsPages() {
        CachingAllocator a = allocator(mib(64), true);
        StringBuilder sb = new StringBuilder();
        Block x = a.alloc(mib(30));
        sb.append("alloc(30 MiB):   reserved ").append(readable(a.reserved())).append('\n');
        a.free(x);
        sb.append("free:            reserved ").append(readable(a.reserved()))
          .append(", allocated ").append(readable(a.allocated())).append('\n');
        long back = a.emptyCache();
        sb.append("empty_cache():   gave back ").append(readable(back)).append(", reserved ")
          .append(readable(a.reserved())).append(", segments ").append(a.segments().size()).append('\n');
        return sb.toString();
    }

    /** Alternating 3 MiB + 1 B and 5 MiB + 1 B tensors on a 40 MiB card, the small side freed. */
    public static String outputHolesInsidePages() {
        StringBuilder sb = new StringBuilder();
        for (boolean exp : new boolean[] {false, true}) {
            CachingAllocator a = allocator(mib(40), exp);
            List<Block> small = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                small.add(a.alloc(mib(3) + 1));
                a.alloc(mib(5) + 1);
            }
            for (Block b : small) a.free(b);
            sb.append("-- ").append(exp ? EXPANDABLE : "defaults").append(": free ")
              .append(readable(a.freeBytes())).append(", largest free block ")
              .append(readable(a.largestFreeBlock())).append('\n').append(a).append('\n');
            try {
                Block c = a.alloc(mib(8));
                sb.append("alloc(8 MiB): OK at +").append(readable(c.offset())).append('\n');
            } catch (CudaOutOfMemoryError e) {
                sb.append("alloc(8 MiB): OOM, ").append(readable(a.reserved())).append(" still reserved\n");
            }
            if (!exp) sb.append('\n');
        }
        return sb.toString();
    }

    /** memory_stats() after three mappings: reserved grows, the segment count does not. */
    public static String outputSegmentCount() {
        StringBuilder sb = new StringBuilder(String.format("%-11s %-22s %9s %8s %16s%n",
                "policy", "after", "reserved", "segment", "num_device_alloc"));
        for (boolean exp : new boolean[] {false, true}) {
            CachingAllocator a = allocator(mib(256), exp);
            String done = "";
            for (long size : new long[] {mib(3), mib(30), 300 * 1024}) {
                a.alloc(size);
                done = done.isEmpty() ? readable(size) : done + ", " + readable(size);
                MemoryStats st = a.memoryStats();
                sb.append(String.format("%-11s %-22s %9s %8d %16d%n", name(exp).trim(), done,
                        readable(a.reserved()), st.stat("segment", "all").current(),
                        st.asMap().get("num_device_alloc")));
            }
        }
        return sb.toString();
    }

    /** Fragmentation's fix ladder, the triage's own (vramlab.triage.Ladder), one line a rung. */
    public static String outputFragmentationLadder() {
        return vramlab.triage.FixLadder.fragmentationLadder();
    }
}
