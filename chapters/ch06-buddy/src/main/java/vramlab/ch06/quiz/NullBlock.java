package vramlab.ch06.quiz;

import static vramlab.units.Bytes.gib;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/** Rule 6: block 0 is the null block, and admission is all blocks or none. Practice variant: 10 blocks. */
public final class NullBlock implements Question {
    /** Whether {@code allocate_slots} admitted the request. */
    public enum Admitted { YES, NO }

    @Override public String id() { return "q6.5"; }
    @Override public String notesSection() { return "\"A pool of N blocks serves N blocks\""; }
    @Override public String title() { return "The null block, and all or nothing"; }

    /** {blocks in the pool, block size, first request's tokens, second request's tokens}. */
    static int[] sizes(Variant v) {
        if (v.isSeed()) return new int[] {10, 16, 100, 40};
        int blocks = (int) v.between("blocks", 4, 40);
        int size = v.pick("block-size", List.of(8, 16, 32));
        int usable = (blocks - 1) * size;
        return new int[] {blocks, size, (int) v.between("first", 1, usable), (int) v.between("second", 1, usable)};
    }

    @Override
    public String prompt(Variant v) {
        int[] s = sizes(v);
        return "A vLLM-style block pool has " + s[0] + " blocks of " + s[1] + " tokens, all free at start-up.\n"
                + "(a) How many blocks can requests hold at once?\n"
                + "(b) How many tokens long can a single request be, and still be admitted, on the fresh pool?\n"
                + "(c) Request r1 of " + s[2] + " tokens is admitted. How many blocks are free then? Is request r2\n"
                + "    of " + s[3] + " tokens admitted next (YES or NO)?";
    }

    @Override
    public List<Part> parts(Variant v) {
        int[] s = sizes(v);
        KvCacheManager kv = new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), s[0], s[1], 1));
        int usable = kv.pool().numFreeBlocks();
        long longest = kv.largestServableTokens();
        if (!kv.allocateSlots("r1", s[2])) throw new IllegalStateException("r1 must fit: " + kv.map());
        int freeAfter = kv.pool().numFreeBlocks();
        Admitted second = kv.allocateSlots("r2", s[3]) ? Admitted.YES : Admitted.NO;
        return List.of(
                Part.of("a", 1, Blanks.number("q6.5.a.usable", usable)),
                Part.of("b", 1, Blanks.number("q6.5.b.longest", longest)),
                Part.of("c", 1, Blanks.number("q6.5.c.free", freeAfter), Blanks.choice("q6.5.c.r2", second)));
    }
}
