package vramlab.ch05.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Freeing a block does not unmap its pages; {@code empty_cache()} (or the out-of-memory retry)
 * unmaps the pages lying wholly inside free blocks, and a page shared with a live block stays
 * ({@code release_cached_blocks} CCA:2772-2797, its {@code release_blocks} 2916-2940 and
 * {@code unmap_block} 2850-2915, c10/cuda/CUDACachingAllocator.cpp @001074d). The prompt leaves
 * {@code garbage_collection_threshold} unset, so no collection runs between the calls.
 */
public final class WhenPagesGoBack implements Question {
    static final long DEVICE = mib(1024);

    /** When the pages under a freed block go back to the driver. */
    public enum Released { WHEN_THE_BLOCK_IS_FREED, AT_THE_NEXT_ALLOCATION, ON_EMPTY_CACHE_OR_OOM_RETRY,
        ONLY_WHEN_THE_PROCESS_EXITS }

    @Override public String id() { return "q5.4"; }
    @Override public String notesSection() { return "Shrinking: empty_cache unmaps pages"; }
    @Override public String title() { return "When the pages go back: free, empty_cache, and a shared page"; }

    /** {x, y}: the practice variant's 60 MiB tensor (and a 10 MiB one for part d), or this student's. */
    static long[] sizes(Variant v) {
        if (v.isSeed()) return new long[] {mib(60), mib(10)};
        return new long[] {v.between("x", mib(10) + 1, mib(120)), v.between("y", mib(1) + 1, mib(30))};
    }

    @Override
    public String prompt(Variant v) {
        long[] s = sizes(v);
        return "A fresh process on a card of " + Bytes.toyMiB(DEVICE) + " with " + Expandable.CONF + ":\n"
                + "  x = alloc(" + s[0] + "); free(x);   (x: " + Bytes.readable(s[0]) + ")\n"
                + "(a) How much memory is reserved now?\n"
                + "(b) When do the pages that were under x go back to the driver?\n"
                + "(c) Then torch.cuda.empty_cache(): how much is reserved now?\n"
                + "(d) On another fresh process: x = alloc(" + s[0] + "); y = alloc(" + s[1] + "); free(x);\n"
                + "    empty_cache().   (y: " + Bytes.readable(s[1]) + ")   How much is reserved now?";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] s = sizes(v);
        CachingAllocator one = Expandable.on(DEVICE);
        one.free(one.alloc(s[0]));
        long afterFree = one.reserved();
        one.emptyCache();
        long afterEmpty = one.reserved();
        return List.of(
                Part.of("a", 1, Blanks.size("q5.4.a.reserved", afterFree, Bytes::parse)),
                Part.of("b", 1, Blanks.choice("q5.4.b.when", Released.class)),
                Part.of("c", 1, Blanks.size("q5.4.c.reserved", afterEmpty, Bytes::parse)),
                Part.of("d", 1, Blanks.size("q5.4.d.reserved", sharedPage(s).reserved(), Bytes::parse)));
    }

    /** Part (d) replayed: y keeps the page it shares with x's end. */
    static CachingAllocator sharedPage(long[] s) {
        CachingAllocator two = Expandable.on(DEVICE);
        Block x = two.alloc(s[0]);
        two.alloc(s[1]);
        two.free(x);
        two.emptyCache();
        return two;
    }
}
