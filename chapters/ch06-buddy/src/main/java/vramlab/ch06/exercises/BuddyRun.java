package vramlab.ch06.exercises;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.buddy.BuddyAllocator;
import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.driver.Gpu;
import vramlab.units.Bytes;

/**
 * A seeded run of allocations and frees on the chapter's 16 MiB buddy pool (1 MiB minimum
 * blocks), shared by the buddy exercises: the steps, and the same run replayed on the reference.
 */
final class BuddyRun {
    static final long POOL = mib(16);
    static final int MIN_ORDER = 20, MAX_ORDER = 24;

    /** An allocation of {@code size} bytes, or a free of the {@code victim}-th live block. */
    record Step(long size, int victim) {
        boolean isAlloc() { return size > 0; }
    }

    /** What the run did: each allocation's offset (-1 when refused), and the pool at the end. */
    record Replay(List<Long> offsets, BuddyAllocator pool) {}

    private BuddyRun() {}

    static BuddyAllocator pool() {
        return BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), POOL, MIN_ORDER, MAX_ORDER);
    }

    static List<Step> steps(long seed, int n, int maxMiB) {
        Random r = new Random(seed);
        List<Step> steps = new ArrayList<>();
        int live = 0;
        for (int i = 0; i < n; i++) {
            if (live > 1 && r.nextInt(3) == 0) {
                steps.add(new Step(0, r.nextInt(live)));
                live--;
            } else {
                long size = r.nextInt(4) == 0 ? mib(1) / 2 * (1 + r.nextInt(2 * maxMiB)) : mib(1 + r.nextInt(maxMiB));
                steps.add(new Step(size, -1));
                live++;
            }
        }
        return steps;
    }

    /**
     * Fills the pool with 1 MiB and 2 MiB blocks, then frees four to seven of them at random:
     * the shape that leaves much of the pool free in small blocks.
     */
    static List<Step> fillThenFree(long seed) {
        Random r = new Random(seed);
        List<Step> steps = new ArrayList<>();
        long used = 0;
        while (used < POOL) {
            long size = r.nextInt(3) == 0 && used + mib(2) <= POOL ? mib(2) : mib(1);
            steps.add(new Step(size, -1));
            used += size;
        }
        int live = steps.size();
        for (int k = 4 + r.nextInt(4); k > 0; k--) steps.add(new Step(0, r.nextInt(live--)));
        return steps;
    }

    /** The steps as a program: t0 = alloc(...), free(t0), ... */
    static String program(List<Step> steps) {
        StringBuilder sb = new StringBuilder();
        List<String> names = new ArrayList<>();
        int next = 0;
        for (Step s : steps) {
            if (s.isAlloc()) {
                String name = "t" + next++;
                names.add(name);
                sb.append("  ").append(name).append(" = alloc(").append(Bytes.readable(s.size())).append(")\n");
            } else {
                sb.append("  free(").append(names.remove(s.victim())).append(")\n");
            }
        }
        return sb.toString();
    }

    /** Replays the steps; a refused allocation records -1 and holds nothing. */
    static Replay replay(List<Step> steps) {
        BuddyAllocator b = pool();
        List<Long> offsets = new ArrayList<>();
        List<Long> live = new ArrayList<>();
        for (Step s : steps) {
            if (s.isAlloc()) {
                try {
                    long address = b.alloc(s.size());
                    offsets.add(address - b.base());
                    live.add(address);
                } catch (BuddyOutOfMemoryError e) {
                    offsets.add(-1L);
                    live.add(-1L);
                }
            } else {
                long address = live.remove(s.victim());
                if (address >= 0) b.free(address);
            }
        }
        b.checkInvariants();
        return new Replay(offsets, b);
    }
}
