package vramlab.ch05;

import static vramlab.units.Bytes.mib;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.MemorySummary;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Segment;
import vramlab.alloc.SegmentMap;
import vramlab.alloc.ToyPolicy;
import vramlab.driver.Gpu;
import vramlab.kit.Scenario;
import vramlab.units.Bytes;

/**
 * The expandable-segments lab: one workload on a 64 MiB card under three allocators, the toy,
 * PyTorch's defaults and PyTorch with {@code expandable_segments:True}, with the reserved
 * bytes and the segment maps of each. Every number is the simulator's.
 *
 * <p>The workload: a 30 MiB activation, a 1.5 MiB tensor that stays, the activation freed,
 * then a 46 MiB request. 62.5 MiB of the card hold no live data, yet only expandable
 * segments can hand out 46 contiguous MiB.
 */
public final class ExpandableLab {
    /** The card: small, so every byte shows on the map. */
    public static final long DEVICE = mib(64);

    private ExpandableLab() {}

    public static void main(String[] args) { run(System.out); }

    /** What one allocator did with the workload. */
    public record Outcome(String allocator, String result, long reserved, long allocated, String map,
                          List<String> bars) {}

    /** The three allocators the lab compares, in order. */
    public static List<Policy> policies() {
        return List.of(new ToyPolicy(), new PyTorchPolicy(), new PyTorchPolicy("expandable_segments:True"));
    }

    public static String label(Policy p) {
        return p instanceof PyTorchPolicy pt && pt.expandableSegments() ? "pytorch+expandable" : p.name();
    }

    public static void run(PrintStream out) { Scenario.runAll(out, scenarios()); }

    /**
     * The lab's scenarios: the comparison of the three allocators, then each one's map on its
     * own (so the toy's still prints while an expandable step is not written), then what to notice.
     */
    public static List<Scenario> scenarios() {
        List<Scenario> all = new ArrayList<>();
        all.add(new Scenario("One workload, three allocators (" + Bytes.toyMiB(DEVICE) + " card)", out -> {
            out.println("a = alloc(30 MiB); b = alloc(1.5 MiB); free(a); c = alloc(46 MiB)");
            out.println();
            List<Outcome> outcomes = new ArrayList<>();
            for (Policy p : policies()) outcomes.add(workload(p));
            out.print(table(outcomes));
            out.println();
            out.print(bars(outcomes));
        }));
        for (Policy p : policies()) {
            all.add(new Scenario("", out -> {
                out.println("-- " + label(p) + " --");
                out.print(workload(p).map());
            }));
        }
        all.add(Scenario.afterword(ExpandableLab::whatToNotice));
        return all;
    }

    // tag::workload[]
    /** Runs the workload under {@code policy} and reports the result and the final map. */
    public static Outcome workload(Policy policy) {
        CachingAllocator a = new CachingAllocator(new Gpu(DEVICE).openToyProcess(), policy);
        Block activation = a.alloc(mib(30));
        a.alloc(mib(3) / 2);                         // stays live: it pins its segment or page
        a.free(activation);
        String result;
        try {
            Block c = a.alloc(mib(46));
            result = "OK at +" + Bytes.formatSize(c.offset()) + " of segment " + c.segment().id();
        } catch (CudaOutOfMemoryError e) {
            result = "OOM: " + e.getMessage();
        }
        a.checkInvariants();
        List<String> bars = new ArrayList<>();
        for (Segment s : a.segments()) bars.add(SegmentMap.bar(s));
        return new Outcome(label(policy), result, a.reserved(), a.allocated(), maps(a), bars);
    }
    // end::workload[]

    /** Each segment's map line; expandable ones are drawn up to their last mapped page. */
    static String maps(CachingAllocator a) {
        StringBuilder sb = new StringBuilder();
        for (Segment s : a.segments()) sb.append(SegmentMap.line(s)).append('\n');
        if (a.segments().isEmpty()) sb.append("(no segments)\n");
        return sb.toString();
    }

    /** The widest line {@link #bars} prints: it fits an 80-column terminal and the notes' listing unwrapped. */
    static final int BARS_WIDTH = 80;

    /**
     * The segment bars of each allocator one under another, one bar per segment, each allocator's
     * label on its first bar's line and every bar starting in one column, so the three final
     * states read on one scale: {@code #} live, {@code .} free, {@code _} address space with no
     * pages. Not in columns side by side: three columns are about 120 characters wide, more than a
     * terminal or the notes' listing, which broke them apart.
     */
    public static String bars(List<Outcome> outcomes) {
        int width = 0;
        for (Outcome o : outcomes) width = Math.max(width, label(o).length() + 2);
        StringBuilder sb = new StringBuilder();
        for (Outcome o : outcomes) {
            List<String> bars = o.bars().isEmpty() ? List.of("(no segments)") : o.bars();
            for (int r = 0; r < bars.size(); r++) sb.append(pad(r == 0 ? label(o) : "", width)).append(bars.get(r)).append('\n');
        }
        return sb.toString();
    }

    private static String label(Outcome o) { return o.allocator() + " (" + Bytes.toyM(o.reserved()) + " reserved)"; }

    private static String pad(String s, int width) { return String.format("%-" + width + "s", s); }

    static String table(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder(String.format("%-20s %10s %10s  %s\n", "allocator", "reserved", "allocated",
                "alloc(46 MiB)"));
        for (Outcome o : outcomes) {
            String r = o.result().startsWith("OOM") ? "OOM" : o.result();
            sb.append(String.format("%-20s %10s %10s  %s\n", o.allocator(), Bytes.toyM(o.reserved()),
                    Bytes.toyM(o.allocated()), r));
        }
        return sb.toString();
    }

    /** PyTorch's {@code memory_summary()} after the workload under {@code policy}. */
    public static String summary(Policy policy) {
        CachingAllocator a = new CachingAllocator(new Gpu(DEVICE).openToyProcess(), policy);
        Block activation = a.alloc(mib(30));
        a.alloc(mib(3) / 2);
        a.free(activation);
        try {
            a.alloc(mib(46));
        } catch (CudaOutOfMemoryError e) {
            // the summary counts it: CUDA OOMs: 1
        }
        return MemorySummary.format(a.memoryStats(), 0);
    }

    public static String whatToNotice() {
        return """
                What to notice:
                  1. The toy fails at the first cudaMalloc: it has no retry.
                  2. PyTorch's defaults flush the cache (the free 30 MiB segment goes back) and retry,
                     but the card has 44 MiB left: the 1.5 MiB tensor holds a 20 MiB segment of its
                     own, and a cudaMalloc'd segment never grows.
                  3. With expandable segments the tensor took its bytes from the free tail of the
                     activation's second page. The retry unmaps the one page that is wholly free,
                     then maps two pages after the tail and merges them with it across the page
                     boundary: 46 contiguous MiB in virtual space, on pages from anywhere.
                """;
    }

    /** What a student can try in JShell. */
    public static String help() {
        return """
                Expandable-segments lab: the same workload under three allocators. Try:
                  var p = new PyTorchPolicy("expandable_segments:True"); p
                  var a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), p);
                  var x = a.alloc(mib(25)); a          two 20 MiB pages mapped, 15 MiB free after the block
                  a.memoryStats().asMap()              PyTorch's memory_stats() keys
                  System.out.print(MemorySummary.format(a.memoryStats(), 0))   memory_summary()
                  ExpandableLab.workload(new PyTorchPolicy()).result()         one allocator's outcome
                  ExpandableLab.run(System.out)        the whole lab, as ./vramlab lab expandable-segments prints it
                Your steps (labs/src/main/java/vramlab/alloc/):
                  5.1 Map pages on demand                          ExpandableSegment.map
                  5.2 Map a block, merge across the page boundary  ExpandableBlocks.mapBlock
                  5.3 Unmap whole free pages                       ExpandableSegment.unmap
                Check one step: ./vramlab check 5.1   the chapter: ./vramlab check 5
                Quiz (outside JShell): ./vramlab quiz 5   your answers: ./vramlab quiz 5 --check labs/answers/ch05.txt
                """;
    }
}
