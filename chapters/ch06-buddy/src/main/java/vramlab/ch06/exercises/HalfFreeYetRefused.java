package vramlab.ch06.exercises;

import java.util.List;

import vramlab.buddy.BuddyAllocator;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: after a seeded run on a 16 MiB buddy pool, how much is free, what is the largest
 * request that succeeds now, what is the unusable free space index for 4 MiB, and what is the
 * largest request a compaction would make room for? The answer replays the run.
 */
public final class HalfFreeYetRefused implements Exercise {
    /** What the pool can serve after the run. */
    record Capacity(long free, long largestNow, int unusable4MiB, long largestAfterCompaction, String map) {}

    @Override public String title() { return "Free bytes, the largest request, and compaction"; }

    static List<BuddyRun.Step> steps(long seed) { return BuddyRun.fillThenFree(seed); }

    @Override
    public String prompt(long seed) {
        return "A buddy pool of " + Bytes.readable(BuddyRun.POOL) + ", blocks from 1 MiB (order 20) to 16 MiB "
                + "(order 24), lowest\naddress first within an order. A program does, in order:\n" + BuddyRun.program(steps(seed))
                + "(a) How many bytes are free? (b) What is the largest request that succeeds now?\n"
                + "(c) What is the unusable free space index for a 4 MiB request, in thousandths?\n"
                + "(d) After a compaction that packs the live blocks into the lowest addresses, what is\n"
                + "    the largest request that succeeds?";
    }

    static Capacity capacity(long seed) {
        BuddyAllocator b = BuddyRun.replay(steps(seed)).pool();
        long afterCompaction = 0;
        for (int o = BuddyRun.MAX_ORDER; o >= BuddyRun.MIN_ORDER; o--) {
            if (b.fitsAfterCompaction(1L << o)) { afterCompaction = 1L << o; break; }
        }
        return new Capacity(b.freeBytes(), b.largestFreeBlock(), b.unusableIndex(22), afterCompaction, b.map());
    }

    @Override
    public String answer(long seed) {
        Capacity c = capacity(seed);
        return c.map() + "\n(a) free: " + Bytes.readable(c.free()) + "\n(b) largest request now: "
                + Bytes.readable(c.largestNow()) + "\n(c) unusable index for 4 MiB: " + c.unusable4MiB()
                + "/1000\n(d) largest request after compaction: " + Bytes.readable(c.largestAfterCompaction());
    }
}
