package vramlab.ch08.quiz;

import java.util.List;

import vramlab.contest.SegregatedFits;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** The segregated-fits entry's two paths: a size class and its slab, or whole 2 MiB pages. */
public final class SlabsAndClasses implements Question {
    @Override public String id() { return "q8.1"; }
    @Override public String notesSection() { return "A segregated-fits allocator"; }

    @Override
    public String title() { return "Size classes, slabs and large segments in the segregated-fits entry"; }

    /** The four requests, in order: the practice variant's, or this student's. */
    static long[] requests(Variant v) {
        if (v.isSeed()) return new long[] {700, 1500, 1000, 3 * Bytes.MiB + 1};
        return new long[] {v.between("a", 1, 4096), v.between("b", 513, 8192), v.between("c", 1, 4096),
                v.between("d", Bytes.MiB + 1, 40 * Bytes.MiB)};
    }

    @Override
    public String prompt(Variant v) {
        long[] r = requests(v);
        return "A fresh SegregatedFits (chapter 8's entry as the notes describe it) on a 1 GiB card serves\n"
                + "four requests in this order, keeping all four:\n"
                + "  A = alloc(" + r[0] + "), B = alloc(" + r[1] + "), C = alloc(" + r[2] + "), D = alloc(" + r[3] + ")\n"
                + "(a) the size class of A (sizeClass(" + r[0] + "));\n"
                + "(b) B's block size;\n"
                + "(c) how many cudaMalloc calls the entry has made after D.";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] r = requests(v);
        GpuProcess p = new Gpu(Bytes.GiB).openToyProcess();
        SegregatedFits entry = new SegregatedFits(p);
        long[] blocks = new long[r.length];
        for (int i = 0; i < r.length; i++) blocks[i] = entry.blockSize(entry.alloc(r[i], 0));
        return List.of(
                Part.of("a", 1, Blanks.number("q8.1.a.class", SegregatedFits.sizeClass(r[0]))),
                Part.of("b", 1, Blanks.size("q8.1.b.block", blocks[1], Bytes::parse)),
                Part.of("c", 1, Blanks.number("q8.1.c.calls", p.driverCalls(DriverCall.CUDA_MALLOC))));
    }
}
