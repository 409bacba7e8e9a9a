package vramlab.ch07.quiz;

import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** Rule 1's other half: a free block serves only requests that round to exactly its size. */
public final class ExactSizeReuse implements Question {
    /** The three requests, by their labels in the prompt. */
    public enum Request { A, B, C }

    @Override public String id() { return "q7.2"; }
    @Override public String notesSection() { return "Rule 1: round up to a power of two"; }
    @Override public String title() { return "Exact-size reuse: which requests get a freed block"; }

    /** The freed tensor's size. */
    static long freed(Variant v) {
        return v.isSeed() ? 3 * MiB : v.between("freed", MiB + 1, 48 * MiB);
    }

    /**
     * The requests A, B, C: the practice variant's 2.5 MiB, 1 MiB, 4 MiB; otherwise one that rounds to the
     * freed block's size, one that rounds smaller, and a third that does either or rounds
     * larger, in an order drawn for the student.
     */
    static long[] requests(Variant v) {
        if (v.isSeed()) return new long[] {5 * MiB / 2, MiB, 4 * MiB};
        long block = Show.pow2Ceil(freed(v));
        List<Long> r = new ArrayList<>();
        r.add(v.between("same", block / 2 + 1, block));
        r.add(v.between("smaller", block / 8, block / 2));
        r.add(v.pick("third-kind", List.of("same", "larger")).equals("same")
                ? v.between("third-same", block / 2 + 1, block)
                : v.between("third-larger", block + 1, 2 * block));
        Collections.shuffle(r, v.random("order"));
        return r.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public String prompt(Variant v) {
        long f = freed(v);
        long[] r = requests(v);
        return "On a fresh PinnedSim: t = sim.pin(" + f + "L); sim.del(t);   (t: " + Bytes.readable(f)
                + ", no copy used it)\n"
                + "Three requests: (A) " + Bytes.readable(r[0]) + "   (B) " + Bytes.readable(r[1])
                + "   (C) " + Bytes.readable(r[2]) + "\n"
                + "(a) Which of A, B, C, each asked alone right after the del, get t's block back?\n"
                + "(b) allocated_bytes if instead, after the del, A, B and C are all pinned, in that order,\n"
                + "    and all kept.";
    }

    @Override
    public List<Part> parts(Variant v) {
        long f = freed(v);
        long[] r = requests(v);
        Set<Request> reuse = EnumSet.noneOf(Request.class);
        for (Request q : Request.values()) {
            PinnedSim sim = new PinnedSim();
            HostBlock t = sim.pin(f);
            sim.del(t);
            if (sim.pin(r[q.ordinal()]) == t) reuse.add(q);
        }
        PinnedSim all = new PinnedSim();
        all.del(all.pin(f));
        for (long size : r) all.pin(size);
        return List.of(
                Part.of("a", 1, Blanks.choices("q7.2.a.reuse", reuse, Request.class)),
                Part.of("b", 1, Blanks.size("q7.2.b.allocated", all.hostMemoryStats().allocatedBytes(),
                        Bytes::parse)));
    }
}
