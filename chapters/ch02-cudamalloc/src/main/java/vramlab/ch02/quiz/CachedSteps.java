package vramlab.ch02.quiz;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * The same training loop as q2.3, through PyTorch's caching allocator (chapter
 * 3, default settings). Its point needs no rule of chapter 3: freed blocks stay cached in their
 * segments, so later steps with the same sizes never reach the driver.
 */
public final class CachedSteps implements Question {
    static final long DEVICE = gib(1);

    @Override public String id() { return "q2.4"; }
    @Override public String notesSection() { return "The cost of calling the driver"; }
    @Override public String title() { return "Through a caching allocator: the calls that are left"; }

    /** {steps, size of tensor 1, ..., size of tensor n}: the practice variant's 1000 steps, or this student's. */
    static long[] loop(Variant v) {
        int n = v.isSeed() ? 10 : (int) v.between("tensors", 4, 12);
        long[] l = new long[n + 1];
        l[0] = v.isSeed() ? 1000 : v.between("steps", 100, 1000);
        for (int t = 0; t < n; t++) {
            l[t + 1] = v.isSeed() ? mib(1) + t * 4096L : v.between("size" + t, 1, mib(6));
        }
        return l;
    }

    @Override
    public String prompt(Variant v) {
        long[] l = loop(v);
        StringBuilder sizes = new StringBuilder();
        for (int t = 1; t < l.length; t++) {
            sizes.append(t == 1 ? "" : t % 4 == 1 ? ",\n    " : ", ").append(l[t]);
        }
        return "A toy process on a fresh " + Bytes.toyMiB(DEVICE) + " GPU runs " + l[0] + " training steps through\n"
                + "PyTorch's caching allocator (default settings). Each step allocates " + (l.length - 1)
                + " tensors, in this order,\n"
                + "of these sizes in bytes, then frees all of them:\n    " + sizes + "\n"
                + "(a) How many cudaMalloc calls do steps 2 to " + l[0] + " add?\n"
                + "(b) Which driver calls does the whole run make at all (any of the DriverCall names)?\n"
                + "(c) How many cudaMalloc and cudaFree calls would steps 2 to " + l[0]
                + " make if each tensor called\n"
                + "    the driver itself, as in q2.3?";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] l = loop(v);
        GpuProcess cached = new Gpu(DEVICE).openToyProcess();
        CachingAllocator a = new CachingAllocator(cached, new PyTorchPolicy());
        GpuProcess direct = new Gpu(DEVICE).openToyProcess();
        long cachedAfterFirst = 0;
        long directAfterFirst = 0;
        for (long step = 0; step < l[0]; step++) {
            List<Block> blocks = new ArrayList<>();
            long[] ptrs = new long[l.length - 1];
            for (int t = 1; t < l.length; t++) {
                blocks.add(a.alloc(l[t]));
                ptrs[t - 1] = direct.cudaMalloc(l[t]);
            }
            blocks.forEach(a::free);
            for (long ptr : ptrs) direct.cudaFree(ptr);
            if (step == 0) {
                cachedAfterFirst = cached.cudaMallocCalls();
                directAfterFirst = mallocsAndFrees(direct);
            }
        }
        Set<DriverCall> made = EnumSet.noneOf(DriverCall.class);
        for (DriverCall c : DriverCall.values()) if (cached.driverCalls(c) > 0) made.add(c);
        return List.of(
                Part.of("a", 1, Blanks.number("q2.4.a.added",
                        cached.cudaMallocCalls() - cachedAfterFirst)),
                Part.of("b", 1, Blanks.choices("q2.4.b.calls", made, DriverCall.class)),
                Part.of("c", 1, Blanks.number("q2.4.c.direct",
                        mallocsAndFrees(direct) - directAfterFirst)));
    }

    private static long mallocsAndFrees(GpuProcess p) {
        return p.driverCalls(DriverCall.CUDA_MALLOC) + p.driverCalls(DriverCall.CUDA_FREE);
    }
}
