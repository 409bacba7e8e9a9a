package vramlab.ch05.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Segment;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * A small and a large tensor on a fresh process with expandable segments: each pool gets its
 * own reservation and pages of its own size (2 MiB small, 20 MiB large).
 */
public final class TwoPools implements Question {
    @Override public String id() { return "q5.1"; }
    @Override public String notesSection() { return "One reservation per (pool, stream), pages on demand"; }
    @Override
    public String title() { return "Two pools, two page sizes: what a first small and large tensor reserve"; }

    /** {device, small request, large request}: the practice variant's 1 GiB card, 100 B and 1.5 MiB. */
    static long[] numbers(Variant v) {
        if (v.isSeed()) return new long[] {mib(1024), 100, mib(3) / 2};
        return new long[] {
            mib(v.pick("device", List.of(1024L, 2048L, 4096L, 6144L, 8192L, 12288L, 16384L))),
            v.between("small", 1, mib(1)),
            v.between("large", mib(1) + 1, mib(50)),
        };
    }

    @Override
    public String prompt(Variant v) {
        long[] n = numbers(v);
        return "A fresh process on a card of " + Bytes.toyMiB(n[0]) + " runs with PYTORCH_CUDA_ALLOC_CONF="
                + Expandable.CONF + ".\n"
                + "It allocates alloc(" + n[1] + ") and then alloc(" + n[2] + ").   ("
                + Bytes.readable(n[1]) + ", " + Bytes.readable(n[2]) + ")\n"
                + "(a) How much memory is reserved now (reserved_bytes.all.current)?\n"
                + "(b) How much of it does each pool hold (reserved_bytes.small_pool / .large_pool)?\n"
                + "(c) How much virtual address space does the large pool's reservation span?";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] n = numbers(v);
        CachingAllocator a = Expandable.on(n[0]);
        a.alloc(n[1]);
        a.alloc(n[2]);
        return List.of(
                Part.of("a", 1, Blanks.size("q5.1.a.reserved", a.reserved(), Bytes::parse)),
                Part.of("b", 1,
                        Blanks.size("q5.1.b.small", reserved(a, PoolKind.SMALL), Bytes::parse),
                        Blanks.size("q5.1.b.large", reserved(a, PoolKind.LARGE), Bytes::parse)),
                Part.of("c", 1, Blanks.size("q5.1.c.span", segment(a, PoolKind.LARGE).size(), Bytes::parse)));
    }

    private static long reserved(CachingAllocator a, PoolKind pool) {
        return a.memoryStats().asMap().get("reserved_bytes." + pool.statName() + ".current");
    }

    private static Segment segment(CachingAllocator a, PoolKind pool) {
        return a.segments().stream().filter(s -> s.pool() == pool).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + pool + " segment: " + a));
    }
}
