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

/** Rule 5: a sequence holds ceil(tokens / block size) blocks, before and after decoding. */
public final class TokensToBlocks implements Question {
    @Override public String id() { return "q6.3"; }
    @Override public String notesSection() { return "Rule 5: blocks are ceil(tokens / 16)"; }
    @Override public String title() { return "Tokens to blocks: a prompt, then decode steps"; }

    /** {block size, prompt tokens, decode steps}; the practice variant's 17 tokens in 16-token blocks. */
    static int[] sizes(Variant v) {
        if (v.isSeed()) return new int[] {16, 17, 16};
        return new int[] {v.pick("block-size", List.of(8, 16, 32)), (int) v.between("prompt", 1, 300),
            (int) v.between("decode", 1, 100)};
    }

    @Override
    public String prompt(Variant v) {
        int[] s = sizes(v);
        return "A paged KV cache has blocks of " + s[0] + " tokens. A request's prompt of " + s[1] + " tokens is\n"
                + "admitted (allocate_slots for " + s[1] + " tokens); then it decodes " + s[2]
                + " tokens, one per step.\n"
                + "(a) How many blocks does the request hold right after admission?\n"
                + "(b) How many token slots of those blocks are empty then?\n"
                + "(c) How many blocks does it hold after the " + s[2] + " decode steps?";
    }

    @Override
    public List<Part> parts(Variant v) {
        int[] s = sizes(v);
        int blocks = (s[1] + s[2]) / s[0] + 3;
        KvCacheManager kv = new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), blocks, s[0], 1));
        kv.allocateSlots("r", s[1]);
        int admitted = kv.blocks("r").size();
        long empty = kv.slotsHeld() - kv.tokensHeld();
        for (int i = 0; i < s[2]; i++) kv.allocateSlots("r", 1);
        return List.of(
                Part.of("a", 1, Blanks.number("q6.3.a.blocks", admitted)),
                Part.of("b", 1, Blanks.number("q6.3.b.empty-slots", empty)),
                Part.of("c", 1, Blanks.number("q6.3.c.blocks-after", kv.blocks("r").size())));
    }
}
