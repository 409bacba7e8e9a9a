package vramlab.ch03.exercises;

import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.Sim;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: segments of both pools, each filled exactly by its blocks, then a seeded subset of
 * the blocks freed; predict reserved before and after {@code emptyCache()} and what it
 * releases. The answer replays the run on the toy policy.
 */
public final class WhatEmptyCacheReleases implements Exercise {
    static final long DEVICE = mib(256);

    /** One segment's worth of requests, and which of them are freed before emptyCache. */
    record Row(List<Long> sizes, List<Boolean> freed) {}

    @Override public String title() { return "What emptyCache() gives back"; }

    static List<Row> rows(long seed) {
        Random r = new Random(seed);
        List<Row> rows = new ArrayList<>();
        int n = 3 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            List<Long> sizes = new ArrayList<>();
            if (r.nextInt(3) == 0) {
                for (int k = 0; k < 4; k++) sizes.add(kib(512));          // fills one 2 MiB small segment
            } else {
                long first = mib(2) * (1 + r.nextInt(9));                 // 2 ... 18 MiB
                sizes.add(first);
                sizes.add(mib(20) - first);                               // fills one 20 MiB segment
            }
            List<Boolean> freed = new ArrayList<>();
            for (int k = 0; k < sizes.size(); k++) freed.add(r.nextInt(3) != 0);
            rows.add(new Row(sizes, freed));
        }
        return rows;
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("On a toy card of " + Bytes.readable(DEVICE)
                + " (chapter 3's simplified policy), each row allocates its blocks in order\n"
                + "(together they fill one fresh segment exactly), and the blocks marked * are freed:\n");
        int i = 0;
        for (Row row : rows(seed)) {
            sb.append("  row ").append(i++).append(':');
            for (int k = 0; k < row.sizes().size(); k++) {
                sb.append(' ').append(Bytes.readable(row.sizes().get(k))).append(row.freed().get(k) ? "*" : "");
            }
            sb.append('\n');
        }
        return sb.append("Then the program calls emptyCache(). (a) What is reserved before the call? (b) How many\n")
                 .append("bytes does it release, and from which rows? (c) What is reserved after it?").toString();
    }

    /** {reserved before, released, reserved after}, from the simulator. */
    static long[] run(long seed) {
        Sim sim = new Sim(DEVICE);
        List<Block> toFree = new ArrayList<>();
        for (Row row : rows(seed)) {
            for (int k = 0; k < row.sizes().size(); k++) {
                Block b = sim.alloc(row.sizes().get(k));
                if (row.freed().get(k)) toFree.add(b);
            }
        }
        toFree.forEach(sim::free);
        long before = sim.reserved();
        long released = sim.emptyCache();
        return new long[] {before, released, sim.reserved()};
    }

    @Override
    public String answer(long seed) {
        long[] r = run(seed);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        for (Row row : rows(seed)) {
            boolean all = row.freed().stream().allMatch(f -> f);
            sb.append("row ").append(i++).append(all ? ": every block freed, the segment goes back\n"
                    : ": a live block pins the segment, all of it stays reserved\n");
        }
        return sb.append("reserved before: ").append(Bytes.readable(r[0])).append('\n')
                 .append("emptyCache() releases: ").append(Bytes.readable(r[1])).append('\n')
                 .append("reserved after: ").append(Bytes.readable(r[2])).toString();
    }
}
