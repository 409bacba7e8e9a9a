package vramlab.ch07.quiz;

import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import java.util.List;

import vramlab.driver.DeviceBuffer;
import vramlab.pinned.HostBlock;
import vramlab.pinned.HostStats;
import vramlab.pinned.PinnedSim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Rule 3, next to rule 2: a staging buffer allocated during a capture (copied there or not) and
 * an ordinary batch, both deleted.
 */
public final class GraphKeepsItsBlock implements Question {
    /** The GPU's queue when the program starts: a long kernel, so copies wait behind it. */
    static final long KERNEL_NANOS = 100_000_000;

    @Override public String id() { return "q7.5"; }
    @Override public String notesSection() { return "Rule 3: graphs keep their blocks"; }
    @Override
    public String title() { return "Graphs keep their blocks: a captured staging buffer after empty_host_cache"; }

    /** {staging size, batch size, 1 when the program synchronizes before emptying, 1 when the graph copies}. */
    static long[] numbers(Variant v) {
        if (v.isSeed()) return new long[] {4 * KiB, MiB, 1, 1};
        return new long[] {v.between("staging", 1, 64 * KiB), v.between("batch", MiB, 256 * MiB),
            v.pick("synchronize", List.of(0L, 1L)), v.pick("copy", List.of(0L, 1L))};
    }

    @Override
    public String prompt(Variant v) {
        long[] n = numbers(v);
        return "On a fresh PinnedSim (the GPU first runs a " + Show.ms(KERNEL_NANOS) + " kernel):\n"
                + "  sim.kernel(\"warm-up\", " + KERNEL_NANOS + "L);\n"
                + "  x = sim.cuda(" + n[1] + "L); loss = sim.cuda(" + n[0] + "L);\n"
                + "  batch = sim.pin(" + n[1] + "L); sim.copyToDevice(x, batch);   // outside any graph\n"
                + "  g = sim.capture(() -> { staging = sim.pin(" + n[0] + "L);"
                + (n[3] == 1 ? " sim.copyToHost(staging, loss);" : "") + " });\n"
                + "  sim.del(batch); sim.del(staging);"
                + (n[2] == 1 ? " sim.synchronize();" : "   // no synchronize") + " sim.emptyHostCache();\n"
                + "  (batch: " + Bytes.readable(n[1]) + ", staging: " + Bytes.readable(n[0]) + ")\n"
                + "(a) where is staging's block now? (b) where is batch's block now?\n"
                + "(c) allocated_bytes and active_bytes in host_memory_stats() now.";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] n = numbers(v);
        PinnedSim sim = new PinnedSim();
        sim.kernel("warm-up", KERNEL_NANOS);
        DeviceBuffer x = sim.cuda(n[1]);
        DeviceBuffer loss = sim.cuda(n[0]);
        HostBlock batch = sim.pin(n[1]);
        sim.copyToDevice(x, batch);
        HostBlock[] staging = new HostBlock[1];
        sim.capture(() -> {
            staging[0] = sim.pin(n[0]);
            if (n[3] == 1) sim.copyToHost(staging[0], loss);
        });
        sim.del(batch);
        sim.del(staging[0]);
        if (n[2] == 1) sim.synchronize();
        sim.emptyHostCache();
        HostStats s = sim.hostMemoryStats();
        return List.of(
                Part.of("a", 1, Blanks.choice("q7.5.a.staging", BlockState.of(sim, staging[0]))),
                Part.of("b", 1, Blanks.choice("q7.5.b.batch", BlockState.of(sim, batch))),
                Part.of("c", 1, Blanks.size("q7.5.c.allocated", s.allocatedBytes(), Bytes::parse),
                        Blanks.size("q7.5.c.active", s.activeBytes(), Bytes::parse)));
    }
}
