package vramlab.ch06.quiz;

import static vramlab.units.Bytes.gib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Collectors;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * A buddy pool filled with one-unit blocks, then freed in a pattern: half the pool can be free
 * while nothing larger than one unit can be served. The practice variant: 16 units of 1 B, every other one
 * freed (the old q6.1, whose answer was "1 unit").
 */
public final class Checkerboard implements Question {

    /** The pool and the freeing pattern: unit i is freed when {@code i % stride} is in {@code residues}. */
    record Setup(int units, int unitOrder, int stride, TreeSet<Integer> residues) {
        long unit() { return 1L << unitOrder; }
        boolean freed(int i) { return residues.contains(i % stride); }
    }

    @Override public String id() { return "q6.1"; }
    @Override public String notesSection() { return "\"Free neighbours merge\""; }
    @Override public String title() { return "A checkerboarded buddy pool: free bytes against the largest block"; }

    static Setup setup(Variant v) {
        if (v.isSeed()) return new Setup(16, 0, 2, new TreeSet<>(List.of(0)));
        int units = 1 << v.between("log-units", 4, 6);
        int unitOrder = v.pick("unit-order", List.of(0, 9, 12, 21));
        int stride = v.pick("stride", List.of(2, 4, 8));
        Random r = v.random("residues");
        TreeSet<Integer> residues = new TreeSet<>();
        for (int i = 0; i < stride; i++) if (r.nextBoolean()) residues.add(i);
        if (residues.isEmpty()) residues.add(r.nextInt(stride));
        if (residues.size() == stride) residues.remove(r.nextInt(stride));
        return new Setup(units, unitOrder, stride, residues);
    }

    @Override
    public String prompt(Variant v) {
        Setup s = setup(v);
        String residues = s.residues().stream().map(String::valueOf).collect(Collectors.joining(", "));
        return "A buddy pool of " + s.units() + " units of " + Show.size(s.unit()) + " (smallest block one unit,\n"
                + "largest the whole pool of " + Show.size(s.units() * s.unit()) + ") receives " + s.units()
                + " requests of one unit each,\nu0, u1, ..., u" + (s.units() - 1) + " in that order. Then every ui with"
                + " i mod " + s.stride() + (s.residues().size() == 1 ? " = " + residues : " in {" + residues + "}")
                + " is freed.\n"
                + "(a) How many bytes are free now?\n"
                + "(b) What is the largest request, in bytes, that succeeds now?\n"
                + "(c) The pool is compacted (every live block moved, largest first, to the lowest\n"
                + "    free address). What is the largest request that succeeds then?\n"
                + "(d) How many free blocks of one unit does buddyinfo count before the compaction?";
    }

    /** The pool after the allocations and frees of the prompt, on the reference simulator. */
    static BuddyAllocator replay(Setup s) {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), s.units() * s.unit(),
                s.unitOrder(), s.unitOrder() + Integer.numberOfTrailingZeros(s.units()));
        List<Long> blocks = new ArrayList<>();
        for (int i = 0; i < s.units(); i++) blocks.add(b.alloc(s.unit()));
        for (int i = 0; i < s.units(); i++) if (s.freed(i)) b.free(blocks.get(i));
        return b;
    }

    @Override
    public List<Part> parts(Variant v) {
        BuddyAllocator b = replay(setup(v));
        long free = b.freeBytes();
        long largest = b.largestFreeBlock();
        long oneUnitBlocks = b.freeCounts()[0];
        b.compact();
        return List.of(
                Part.of("a", 1, Blanks.size("q6.1.a.free", free, Bytes::parse)),
                Part.of("b", 1, Blanks.size("q6.1.b.largest", largest, Bytes::parse)),
                Part.of("c", 1, Blanks.size("q6.1.c.compacted", b.largestFreeBlock(), Bytes::parse)),
                Part.of("d", 1, Blanks.number("q6.1.d.nr-free", oneUnitBlocks)));
    }
}
