package vramlab.ch04.quiz;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Free bytes exceed the request and the allocation fails anyway. Each student
 * gets a hole pattern (hole and fence sizes that tile 20 MiB segments), a number of segments
 * and a request; the simulator builds the state and decides every answer.
 *
 * <p>The notes derive it under the toy's rules (2 MiB block rounding, a 20 MiB segment for any
 * large request), so it is asked for the toy (q4.1, this class's no-argument constructor) and
 * again, with the same numbers, for PyTorch's real rules ({@link PyTorch}, q4.7): blocks round to
 * 512 B, a large block splits only above 1 MiB of remainder, and a request of 10 MiB or more asks
 * the driver for its own size rounded to 2 MiB, with no 20 MiB floor (CCA:2026-2037, 2478-2496).
 * The state is the same under both: whole-MiB holes and fences tile each 20 MiB segment exactly.
 */
public class FragmentationFailure implements Question {
    private final String id;
    private final String policyName;
    private final Supplier<Policy> policy;
    private final String premise;

    /** The question under the toy policy. */
    public FragmentationFailure() {
        this("q4.1", "the toy policy", ToyPolicy::new,
                "This asks about the toy policy (vramlab.alloc.ToyPolicy), not PyTorch's real rules;\n"
                + "q4.7 asks the same for PyTorch.");
    }

    protected FragmentationFailure(String id, String policyName, Supplier<Policy> policy, String premise) {
        this.id = id;
        this.policyName = policyName;
        this.policy = policy;
        this.premise = premise;
    }

    /** The same state and request under PyTorch's real rules ({@code PyTorchPolicy}, default config). */
    public static final class PyTorch extends FragmentationFailure {
        public PyTorch() {
            super("q4.7", "PyTorch's real policy", PyTorchPolicy::new,
                    "This asks about PyTorch's real rules (round_size, get_allocation_size, should_split and the\n"
                    + "OOM path in c10/cuda/CUDACachingAllocator.cpp, default PYTORCH_CUDA_ALLOC_CONF), for q4.1's state.");
        }

        /** 511 B short of {@code size}: PyTorch rounds it up in 512 B steps, to exactly {@code size}. */
        @Override long fillRequest(long size) { return size - 511; }
    }

    /** The request that makes a block of {@code size} (whole MiB): the toy rounds it up to 2 MiB steps. */
    long fillRequest(long size) { return size - mib(1) + 1; }

    /** {segments, hole MiB, fence MiB, request bytes}. */
    static long[] pattern(Variant v) {
        if (v.isSeed()) return new long[] {2, 4, 6, mib(10)};
        long hole = v.pick("hole", List.of(2L, 4L, 6L, 8L));
        long segments = v.between("segments", 2, 3);
        return new long[] {segments, hole, 10 - hole, v.between("request", mib(hole) + 1, mib(18))};
    }

    @Override public String id() { return id; }
    @Override public String notesSection() { return "How the holes form"; }
    @Override public String title() { return "Derive the fragmentation failure under " + policyName; }

    @Override
    public String prompt(Variant v) {
        long[] p = pattern(v);
        String seg = ("[" + p[1] + " MiB FREE][" + p[2] + " MiB LIVE]").repeat(2);
        return premise + "\nThe allocator, with " + policyName + ", is in this state: each of " + p[0] + " segments is " + seg + ",\n"
                + "reserved = " + 20 * p[0] + " MiB of a " + 20 * p[0] + " MiB device; every hole is on the large\n"
                + "pool's free list. A request for " + Bytes.readable(p[3]) + " arrives.\n"
                + "(a) the rounded request; (b) the free bytes and the largest free block;\n"
                + "(c) the size the allocator tries to get from the driver (the message's 'Tried to allocate');\n"
                + "(d) one request size that would succeed now; (e) one that fails although it is no\n"
                + "larger than the free bytes.";
    }

    /** The state, built on the reference simulator: fill every segment, then free the holes. */
    Sim state(Variant v) {
        long[] p = pattern(v);
        Sim sim = new Sim(mib(20 * p[0]), policy.get());
        List<Block> holes = new ArrayList<>();
        for (int s = 0; s < p[0]; s++) {
            for (int i = 0; i < 2; i++) {
                holes.add(sim.alloc(fillRequest(mib(p[1]))));      // rounds up to the hole's size
                sim.alloc(fillRequest(mib(p[2])));                 // the live fence
            }
        }
        holes.forEach(sim::free);
        return sim;
    }

    /** Whether {@code size} would be served now, tried on a fresh copy of the state. */
    boolean succeeds(Variant v, long size) {
        try {
            state(v).alloc(size);
            return true;
        } catch (CudaOutOfMemoryError e) {
            return false;
        }
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] p = pattern(v);
        Sim sim = state(v);
        long rounded = sim.allocator().policy().roundSize(p[3]);
        long tried = sim.allocator().policy().segmentSize(rounded);
        long free = sim.freeBytes();
        return List.of(
                Part.of("a", 1, Blanks.size(id + ".a.rounded", rounded, Bytes::parse)),
                Part.of("b", 1, Blanks.size(id + ".b.free", free, Bytes::parse),
                        Blanks.size(id + ".b.largest", sim.largestFreeBlock(), Bytes::parse)),
                Part.of("c", 1, Blanks.size(id + ".c.tried", tried, Bytes::parse)),
                Part.of("d", 1, Blanks.sizeThat(id + ".d.succeeds", "a request that succeeds now", Bytes::parse,
                        n -> succeeds(v, n), mib(p[1]), () -> Blanks.scan(n -> succeeds(v, n), 512, mib(20 * p[0])))),
                Part.of("e", 1, Blanks.sizeThat(id + ".e.fails", "a request of at most the free bytes that fails",
                        Bytes::parse, n -> n <= free && !succeeds(v, n), mib(p[1]) + 1,
                        () -> Blanks.scan(n -> n <= free && !succeeds(v, n), 512, mib(20 * p[0])))));
    }
}
