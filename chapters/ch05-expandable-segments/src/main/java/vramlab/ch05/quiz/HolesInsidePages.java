package vramlab.ch05.quiz;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.PyTorchPolicy;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Expandable segments do not cure holes smaller than a page: free holes between live tensors
 * inside 20 MiB pages cannot be unmapped, so the retry has no page to move.
 */
public final class HolesInsidePages implements Question {
    static final long PAGE = PyTorchPolicy.LARGE_BUFFER;

    /** Whether the request is served. */
    public enum Outcome { SUCCEEDS, OUT_OF_MEMORY }

    @Override public String id() { return "q5.5"; }
    @Override public String notesSection() { return "\"Expandable segments end fragmentation\""; }
    @Override public String title() { return "Holes inside a page: what expandable segments cannot cure"; }

    /** The workload in bytes: {@code pairs} times (hole, live), on a card of whole 20 MiB pages. */
    record Fill(long pairs, long hole, long live, long device, long request) {}

    static Fill fill(Variant v) {
        if (v.isSeed()) return new Fill(4, mib(9), mib(9), mib(80), mib(16));
        long n = v.between("pairs", 3, 6);
        long h = mib(v.between("hole", 4, 15));
        long l = mib(v.between("live", 2, 15));
        long used = n * (h + l);
        long device = (used + PAGE - 1) / PAGE * PAGE;        // every page mapped by the fill
        long tail = device - used;
        long least = (Math.max(h, tail) + mib(1)) / mib(1);  // more than any one hole or the tail
        long request = mib(v.between("request", least, (n * h + tail) / mib(1)));
        return new Fill(n, h, l, device, request);
    }

    @Override
    public String prompt(Variant v) {
        Fill f = fill(v);
        return "A fresh process on a card of " + Bytes.toyMiB(f.device()) + " with " + Expandable.CONF
                + "\nallocates, " + f.pairs() + " times,\n"
                + "  x[i] = alloc(" + Bytes.readable(f.hole()) + "); alloc(" + Bytes.readable(f.live()) + ");\n"
                + "then frees every x[i]. Now it asks for alloc(" + Bytes.readable(f.request()) + ").\n"
                + "(a) Does that request succeed?\n"
                + "(b) How many 20 MiB pages can the out-of-memory retry unmap to make room?\n"
                + "(c) How many bytes are reserved but not allocated just before the request?\n"
                + "(d) The largest request, in bytes, that would succeed instead.";
    }

    /** The fill and the frees, replayed on a fresh allocator. */
    static CachingAllocator replay(Fill f) {
        CachingAllocator a = Expandable.on(f.device());
        List<Block> holes = new ArrayList<>();
        for (int i = 0; i < f.pairs(); i++) {
            holes.add(a.alloc(f.hole()));
            a.alloc(f.live());
        }
        for (Block b : holes) a.free(b);
        return a;
    }

    /** True when {@code size} is served right after the frees. */
    static boolean succeeds(Fill f, long size) {
        try {
            replay(f).alloc(size);
            return true;
        } catch (CudaOutOfMemoryError e) {
            return false;
        }
    }

    /** The largest request served right after the frees: a binary search over replays. */
    static long largest(Fill f) {
        long lo = 0;
        long hi = f.device();                              // never served: more than the card
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (succeeds(f, mid)) lo = mid; else hi = mid;
        }
        return lo;
    }

    @Override
    public List<Part> parts(Variant v) {
        Fill f = fill(v);
        CachingAllocator a = replay(f);
        long cached = a.reserved() - a.allocated();
        Outcome outcome = succeeds(f, f.request()) ? Outcome.SUCCEEDS : Outcome.OUT_OF_MEMORY;
        long before = a.reserved();
        a.emptyCache();                                    // what the retry releases first
        long unmapped = (before - a.reserved()) / PAGE;
        return List.of(
                Part.of("a", 1, Blanks.choice("q5.5.a.outcome", outcome)),
                Part.of("b", 1, Blanks.number("q5.5.b.pages", unmapped)),
                Part.of("c", 1, Blanks.size("q5.5.c.cached", cached, Bytes::parse)),
                Part.of("d", 1, Blanks.size("q5.5.d.largest", largest(f), Bytes::parse)));
    }
}
