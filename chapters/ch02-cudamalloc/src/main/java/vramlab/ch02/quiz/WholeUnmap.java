package vramlab.ch02.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Access;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** A mapping comes off whole or not at all; a released handle lives until then. */
public final class WholeUnmap implements Question {
    static final long DEVICE = mib(64);

    @Override public String id() { return "q2.6"; }
    @Override public String notesSection() { return "The VMM calls"; }
    @Override public String title() { return "cuMemUnmap: whole mappings only, and what cuMemRelease frees"; }

    /** {mapping pages, first page of the unmap, pages unmapped}: the practice variant's first 2 MiB of 4 MiB. */
    static long[] setup(Variant v) {
        if (v.isSeed()) return new long[] {2, 0, 1};
        long pages = v.between("pages", 2, 16);
        long count = v.between("count", 1, pages - 1);
        return new long[] {pages, v.between("first", 0, pages - count), count};
    }

    @Override
    public String prompt(Variant v) {
        long[] s = setup(v);
        String m = Bytes.toyMiB(s[0] * Gpu.PAGE);
        String at = s[1] == 0 ? "va" : "va + " + Bytes.toyMiB(s[1] * Gpu.PAGE);
        return "A toy process on a fresh " + Bytes.toyMiB(DEVICE) + " GPU calls\n"
                + "  va = cuMemAddressReserve(" + m + "); h = cuMemCreate(" + m + "); cuMemMap(va, " + m + ", h);\n"
                + "  cuMemSetAccess(va, " + m + ", READWRITE); cuMemUnmap(" + at + ", "
                + Bytes.toyMiB(s[2] * Gpu.PAGE) + ");\n"
                + "(a) What does the cuMemUnmap return? (b) How much memory is mapped after it?\n"
                + "(c) Then it calls cuMemRelease(h). How much device memory does the process hold now?\n"
                + "(d) A size s for which cuMemUnmap(va, s), called next, succeeds.";
    }

    /** A fresh process after the prompt's calls up to the partial unmap, and what that returned. */
    record Unmapped(GpuProcess p, long va, long handle, VmmResult result) {}

    static Unmapped replay(long[] s) {
        GpuProcess p = new Gpu(DEVICE).openToyProcess();
        long size = s[0] * Gpu.PAGE;
        long va = p.cuMemAddressReserve(size);
        long h = p.cuMemCreate(size);
        p.cuMemMap(va, size, h);
        p.cuMemSetAccess(va, size, Access.READWRITE);
        VmmResult result = VmmResult.of(() -> p.cuMemUnmap(va + s[1] * Gpu.PAGE, s[2] * Gpu.PAGE));
        return new Unmapped(p, va, h, result);
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] s = setup(v);
        Unmapped u = replay(s);
        long mapped = u.p().mappedBytes();
        u.p().cuMemRelease(u.handle());
        long held = u.p().physicalBytes();
        return List.of(
                Part.of("a", 1, Blanks.choice("q2.6.a.result", u.result())),
                Part.of("b", 1, Blanks.size("q2.6.b.mapped", mapped, Bytes::parse)),
                Part.of("c", 1, Blanks.size("q2.6.c.held", held, Bytes::parse)),
                Part.of("d", 1, Blanks.sizeThat("q2.6.d.unmap", "a size cuMemUnmap(va, size) accepts here",
                        Bytes::parse, size -> unmaps(s, size), s[0] * Gpu.PAGE,
                        // cuMemUnmap takes whole mappings only, and va starts the one mapping.
                        () -> List.of(new Blanks.Span(s[0] * Gpu.PAGE, s[0] * Gpu.PAGE)))));
    }

    /** Replays the prompt, cuMemRelease included, on a fresh process, then tries cuMemUnmap(va, size). */
    static boolean unmaps(long[] s, long size) {
        Unmapped u = replay(s);
        u.p().cuMemRelease(u.handle());
        return VmmResult.of(() -> u.p().cuMemUnmap(u.va(), size)) == VmmResult.CUDA_SUCCESS;
    }
}
