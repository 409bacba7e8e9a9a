package vramlab.ch06.quiz;

import static vramlab.units.Bytes.gib;

import java.util.List;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Rule 1's cost: every size from 1 to 2^k bytes once through a binary buddy, the exact form of
 * "sizes uniform on 1..2^k" (the practice variant's 1..1024). The waste is close to a quarter
 * (4/3 overallocation: "Internal Fragmentation in a Class of Buddy Systems").
 */
public final class RoundingTax implements Question {
    /** The share of the allocated bytes that no request asked for, to the nearest of four. */
    public enum Share {
        ABOUT_0_PERCENT(0), ABOUT_12_PERCENT(12), ABOUT_25_PERCENT(25), ABOUT_50_PERCENT(50);

        final int percent;

        Share(int percent) { this.percent = percent; }

        static Share nearest(double fraction) {
            Share best = ABOUT_0_PERCENT;
            for (Share s : values()) if (Math.abs(100 * fraction - s.percent) < Math.abs(100 * fraction - best.percent)) best = s;
            return best;
        }
    }

    @Override public String id() { return "q6.4"; }
    @Override public String notesSection() { return "Rule 1: round up to a power of two"; }
    @Override public String title() { return "The rounding tax of a binary buddy"; }

    /** {k, one request}: sizes run over 1..2^k; the single request is asked about first. */
    static long[] sizes(Variant v) {
        if (v.isSeed()) return new long[] {10, 300};
        long k = v.between("k", 6, 12);
        return new long[] {k, v.between("one", 2, 1L << k)};
    }

    @Override
    public String prompt(Variant v) {
        long[] s = sizes(v);
        long n = 1L << s[0];
        return "A binary buddy pool of " + n + " bytes has 1-byte minimum blocks.\n"
                + "(a) What block size does a request of " + s[1] + " B get?\n"
                + "(b) Every size from 1 to " + n + " bytes is requested once, one at a time (each block is\n"
                + "    freed before the next request). What is the sum of the block sizes handed out, in bytes?\n"
                + "(c) Which share of those bytes is waste (not asked for)? ABOUT_0_PERCENT, ABOUT_12_PERCENT,\n"
                + "    ABOUT_25_PERCENT or ABOUT_50_PERCENT.";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] s = sizes(v);
        int k = (int) s[0];
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), 1L << k, 0, k);
        long a = b.alloc(s[1]);
        long block = b.allocated();
        b.free(a);
        long requested = 0, allocated = 0;
        for (long size = 1; size <= 1L << k; size++) {
            long addr = b.alloc(size);
            requested += b.requested();
            allocated += b.allocated();
            b.free(addr);
        }
        return List.of(
                Part.of("a", 1, Blanks.size("q6.4.a.block", block, Bytes::parse)),
                Part.of("b", 1, Blanks.number("q6.4.b.allocated", allocated)),
                Part.of("c", 1, Blanks.choice("q6.4.c.waste", Share.nearest(1 - (double) requested / allocated))));
    }
}
