package vramlab.ch01.quiz;

import java.util.List;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Walk;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/**
 * Rule 1: the VA bits are cut into one index per level. The practice variant asks for the root entry of VA
 * 2^48; the kit asks for every level of the walk of one mapped 4 KiB page, at this student's VA.
 */
public final class WalkIndices implements Question {
    static final MmuFormat FORMAT = MmuFormat.VER2;

    @Override public String id() { return "q1.1"; }
    @Override public String notesSection() { return "Rule 1: the VA bits are cut into indices, one slice per level"; }
    @Override public String title() { return "Cut a VA into indices: the walk of one address, level by level"; }

    /** The VA: 2^48 for the practice variant; a 4 KiB-aligned address anywhere in the 49-bit space otherwise. */
    static long va(Variant v) {
        if (v.isSeed()) return 1L << 48;
        return v.between("va", 0, FORMAT.vaLimit() - 1) & -PageSize.SIZE_4K.bytes();
    }

    @Override
    public String prompt(Variant v) {
        long va = va(v);
        return "A process maps one 4 KiB page at VA " + Show.hex(va) + (v.isSeed() ? " (2^48)" : "")
                + " in the 49-bit layout\n"
                + "(VER2: Pascal to Ada). Its walk reads one entry per level. Give the index of the entry read\n"
                + "(a) in the root table, PDE3; (b) in PDE2, PDE1 and PDE0; (c) in the 4 KiB-page table PT_4K.";
    }

    /** The walk of the prompt's address, on the simulator, after mapping the page. */
    static Walk replay(Variant v) {
        long va = va(v);
        AddressSpace space = new AddressSpace(FORMAT);
        space.map(va, Pte.local(PageSize.SIZE_4K, 0, Access.READWRITE, 0));
        return space.walk(va);
    }

    static long index(Walk w, String level) {
        return w.steps().stream().filter(s -> s.level().equals(level)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the walk never read " + level + ": " + w))
                .index();
    }

    @Override
    public List<Part> parts(Variant v) {
        Walk w = replay(v);
        return List.of(
                Part.of("a", 1, Blanks.number("q1.1.a.pde3", index(w, "PDE3"))),
                Part.of("b", 1, Blanks.number("q1.1.b.pde2", index(w, "PDE2")),
                        Blanks.number("q1.1.b.pde1", index(w, "PDE1")),
                        Blanks.number("q1.1.b.pde0", index(w, "PDE0"))),
                Part.of("c", 1, Blanks.number("q1.1.c.pt4k", index(w, "PT_4K"))));
    }
}
