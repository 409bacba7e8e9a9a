package vramlab.ch07.exercises;

import static vramlab.units.Bytes.readable;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.driver.DeviceBuffer;
import vramlab.kit.Exercise;
import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;

/**
 * Exercise: five pinned tensors, each with its own history (kept, deleted unused, deleted after
 * a copy that finished, deleted while its copy is still queued, a staging buffer a graph
 * captured); predict what {@code empty_host_cache()} returns and what stays pinned.
 */
public final class WhatEmptyHostCacheReturns implements Exercise {
    /** A tensor's history before {@code empty_host_cache()}. */
    enum History {
        KEPT("kept (still referenced)"),
        DELETED_UNUSED("deleted, never copied"),
        COPIED_THEN_SYNCED("copied to the GPU, synchronize(), deleted"),
        DELETED_WHILE_QUEUED("copied behind a 30 ms kernel, deleted at once, no synchronize"),
        CAPTURED_STAGING("allocated in a CUDA graph capture, a D2H copy captured into it, deleted");

        final String words;
        History(String words) { this.words = words; }
    }

    record Tensor(String name, long size, History history) {}

    /** What the simulator says. */
    record Outcome(long released, long stillPinned, List<String> stillPinnedNames) {}

    @Override public String title() { return "What does empty_host_cache() give back?"; }

    static List<Tensor> tensors(long seed) {
        Random r = new Random(seed);
        List<Tensor> out = new ArrayList<>();
        History[] all = History.values();
        for (int i = 0; i < 5; i++) {
            long size = (1 + r.nextInt(48)) * (1L << 20) + (r.nextBoolean() ? 0 : 4096);
            out.add(new Tensor("t" + i, size, all[r.nextInt(all.length)]));
        }
        return out;
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("Five pinned tensors (torch.empty(n, pin_memory=True), default options), "
                + "each with its history:\n");
        for (Tensor t : tensors(seed)) {
            sb.append(String.format("  %s: %-10s %s%n", t.name(), readable(t.size()), t.history().words));
        }
        return sb.append("All on one stream: the synchronized copies first, then the 30 ms kernel, then the queued\n")
                 .append("copies and the deletes. Then the program\n")
                 .append("calls torch.accelerator.empty_host_cache(). How many bytes does it return to the OS,\n")
                 .append("and which tensors' blocks stay pinned (how many bytes)?").toString();
    }

    static Outcome solve(long seed) {
        PinnedSim sim = new PinnedSim();
        List<Tensor> ts = tensors(seed);
        List<HostBlock> blocks = new ArrayList<>();
        for (Tensor t : ts) {
            if (t.history() == History.CAPTURED_STAGING) {
                DeviceBuffer src = sim.cuda(t.size());
                HostBlock[] b = new HostBlock[1];
                sim.capture(() -> {
                    b[0] = sim.pin(t.size());
                    sim.copyToHost(b[0], src);
                });
                blocks.add(b[0]);
            } else {
                blocks.add(sim.pin(t.size()));
            }
        }
        for (int i = 0; i < ts.size(); i++) {
            if (ts.get(i).history() == History.COPIED_THEN_SYNCED) {
                sim.copyToDevice(sim.cuda(ts.get(i).size()), blocks.get(i));
                sim.synchronize();
                sim.del(blocks.get(i));
            }
        }
        sim.kernel("30 ms kernel", 30_000_000);
        for (int i = 0; i < ts.size(); i++) {
            switch (ts.get(i).history()) {
                case DELETED_WHILE_QUEUED -> {
                    sim.copyToDevice(sim.cuda(ts.get(i).size()), blocks.get(i));
                    sim.del(blocks.get(i));
                }
                case DELETED_UNUSED, CAPTURED_STAGING -> sim.del(blocks.get(i));
                default -> { }
            }
        }
        long released = sim.emptyHostCache();
        sim.checkInvariants();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < ts.size(); i++) {
            if (sim.allocator().blocks().contains(blocks.get(i))) names.add(ts.get(i).name());
        }
        return new Outcome(released, sim.host().pinnedBytes(), names);
    }

    @Override
    public String answer(long seed) {
        Outcome o = solve(seed);
        return String.format("empty_host_cache() returns %s; still pinned: %s (%s)%n"
                + "(only blocks on a free list go back, at their rounded size: a kept block, one whose copy\n"
                + "is still queued and a graph's staging buffer all stay)", readable(o.released()),
                o.stillPinnedNames().isEmpty() ? "nothing" : String.join(", ", o.stillPinnedNames()),
                readable(o.stillPinned()));
    }
}
