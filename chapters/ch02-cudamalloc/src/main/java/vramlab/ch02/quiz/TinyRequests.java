package vramlab.ch02.quiz;

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
 * Question 2: many tiny cudaMallocs. They do not take a 2 MiB page each: the driver packs small
 * requests into shared 2 MiB pages, in 512 B slices (observed behaviour, the kit's model of it:
 * GpuProcess.SMALL_MAX and SMALL_ALIGN). So a hundred 64 B requests map one page, and thousands
 * more fit before the driver maps a second.
 */
public final class TinyRequests implements Question {
    @Override public String id() { return "q2.2"; }
    @Override public String notesSection() { return "Common misconceptions"; }
    @Override public String title() { return "Tiny requests: how many share one page"; }

    /** {device, calls, size}: 1 GiB, 100 calls of 64 B, or this student's. */
    static long[] setup(Variant v) {
        if (v.isSeed()) return new long[] {gib(1), 100, 64};
        return new long[] {
            v.pick("device", List.of(mib(512), mib(768), gib(1), gib(2))),
            v.between("calls", 20, 200),
            v.between("size", 1, 8192),
        };
    }

    @Override
    public String prompt(Variant v) {
        long[] s = setup(v);
        return "A toy process (no context) on a fresh GPU of " + Bytes.toyMiB(s[0]) + " calls cudaMalloc("
                + s[2] + ") " + s[1] + " times.\n"
                + "(a) How much device memory is mapped now? (b) What free memory does cudaMemGetInfo report?\n"
                + "(c) It keeps calling cudaMalloc(" + s[2] + "). How many more calls succeed before\n"
                + "    cudaMemGetInfo's free drops again?";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] s = setup(v);
        GpuProcess p = new Gpu(s[0]).openToyProcess();
        for (int i = 0; i < s[1]; i++) p.cudaMalloc(s[2]);
        long mapped = p.mappedBytes();
        long free = p.cudaMemGetInfo().free();
        long more = 0;
        while (true) {
            p.cudaMalloc(s[2]);
            if (p.cudaMemGetInfo().free() < free) break;        // a second page was mapped
            more++;
        }
        return List.of(
                Part.of("a", 1, Blanks.size("q2.2.a.mapped", mapped, Bytes::parse)),
                Part.of("b", 1, Blanks.size("q2.2.b.free", free, Bytes::parse)),
                Part.of("c", 1, Blanks.number("q2.2.c.more", more)));
    }
}
