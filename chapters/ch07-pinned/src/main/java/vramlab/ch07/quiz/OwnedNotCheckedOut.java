package vramlab.ch07.quiz;

import static vramlab.units.Bytes.MiB;

import java.util.List;

import vramlab.pinned.HostStats;
import vramlab.pinned.PinnedSim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** The host_memory_stats walkthrough: del keeps the pages; only empty_host_cache returns them. */
public final class OwnedNotCheckedOut implements Question {
    @Override public String id() { return "q7.3"; }
    @Override public String notesSection() { return "Rule 2: a freed block waits for its events"; }
    @Override
    public String title() { return "Owned but not checked out: del, synchronize, and the two empty calls"; }

    /** The tensor's size: the practice variant's 256 MiB, or this student's. */
    static long size(Variant v) {
        return v.isSeed() ? 256 * MiB : v.between("size", MiB + 1, 512 * MiB);
    }

    @Override
    public String prompt(Variant v) {
        long s = size(v);
        return "On a fresh PinnedSim: t = sim.pin(" + s + "L); sim.del(t); sim.synchronize();   (t: "
                + Bytes.readable(s) + ")\n"
                + "(a) allocated_bytes and active_bytes in host_memory_stats() now;\n"
                + "(b) the bytes sim.emptyHostCache() (empty_host_cache()) then returns to the OS;\n"
                + "(c) allocated_bytes if you had called sim.cudaEmptyCache() (torch.cuda.empty_cache())\n"
                + "    instead of (b).";
    }

    @Override
    public List<Part> parts(Variant v) {
        long s = size(v);
        PinnedSim sim = new PinnedSim();
        sim.del(sim.pin(s));
        sim.synchronize();
        HostStats after = sim.hostMemoryStats();
        PinnedSim other = new PinnedSim();
        other.del(other.pin(s));
        other.synchronize();
        other.cudaEmptyCache();
        return List.of(
                Part.of("a", 1, Blanks.size("q7.3.a.allocated", after.allocatedBytes(), Bytes::parse),
                        Blanks.size("q7.3.a.active", after.activeBytes(), Bytes::parse)),
                Part.of("b", 1, Blanks.size("q7.3.b.returned", sim.emptyHostCache(), Bytes::parse)),
                Part.of("c", 1, Blanks.size("q7.3.c.allocated", other.hostMemoryStats().allocatedBytes(),
                        Bytes::parse)));
    }
}
