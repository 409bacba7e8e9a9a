package vramlab.ch02.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Access;
import vramlab.gmmu.PageSize;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** CuMemMap writes the PTEs but grants no access; cuMemSetAccess must follow. */
public final class MapThenAccess implements Question {
    static final long DEVICE = mib(64);

    @Override public String id() { return "q2.5"; }
    @Override public String notesSection() { return "The VMM calls"; }
    @Override public String title() { return "After cuMemMap: mapped, but not yet usable"; }

    /** {reserved pages, handle pages, offset in pages}: the practice variant's one page at va, or this student's. */
    static long[] setup(Variant v) {
        if (v.isSeed()) return new long[] {1, 1, 0};
        long reserved = v.between("reserved", 1, 8);
        long handle = v.between("handle", 1, reserved);
        return new long[] {reserved, handle, v.between("offset", 0, reserved - handle)};
    }

    @Override
    public String prompt(Variant v) {
        long[] s = setup(v);
        String r = Bytes.toyMiB(s[0] * Gpu.PAGE);
        String h = Bytes.toyMiB(s[1] * Gpu.PAGE);
        String at = s[2] == 0 ? "va" : "va + " + Bytes.toyMiB(s[2] * Gpu.PAGE);
        return "A toy process on a fresh " + Bytes.toyMiB(DEVICE) + " GPU calls\n"
                + "  va = cuMemAddressReserve(" + r + "); h = cuMemCreate(" + h + "); cuMemMap("
                + at + ", " + h + ", h);\n"
                + "(a) The access the new PTEs carry (one of the Access names).\n"
                + "(b) How many PTEs cuMemMap wrote.\n"
                + "(c) The call that must come next, before a kernel may touch the range (a DriverCall name).\n"
                + "(d) Instead it calls cuMemSetAccess(va, " + r + ", READWRITE) over the whole reservation.\n"
                + "    What does that call return?";
    }

    /** The process after the prompt's three calls, reserved at {@code va}, mapped at {@code at}. */
    record Mapped(GpuProcess p, long va, long at, long size) {}

    static Mapped replay(long[] s) {
        GpuProcess p = new Gpu(DEVICE).openToyProcess();
        long va = p.cuMemAddressReserve(s[0] * Gpu.PAGE);
        long at = va + s[2] * Gpu.PAGE;
        long size = s[1] * Gpu.PAGE;
        p.cuMemMap(at, size, p.cuMemCreate(size));
        return new Mapped(p, va, at, size);
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] s = setup(v);
        Mapped m = replay(s);
        Access access = m.p().addressSpace().find(m.at(), PageSize.SIZE_2M).access();
        long ptes = m.p().driverPages(DriverCall.CU_MEM_MAP);
        // The key of (c) is checked, not assumed: after cuMemSetAccess every PTE must be valid.
        m.p().cuMemSetAccess(m.at(), m.size(), Access.READWRITE);
        for (long page = m.at(); page < m.at() + m.size(); page += Gpu.PAGE) {
            if (!m.p().addressSpace().find(page, PageSize.SIZE_2M).valid()) {
                throw new IllegalStateException("q2.5: cuMemSetAccess left 0x" + Long.toHexString(page)
                        + " invalid");
            }
        }
        // (d): the driver API reference asks for "a fully mapped address range"; the code for a
        // range with unmapped pages is the simulator's (the notes' table of VMM rules).
        Mapped w = replay(s);
        VmmResult whole = VmmResult.of(() -> w.p().cuMemSetAccess(w.va(), s[0] * Gpu.PAGE,
                Access.READWRITE));
        return List.of(
                Part.of("a", 1, Blanks.choice("q2.5.a.access", access)),
                Part.of("b", 1, Blanks.number("q2.5.b.ptes", ptes)),
                Part.of("c", 1, Blanks.choice("q2.5.c.next", DriverCall.class)),
                Part.of("d", 1, Blanks.choice("q2.5.d.whole", whole)));
    }
}
