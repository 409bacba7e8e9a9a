package vramlab.ch02.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.PageSize;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** What one cudaMalloc maps, and how. */
public final class RoundingTax implements Question {
    static final long DEVICE = mib(256);

    @Override public String id() { return "q2.1"; }
    @Override public String notesSection() { return "Rule 1: a large cudaMalloc rounds up to whole 2 MiB pages; small ones share pages"; }
    @Override public String title() { return "The rounding tax of one cudaMalloc"; }

    /** The request: the practice variant's 3 MiB + 1 B, or this student's (always some bytes over a page). */
    static long request(Variant v) {
        if (v.isSeed()) return mib(3) + 1;
        return mib(v.between("mib", 1, 40)) + v.between("over", 1, mib(1) - 1);
    }

    @Override
    public String prompt(Variant v) {
        long s = request(v);
        return "A toy process on a fresh " + Bytes.toyMiB(DEVICE) + " GPU calls cudaMalloc(" + s + ")"
                + Show.about(s) + ".\n"
                + "(a) How much memory does the call map? (b) How many page-table entries does it write?\n"
                + "(c) How many of the mapped bytes were not asked for? (d) The size of the page each\n"
                + "    of those entries maps: SIZE_4K, SIZE_64K or SIZE_2M.";
    }

    @Override
    public List<Part> parts(Variant v) {
        long s = request(v);
        GpuProcess p = new Gpu(DEVICE).openToyProcess();
        long ptr = p.cudaMalloc(s);
        long mapped = p.allocationSize(ptr);
        PageSize page = p.walk(ptr).pte().size();
        return List.of(
                Part.of("a", 1, Blanks.size("q2.1.a.mapped", mapped, Bytes::parse)),
                Part.of("b", 1, Blanks.number("q2.1.b.ptes", p.driverPages(DriverCall.CUDA_MALLOC))),
                Part.of("c", 1, Blanks.number("q2.1.c.unasked", mapped - s)),
                Part.of("d", 1, Blanks.choice("q2.1.d.page", page)));
    }
}
