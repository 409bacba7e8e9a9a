package vramlab.ch07.exercises;

import static vramlab.units.Bytes.readable;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.kit.Exercise;
import vramlab.pinned.HostBlock;
import vramlab.pinned.HostStats;
import vramlab.pinned.PinnedSim;

/**
 * Exercise: a seeded run of {@code pin_memory=True} allocations and deletes, no copies; for
 * each request, predict the block it gets (its size, and whether a free block is reused or
 * {@code cudaHostAlloc} is called), then what the allocator owns and has checked out.
 */
public final class PredictTheBlocks implements Exercise {
    /** One step: a request of {@code size} bytes, or the delete of the {@code victim}-th live tensor. */
    record Step(long size, int victim) {
        boolean isPin() { return size > 0; }
    }

    /** What the simulator says: per request, the block size and whether it was reused; then the stats. */
    record Outcome(List<Long> blockSizes, List<Boolean> reused, long owned, long checkedOut, long hostAllocs) {}

    @Override public String title() { return "Predict the blocks of a run of pins and deletes"; }

    static List<Step> steps(long seed) {
        Random r = new Random(seed);
        List<Step> steps = new ArrayList<>();
        int live = 0;
        for (int i = 0; i < 9; i++) {
            if (live > 1 && r.nextBoolean()) {
                steps.add(new Step(0, r.nextInt(live)));
                live--;
            } else {
                long size = r.nextBoolean() ? (1 + r.nextInt(6)) * (1L << 20) + r.nextInt(3) * 512 * 1024L
                        : (1 + r.nextInt(4)) * 100 * 1024L;
                steps.add(new Step(size, -1));
                live++;
            }
        }
        return steps;
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("PyTorch's pinned allocator with default options; a program does, in "
                + "order (no copies, so no events):\n");
        List<String> names = new ArrayList<>();
        int next = 0;
        for (Step s : steps(seed)) {
            if (s.isPin()) {
                String name = "t" + next++;
                names.add(name);
                sb.append("  ").append(name).append(" = torch.empty(").append(readable(s.size()))
                  .append(", pin_memory=True)\n");
            } else {
                sb.append("  del ").append(names.remove(s.victim())).append('\n');
            }
        }
        return sb.append("For each request: what size is its block, and is it a reused free block or a new\n")
                 .append("cudaHostAlloc? At the end: how much does the allocator own, how much is checked\n")
                 .append("out, and how many times was cudaHostAlloc called?").toString();
    }

    static Outcome solve(long seed) {
        PinnedSim sim = new PinnedSim();
        List<HostBlock> live = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        List<Boolean> reused = new ArrayList<>();
        for (Step s : steps(seed)) {
            if (s.isPin()) {
                long calls = sim.host().hostAllocCalls();
                HostBlock b = sim.pin(s.size());
                live.add(b);
                sizes.add(b.size());
                reused.add(sim.host().hostAllocCalls() == calls);
            } else {
                sim.del(live.remove(s.victim()));
            }
            sim.checkInvariants();
        }
        HostStats st = sim.hostMemoryStats();
        return new Outcome(sizes, reused, st.allocatedBytes(), st.activeBytes(), st.numHostAlloc());
    }

    @Override
    public String answer(long seed) {
        Outcome o = solve(seed);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        for (Step s : steps(seed)) {
            if (!s.isPin()) continue;
            sb.append(String.format("  t%d: %s -> a %s block, %s%n", i, readable(s.size()),
                    readable(o.blockSizes().get(i)), o.reused().get(i) ? "reused from its free list"
                            : "new cudaHostAlloc"));
            i++;
        }
        return sb.append(String.format("owned %s, checked out %s, cudaHostAlloc x%d%n"
                        + "(each request rounds up to a power of two; a free block serves only a request that"
                        + " rounds to its exact size, newest freed first)", readable(o.owned()),
                readable(o.checkedOut()), o.hostAllocs())).toString();
    }
}
