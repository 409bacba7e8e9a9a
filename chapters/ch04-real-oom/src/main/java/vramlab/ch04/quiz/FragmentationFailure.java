package vramlab.ch04.quiz;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Seed question 2: free bytes exceed the request and the allocation fails anyway. Each student
 * gets a hole pattern (hole and fence sizes that tile 20 MiB segments), a number of segments
 * and a request; the simulator builds the state and decides every answer.
 *
 * <p>The seed derives it under the toy's rules (2 MiB block rounding, a 20 MiB segment for any
 * large request), so it is asked for the toy. The PyTorch version is a subclass that passes the
 * real policy and its own id ({@code q4.1p}); its hole pattern must then be re-derived, since
 * PyTorch rounds blocks to 512 B and splits large blocks only above 1 MiB of remainder.
 */
public class FragmentationFailure implements Question {
    private final String id;
    private final String policyName;
    private final Supplier<Policy> policy;

    /** The seed's question, under the toy policy. */
    public FragmentationFailure() { this("q4.1", "toy", ToyPolicy::new); }

    protected FragmentationFailure(String id, String policyName, Supplier<Policy> policy) {
        this.id = id;
        this.policyName = policyName;
        this.policy = policy;
    }

    /** {segments, hole MiB, fence MiB, request bytes}. */
    static long[] pattern(Variant v) {
        if (v.isSeed()) return new long[] {2, 4, 6, mib(10)};
        long hole = v.pick("hole", List.of(2L, 4L, 6L, 8L));
        long segments = v.between("segments", 2, 3);
        return new long[] {segments, hole, 10 - hole, v.between("request", mib(hole) + 1, mib(18))};
    }

    @Override public String id() { return id; }
    @Override public String title() { return "Derive the fragmentation failure"; }

    @Override
    public String prompt(Variant v) {
        long[] p = pattern(v);
        String seg = ("[" + p[1] + " MiB FREE][" + p[2] + " MiB LIVE]").repeat(2);
        return "The " + policyName + " allocator is in this state: each of " + p[0] + " segments is " + seg + ",\n"
                + "reserved = " + 20 * p[0] + " MiB of a " + 20 * p[0] + " MiB device; every hole is on the large\n"
                + "pool's free list. A request for " + Show.size(p[3]) + " arrives.\n"
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
                holes.add(sim.alloc(mib(p[1]) - mib(1) + 1));      // rounds up to the hole's size
                sim.alloc(mib(p[2]) - mib(1) + 1);                 // the live fence
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
                        n -> succeeds(v, n), mib(p[1]))),
                Part.of("e", 1, Blanks.sizeThat(id + ".e.fails", "a request of at most the free bytes that fails",
                        Bytes::parse, n -> n <= free && !succeeds(v, n), mib(p[1]) + 1)));
    }
}
