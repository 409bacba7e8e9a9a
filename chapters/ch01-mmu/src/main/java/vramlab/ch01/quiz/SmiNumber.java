package vramlab.ch01.quiz;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Rule 3, one pool and one owner per frame: what nvidia-smi charges a process (its mappings
 * plus its context), what every process then sees as free, and the 2 MiB rounding of cudaMalloc.
 */
public final class SmiNumber implements Question {
    static final long CARD = gib(80);
    static final long DRIVER_RESERVE = mib(512);

    @Override public String id() { return "q1.4"; }
    @Override public String notesSection() { return "Rule 3: one pool, one owner per frame"; }
    @Override public String title() { return "What nvidia-smi charges a process"; }

    /** {cudaMalloc'd bytes, context bytes, one more request}; the practice variant's 30 GiB and 500 MiB. */
    static long[] numbers(Variant v) {
        if (v.isSeed()) return new long[] {gib(30), mib(500), mib(3) + 1};
        return new long[] {
            v.between("malloc-gib", 1, 60) * Bytes.GiB,
            v.between("context-mib", 256, 768) * Bytes.MiB,
            v.between("extra", 1, mib(64)),
        };
    }

    @Override
    public String prompt(Variant v) {
        long[] n = numbers(v);
        return "An " + Bytes.readable(CARD) + " card whose driver keeps a " + Bytes.readable(DRIVER_RESERVE)
                + " reserve runs one process,\n"
                + "pid 1, with a " + Bytes.readable(n[1]) + " context. It calls cudaMalloc(" + n[0] + ") once"
                + Show.aside(n[0]) + ".\n"
                + "(a) What does nvidia-smi report as its used_gpu_memory, in MiB (a whole number)?\n"
                + "(b) What does cudaMemGetInfo report as free?\n"
                + "(c) It then calls cudaMalloc(" + n[2] + ")" + Show.aside(n[2])
                + ". What does nvidia-smi report now, in MiB?";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] n = numbers(v);
        Gpu gpu = new Gpu(0, CARD, DRIVER_RESERVE);
        GpuProcess p = gpu.open(1, "train", n[1]);
        p.cudaMalloc(n[0]);
        long smi = p.physicalBytes() / Bytes.MiB;               // what NvidiaSmi.row prints
        long free = p.cudaMemGetInfo().free();
        p.cudaMalloc(n[2]);
        gpu.checkInvariants();
        return List.of(
                Part.of("a", 1, Blanks.number("q1.4.a.smiMiB", smi)),
                Part.of("b", 1, Blanks.size("q1.4.b.free", free, Bytes::parse)),
                Part.of("c", 1, Blanks.number("q1.4.c.smiMiB", p.physicalBytes() / Bytes.MiB)));
    }
}
