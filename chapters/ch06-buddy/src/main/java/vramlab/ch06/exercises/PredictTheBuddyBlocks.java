package vramlab.ch06.exercises;

import java.util.List;

import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: a seeded run of allocations and frees on a 16 MiB buddy pool; predict the offset
 * each allocation gets and the pool's buddyinfo at the end. The answer replays the run.
 */
public final class PredictTheBuddyBlocks implements Exercise {
    @Override public String title() { return "Predict the buddy blocks and buddyinfo"; }

    static List<BuddyRun.Step> steps(long seed) { return BuddyRun.steps(seed, 7, 4); }

    @Override
    public String prompt(long seed) {
        return "A buddy pool of " + Bytes.readable(BuddyRun.POOL) + ", blocks from 1 MiB (order 20) to 16 MiB "
                + "(order 24), lowest\naddress first within an order. A program does, in order:\n"
                + BuddyRun.program(steps(seed))
                + "At which offset does each allocation land (or is it refused)? Write the pool's\n"
                + "buddyinfo line at the end (free blocks of 1, 2, 4, 8 and 16 MiB).";
    }

    @Override
    public String answer(long seed) {
        BuddyRun.Replay r = BuddyRun.replay(steps(seed));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < r.offsets().size(); i++) {
            long off = r.offsets().get(i);
            sb.append("t").append(i).append(": ").append(off < 0 ? "refused" : "+" + Bytes.readable(off)).append('\n');
        }
        return sb.append(r.pool().map()).append('\n').append(r.pool().buddyinfo()).toString();
    }
}
