package vramlab.ch01.quiz;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Aperture;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/**
 * Rule 4: after cudaDeviceEnablePeerAccess a walk can end on another GPU. The practice variant asks for the
 * aperture code of GPU 0's PTE for a page of GPU 1; a student gets a bigger machine where one
 * GPU enables several peers, and is asked for the slot too.
 */
public final class PeerAperture implements Question {
    /** Whether two PTEs point at the same physical address. */
    public enum Same { YES, NO }

    @Override public String id() { return "q1.6"; }
    @Override public String notesSection() { return "Rule 4: after cudaDeviceEnablePeerAccess, the walk can end on another GPU"; }
    @Override public String title() { return "A walk that ends on another GPU: the peer PTE"; }

    /** How many GPUs, which one enables access, to which peers in which order, and p's owner. */
    record Machine(int gpus, int from, List<Integer> enables, int owner) {}

    static Machine machine(Variant v) {
        if (v.isSeed()) return new Machine(2, 0, List.of(1), 1);
        int n = (int) v.between("gpus", 3, 8);
        int from = (int) v.between("from", 0, n - 1);
        List<Integer> others = new ArrayList<>();
        for (int g = 0; g < n; g++) if (g != from) others.add(g);
        Collections.shuffle(others, v.random("order"));
        int peers = (int) v.between("peers", 1, others.size());
        List<Integer> enables = List.copyOf(others.subList(0, peers));
        return new Machine(n, from, enables, v.pick("owner", enables));
    }

    @Override
    public String prompt(Variant v) {
        Machine m = machine(v);
        int from = m.from();
        int owner = m.owner();
        return "A machine has " + m.gpus() + " GPUs (ids 0.." + (m.gpus() - 1) + "). "
                + "Process 3 opens a context on each.\n"
                + "Its context on GPU " + owner + " calls cudaMalloc(2 MiB) and gets the pointer p. "
                + "Then its context\n"
                + "on GPU " + from + " calls cudaDeviceEnablePeerAccess for GPU " + join(m.enables())
                + (m.enables().size() > 1 ? ", in that order" : "") + ".\n"
                + "(The simulator gives a GPU's peers the slots 0, 1, 2... in the order they are first "
                + "enabled;\nreal drivers choose the slot themselves.)\n"
                + "(a) The aperture of GPU " + from + "'s PTE for p, and the 2-bit code the PTE's "
                + "APERTURE field holds;\n"
                + "(b) the peer slot that PTE carries;\n"
                + "(c) the aperture of GPU " + owner + "'s own PTE for p, and whether both PTEs hold "
                + "the same\n    physical address.";
    }

    static String join(List<Integer> ids) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ids.size(); i++) {
            b.append(i == 0 ? "" : i == ids.size() - 1 ? " and " : ", ").append(ids.get(i));
        }
        return b.toString();
    }

    @Override
    public List<Part> parts(Variant v) {
        Machine m = machine(v);
        List<Gpu> gpus = Gpu.machine(m.gpus(), gib(1), 0);
        List<GpuProcess> ctx = new ArrayList<>();
        for (Gpu g : gpus) ctx.add(g.open(3, "x", 0));
        long p = ctx.get(m.owner()).cudaMalloc(mib(2));
        for (int peer : m.enables()) ctx.get(m.from()).cudaDeviceEnablePeerAccess(ctx.get(peer));
        Pte there = ctx.get(m.from()).addressSpace().find(p, PageSize.SIZE_2M);
        Pte own = ctx.get(m.owner()).addressSpace().find(p, PageSize.SIZE_2M);
        for (Gpu g : gpus) g.checkInvariants();
        Aperture ap = there.aperture();
        Same same = there.address() == own.address() ? Same.YES : Same.NO;
        return List.of(
                Part.of("a", 1, Blanks.choice("q1.6.a.aperture", ap), Blanks.number("q1.6.a.code", ap.code())),
                Part.of("b", 1, Blanks.number("q1.6.b.slot", there.peer())),
                Part.of("c", 1, Blanks.choice("q1.6.c.ownAperture", own.aperture()),
                        Blanks.choice("q1.6.c.samePhysical", same)));
    }
}
