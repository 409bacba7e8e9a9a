package vramlab.ch01.quiz;

import static vramlab.units.Bytes.gib;

import java.util.List;

import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * VA is cheap, frames are what count: a huge reservation takes no memory and no table below
 * the root; mapping into it takes frames and creates the tables on the way down. But VA is not
 * unlimited: under UVA a process's device VA ends where x86-64 user space does, at 128 TiB, so a
 * second reservation may not fit even though the GMMU decodes 512 TiB.
 */
public final class ReserveIsFree implements Question {
    static final List<Long> CARDS = List.of(gib(16), gib(24), gib(40), gib(48), gib(80), gib(94),
            gib(141));
    static final List<Long> SECOND = List.of(gib(64), gib(256), Bytes.TiB, 100 * Bytes.TiB);

    /** What the second cuMemAddressReserve returns. */
    public enum Reply { CUDA_SUCCESS, CUDA_ERROR_OUT_OF_MEMORY, CUDA_ERROR_INVALID_VALUE }

    @Override public String id() { return "q1.3"; }
    @Override public String notesSection() { return "VA is plenty, but not unlimited"; }
    @Override public String title() { return "A reservation is VA only: what it costs, and what a map adds"; }

    /**
     * {card capacity, reservation, bytes mapped into it, a second reservation}: an 80 GiB card,
     * 512 GiB, 1 GiB and 100 TiB, or this student's.
     */
    static long[] numbers(Variant v) {
        if (v.isSeed()) return new long[] {gib(80), gib(512), gib(1), 100 * Bytes.TiB};
        long card = v.pick("card", CARDS);
        long reserve = v.between("reserve-gib", 64, 900) * Bytes.GiB;
        long mapped = v.between("mapped-pages", 1, 768) * Gpu.PAGE;       // 2 MiB .. 1.5 GiB
        return new long[] {card, reserve, mapped, v.pick("second", SECOND)};
    }

    /** What the calls of the prompt leave behind, read off the simulator. */
    record After(long va, long reserveTook, int tablesAfterReserve, long freeAfterMap, int tables,
                 long tableBytes, Reply second) {}

    static After replay(Variant v) {
        long[] n = numbers(v);
        Gpu gpu = new Gpu(0, n[0], 0);
        GpuProcess p = gpu.openToyProcess();
        long before = gpu.free();
        long va = p.cuMemAddressReserve(n[1]);
        long took = before - gpu.free();
        int tables = p.addressSpace().tableCount();
        long handle = p.cuMemCreate(n[2]);
        p.cuMemMap(va, n[2], handle);
        gpu.checkInvariants();
        Reply second = Reply.CUDA_SUCCESS;
        try {
            p.cuMemAddressReserve(n[3]);
        } catch (CudaException e) {
            second = Reply.valueOf(e.error().name());
        }
        return new After(va, took, tables, gpu.free(), p.addressSpace().tableCount(),
                p.addressSpace().pageTableBytes(), second);
    }

    @Override
    public String prompt(Variant v) {
        long[] n = numbers(v);
        After a = replay(v);
        return "A toy process (no context, no driver reserve) on a card of " + Bytes.readable(n[0])
                + " (VER2 page tables)\n"
                + "calls cuMemAddressReserve(" + Bytes.readable(n[1]) + "), which returns " + Show.hex(a.va())
                + ".\n"
                + "(a) How much GPU memory did the reservation take?\n"
                + "(b) How many page tables does the address space hold now (the root counts)?\n"
                + "It then calls cuMemCreate(" + Bytes.readable(n[2]) + ") and cuMemMap of that handle at "
                + Show.hex(a.va()) + ".\n"
                + "(c) What does cudaMemGetInfo report as free now?\n"
                + "(d) How many page tables now, and how much memory do they take (the root is counted\n"
                + "    as 4 KiB)?\n"
                + "(e) It then calls cuMemAddressReserve(" + Bytes.readable(n[3]) + "). What does that return:\n"
                + "    CUDA_SUCCESS, CUDA_ERROR_OUT_OF_MEMORY or CUDA_ERROR_INVALID_VALUE?";
    }

    @Override
    public List<Part> parts(Variant v) {
        After a = replay(v);
        return List.of(
                Part.of("a", 1, Blanks.size("q1.3.a.taken", a.reserveTook(), Bytes::parse)),
                Part.of("b", 1, Blanks.number("q1.3.b.tables", a.tablesAfterReserve())),
                Part.of("c", 1, Blanks.size("q1.3.c.free", a.freeAfterMap(), Bytes::parse)),
                Part.of("d", 1, Blanks.number("q1.3.d.tables", a.tables()),
                        Blanks.size("q1.3.d.tableBytes", a.tableBytes(), Bytes::parse)),
                Part.of("e", 1, Blanks.choice("q1.3.e.second", a.second())));
    }
}
