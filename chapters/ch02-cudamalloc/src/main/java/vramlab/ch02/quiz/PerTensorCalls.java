package vramlab.ch02.quiz;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.Locale;

import vramlab.driver.CostModel;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** A training loop that calls the driver for every tensor, and what it costs. */
public final class PerTensorCalls implements Question {
    static final long DEVICE = gib(1);

    @Override public String id() { return "q2.3"; }
    @Override public String notesSection() { return "The cost of calling the driver"; }
    @Override public String title() { return "Per-tensor driver calls: how many, and what the model charges"; }

    /** {steps, tensors per step, tensor size}: the practice variant's 1000 steps of 10 tensors, or this student's. */
    static long[] loop(Variant v) {
        if (v.isSeed()) return new long[] {1000, 10, mib(1)};
        return new long[] {
            v.between("steps", 100, 1000), v.between("tensors", 4, 16), v.between("size", 1, mib(7)),
        };
    }

    @Override
    public String prompt(Variant v) {
        long[] l = loop(v);
        return "A toy process on a fresh " + Bytes.toyMiB(DEVICE) + " GPU runs " + l[0] + " training steps. Each step\n"
                + "cudaMallocs " + l[1] + " tensors of " + l[2] + " B" + Show.about(l[2]) + " and then cudaFrees all "
                + l[1] + ".\n"
                + "(a) How many driver calls is that in all? (b) How many of them may synchronize the device?\n"
                + "(c) Their total time, in whole microseconds, under the kit's illustrative cost model\n"
                + "    (CostModel.ORDER_OF_MAGNITUDE: " + costs() + ").";
    }

    /** The model's constants, read from the model so the prompt cannot drift from the key. */
    static String costs() {
        CostModel m = CostModel.ORDER_OF_MAGNITUDE;
        return String.format(Locale.ROOT, "%.0f us per call, %.0f us per 2 MiB page the call maps or\n"
                + "    unmaps, %.0f us more for a call that synchronizes",
                m.callMicros(), m.perPageMicros(), m.syncMicros());
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] l = loop(v);
        GpuProcess p = new Gpu(DEVICE).openToyProcess();
        long[] ptrs = new long[(int) l[1]];
        for (long step = 0; step < l[0]; step++) {
            for (int t = 0; t < ptrs.length; t++) ptrs[t] = p.cudaMalloc(l[2]);
            for (long ptr : ptrs) p.cudaFree(ptr);
        }
        long calls = 0;
        long syncing = 0;
        for (DriverCall c : DriverCall.values()) {
            calls += p.driverCalls(c);
            if (c.synchronizes()) syncing += p.driverCalls(c);
        }
        long micros = Math.round(CostModel.ORDER_OF_MAGNITUDE.totalMicros(p));
        return List.of(
                Part.of("a", 1, Blanks.number("q2.3.a.calls", calls)),
                Part.of("b", 1, Blanks.number("q2.3.b.syncing", syncing)),
                Part.of("c", 1, Blanks.number("q2.3.c.micros", micros)));
    }
}
