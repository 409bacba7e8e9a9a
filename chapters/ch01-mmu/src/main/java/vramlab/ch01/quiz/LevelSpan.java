package vramlab.ch01.quiz;

import java.util.List;

import vramlab.gmmu.Level;
import vramlab.gmmu.MmuFormat;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * How much VA one entry of a level spans, how many entries its table has, and what one table
 * costs. The practice variant asks about PDE1; a student gets one of the levels below the root.
 */
public final class LevelSpan implements Question {
    static final MmuFormat FORMAT = MmuFormat.VER2;

    /** The root is left out: its table is counted as 4 KiB for 32 bytes of entries (see the notes). */
    static final List<String> LEVELS = List.of("PDE2", "PDE1", "PDE0", "PT_64K", "PT_4K");

    @Override public String id() { return "q1.2"; }
    @Override public String notesSection() { return "Rule 1: the VA bits are cut into indices, one slice per level"; }
    @Override public String title() { return "What one entry spans, and what one table costs"; }

    static String levelName(Variant v) { return v.isSeed() ? "PDE1" : v.pick("level", LEVELS); }

    static Level level(Variant v) {
        String name = levelName(v);
        if (name.equals(FORMAT.pt64k().name())) return FORMAT.pt64k();
        if (name.equals(FORMAT.pt4k().name())) return FORMAT.pt4k();
        return FORMAT.directories().stream().filter(l -> l.name().equals(name)).findFirst()
                .orElseThrow();
    }

    @Override
    public String prompt(Variant v) {
        String name = levelName(v);
        return "In the 49-bit layout (VER2: Pascal to Ada), take the level " + name + ".\n"
                + "(a) How much VA does one " + name + " entry span?\n"
                + "(b) How many entries does one " + name + " table hold?\n"
                + "(c) How much memory does one " + name + " table take (entries x entry size)?";
    }

    @Override
    public List<Part> parts(Variant v) {
        Level l = level(v);
        return List.of(
                Part.of("a", 1, Blanks.size("q1.2.a.span", l.coverage(), Bytes::parse)),
                Part.of("b", 1, Blanks.number("q1.2.b.entries", l.entries())),
                Part.of("c", 1, Blanks.size("q1.2.c.table", l.allocBytes(), Bytes::parse)));
    }
}
