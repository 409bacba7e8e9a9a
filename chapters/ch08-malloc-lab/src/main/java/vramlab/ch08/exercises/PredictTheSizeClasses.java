package vramlab.ch08.exercises;

import vramlab.contest.SegregatedFits;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;
import vramlab.units.SeededRandom;

/**
 * Exercise: for six seeded requests, which size class does the segregated-fits entry give each,
 * how large is its block, and how many bytes does it waste inside the block? The answer asks
 * the reference's {@link SegregatedFits#sizeClass}.
 */
public final class PredictTheSizeClasses implements Exercise {
    static long[] sizes(long seed) {
        SeededRandom r = new SeededRandom(seed);
        long[] s = new long[6];
        for (int i = 0; i < s.length; i++) s[i] = r.nextLong(1, 2 * Bytes.MiB);
        return s;
    }

    @Override public String title() { return "Predict the size classes"; }

    @Override
    public String prompt(long seed) {
        StringBuilder p = new StringBuilder("The segregated-fits entry's classes are 512 B x 2^c, c = 0..11 (512 B to 1 MiB);\n"
                + "a larger request takes whole 2 MiB pages. For each request give the class (-1 for large),\n"
                + "the block's size and the bytes wasted inside it:\n");
        for (long s : sizes(seed)) p.append("  alloc(").append(s).append(")\n");
        return p.toString();
    }

    @Override
    public String answer(long seed) {
        StringBuilder a = new StringBuilder();
        for (long s : sizes(seed)) {
            int c = SegregatedFits.sizeClass(s);
            long block = c < 0 ? Bytes.alignUp(s, SegregatedFits.SLAB) : SegregatedFits.classSize(c);
            a.append("alloc(").append(s).append("): class ").append(c).append(", block ").append(block)
                    .append(" B, waste ").append(block - s).append(" B\n");
        }
        return a.toString();
    }
}
