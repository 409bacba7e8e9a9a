package vramlab.ch06.quiz;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * What a token costs and how many blocks a KV budget buys: per token, every layer keeps one key
 * and one value vector per KV head, {@code 2 x layers x kvHeads x headDim x dtypeBytes}; vLLM
 * cuts its budget into {@code budget // blockBytes} blocks, block 0 being the null block. The
 * practice variant: Llama-3-8B in bf16, 128 KiB per token (the old q6.7).
 */
public final class KvBytesPerToken implements Question {

    /**
     * A model's KV shape. The same four as the chapter's {@code ModelShape} presets (Hugging Face
     * config.json files; OPT-13B from the vLLM paper), kept here because a question may use only
     * the cores and its own package; a test checks that the two lists agree.
     */
    record Shape(String name, int layers, int kvHeads, int headDim) {}

    static final List<Shape> MODELS = List.of(
            new Shape("OPT-13B", 40, 40, 128), new Shape("Llama-2-7B", 32, 32, 128),
            new Shape("Llama-3-8B", 32, 8, 128), new Shape("Llama-2-70B", 80, 8, 128));

    /** A KV cache dtype and its bytes per element (vLLM's kv_cache_dtype "auto" for bf16, or "fp8"). */
    record Dtype(String name, int bytes) {}

    static final List<Dtype> DTYPES = List.of(new Dtype("bf16", 2), new Dtype("fp8", 1));

    record Setup(Shape model, Dtype dtype, int blockSize, long budget) {}

    @Override public String id() { return "q6.7"; }
    @Override public String notesSection() { return "Run it"; }
    @Override public String title() { return "KV bytes per token, per block, and blocks per budget"; }

    static Setup setup(Variant v) {
        if (v.isSeed()) return new Setup(MODELS.get(2), DTYPES.get(0), 16, gib(10));
        return new Setup(v.pick("model", MODELS), v.pick("dtype", DTYPES), v.pick("block-size", List.of(16, 32)),
                mib(v.between("budget-mib", 2048, 61440)));
    }

    @Override
    public String prompt(Variant v) {
        Setup s = setup(v);
        Shape m = s.model();
        return m.name() + " has " + m.layers() + " layers and " + m.kvHeads() + " KV heads of " + m.headDim()
                + " dimensions; its KV cache is kept in\n" + s.dtype().name() + " (" + s.dtype().bytes()
                + " byte" + (s.dtype().bytes() == 1 ? "" : "s") + " an element). A vLLM-style pool has blocks of "
                + s.blockSize() + " tokens and a KV budget of\n" + Show.size(s.budget()) + ".\n"
                + "(a) How many KV cache bytes does one token take?\n"
                + "(b) How many bytes does one block take?\n"
                + "(c) How many blocks does the budget make (whole blocks only)?\n"
                + "(d) How many tokens can requests hold at once in that pool?";
    }

    @Override
    public List<Part> parts(Variant v) {
        Setup s = setup(v);
        Shape m = s.model();
        long perToken = 2L * m.layers() * m.kvHeads() * m.headDim() * s.dtype().bytes();
        long perBlock = perToken * s.blockSize();
        int blocks = (int) (s.budget() / perBlock);
        KvCacheManager kv = new KvCacheManager(new KvBlockPool(new Gpu(gib(80)).openToyProcess(), blocks,
                s.blockSize(), perBlock));
        return List.of(
                Part.of("a", 1, Blanks.size("q6.7.a.per-token", perToken, Bytes::parse)),
                Part.of("b", 1, Blanks.size("q6.7.b.per-block", kv.pool().blockBytes(), Bytes::parse)),
                Part.of("c", 1, Blanks.number("q6.7.c.blocks", kv.pool().numBlocks())),
                Part.of("d", 1, Blanks.number("q6.7.d.tokens", kv.largestServableTokens())));
    }
}
