package vramlab.ch04;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Sim;
import vramlab.alloc.SimExp;
import vramlab.ch04.causes.Causes;
import vramlab.ch04.causes.Outcome;
import vramlab.ch04.causes.VariableBatchRatchet;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.units.Bytes;

/**
 * What the simulator says for the examples chapter 04's prose discusses, printed when the site
 * is built ({@code outputXxx()} -> {@code {generated}/output-xxx.txt}). Every number is computed
 * now; the notes only include it.
 */
public final class Ch04Outputs {
    private Ch04Outputs() {}

    /** The lab's fill and free, reduced to the figures that refute "out of memory = out of bytes". */
    public static String outputFreeIsNotFit() {
        Sim sim = new Sim(mib(40));
        List<Block> small = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            small.add(sim.alloc(mib(3) + 1));
            sim.alloc(mib(5) + 1);
        }
        small.forEach(sim::free);
        StringBuilder sb = new StringBuilder("the lab's fill of 4 MiB and 6 MiB blocks, the 4 MiB side freed (toy policy)\n");
        sb.append("device:              ").append(readable(sim.device())).append('\n');
        sb.append("reserved:            ").append(readable(sim.reserved())).append('\n');
        sb.append("free in the cache:   ").append(readable(sim.freeBytes())).append('\n');
        sb.append("largest free block:  ").append(readable(sim.largestFreeBlock())).append('\n');
        sb.append("alloc(8 MiB):        ").append(attempt(sim, mib(8))).append('\n');
        sb.append("emptyCache():        released ").append(readable(sim.emptyCache())).append('\n');
        return sb.toString();
    }

    private static String attempt(Sim sim, long size) {
        try {
            Block b = sim.alloc(size);
            return "OK, " + b;
        } catch (CudaOutOfMemoryError e) {
            return "OOM";
        }
    }

    /** Under PyTorch's rules, a 3 MiB request that fails reports the 20 MiB segment it tried to get. */
    public static String outputTriedToAllocate() {
        Sim sim = new Sim(mib(64), new PyTorchPolicy());
        sim.alloc(mib(60));
        StringBuilder sb = new StringBuilder("PyTorch policy, 64 MiB card holding a 60 MiB block, then alloc(3 MiB):\n");
        try {
            sim.alloc(mib(3));
            sb.append("(no OOM)\n");
        } catch (CudaOutOfMemoryError e) {
            sb.append(wrap(e.getMessage(), 92));
        }
        return sb.toString();
    }

    /** The terms between the live tensors' sum and what nvidia-smi shows for the process. */
    public static String outputNvidiaSmiGap() {
        Gpu gpu = new Gpu(0, gib(1), 0);
        GpuProcess p = gpu.open(4242, "train.py", mib(300));
        CachingAllocator a = new CachingAllocator(p, new PyTorchPolicy());
        List<Block> kept = new ArrayList<>();
        long[] sizes = {mib(3) + 1, mib(5) + 1, mib(3) + 1, mib(5) + 1, 100_000, mib(12)};
        for (int i = 0; i < sizes.length; i++) {
            Block b = a.alloc(sizes[i]);
            if (i % 2 == 0) kept.add(b); else a.free(b);
        }
        StringBuilder sb = new StringBuilder("PyTorch policy, a process with a 300 MiB context; every second tensor freed\n");
        line(sb, "live tensors (requested)", a.requested());
        line(sb, "+ rounding and unsplit tails", a.allocated() - a.requested());
        line(sb, "= allocated", a.allocated());
        line(sb, "+ cached but unallocated", a.reserved() - a.allocated());
        line(sb, "= reserved", a.reserved());
        line(sb, "+ CUDA context", p.contextBytes());
        line(sb, "= what nvidia-smi shows", p.physicalBytes());
        return sb.toString();
    }

    private static void line(StringBuilder sb, String what, long bytes) {
        sb.append(String.format("%-30s %14s  %s%n", what, String.format("%,d", bytes), Bytes.formatSize(bytes)));
    }

    /** The ratchet under empty_cache() every batch, then the same loop with padded lengths. */
    public static String outputRatchetAndPadding() {
        StringBuilder sb = new StringBuilder();
        for (int bucket : new int[] {1, 128}) {
            VariableBatchRatchet s = new VariableBatchRatchet(bucket);
            sb.append(bucket == 1 ? "lengths as they come, empty_cache() after every batch:\n"
                    : "lengths padded to a multiple of " + bucket + " tokens:\n");
            try {
                Outcome o = s.run(Causes.defaultPolicy(), 1);
                o.story().stream().filter(l -> l.startsWith("Step ")).reduce((x, y) -> y)
                        .ifPresent(l -> sb.append("  ").append(l).append('\n'));
                String m = o.message();
                sb.append("  OOM: ").append(m.contains(". GPU") ? m.substring(0, m.indexOf(". GPU")) : m).append('\n');
            } catch (IllegalStateException e) {
                String m = e.getMessage();
                sb.append("  ").append(m.contains("no OOM") ? m.substring(m.indexOf("no OOM")) : m).append('\n');
            }
        }
        return sb.toString();
    }

    /** Expandable segments: the rounding tax stays, the holes go. */
    public static String outputExpandableKeepsTheTax() {
        SimExp exp = new SimExp(mib(40));
        SimExp.Mapping m = exp.alloc(mib(3) + 1);
        return "SimExp.alloc(3 MiB + 1 B) -> " + m + ", mapped " + readable(exp.mapped()) + "\n";
    }

    /** A graph's private pool: the captured tensors deleted, the memory still reserved. */
    public static String outputGraphPoolStays() {
        Outcome o = Causes.named("graph-private-pool").run(Causes.defaultPolicy(), 1);
        StringBuilder sb = new StringBuilder();
        o.story().forEach(l -> sb.append(wrap(l, 92)));
        return sb.toString();
    }

    /** Each cause's rung of the ladder, its one check, and its fixes cheapest first, as triage prints them. */
    public static String outputFixLadder() {
        StringBuilder sb = new StringBuilder();
        for (vramlab.triage.Cause c : vramlab.triage.Cause.values()) {
            if (c.step() < 1 || c.step() > 6) continue;
            sb.append(c.step()).append(". ").append(c.title()).append('\n');
            sb.append(wrap("   check: " + c.check(), 92));
            int i = 1;
            for (String fix : c.fixes()) sb.append(wrap("   " + (char) ('a' + i++ - 1) + ") " + fix, 92));
        }
        return sb.toString();
    }

    /** Fragmentation's fix ladder in one line a rung: the order and the condition that puts each first. */
    public static String outputFragmentationLadder() {
        return vramlab.triage.FixLadder.fragmentationLadder();
    }

    /** {@code text} cut at spaces into lines of at most {@code width} characters. */
    static String wrap(String text, int width) {
        StringBuilder sb = new StringBuilder();
        StringBuilder current = new StringBuilder();
        for (String word : text.split(" ")) {
            if (current.length() > 0 && current.length() + 1 + word.length() > width) {
                sb.append(current).append('\n');
                current.setLength(0);
                current.append("  ");
            }
            if (current.length() > 0 && !current.toString().isBlank()) current.append(' ');
            current.append(word);
        }
        return sb.append(current).append('\n').toString();
    }
}
