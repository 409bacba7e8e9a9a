package vramlab.ch07.quiz;

import static vramlab.units.Bytes.MiB;

import java.util.List;

import vramlab.pinned.PinnedSim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * {@code pinned_reserve_segment_size_mb}: one slab pinned at first use, carved with a bump
 * pointer that never moves back, never freed (aten/src/ATen/cuda/CachingHostAllocator.cpp @03258ab).
 */
public final class ReserveNeverShrinks implements Question {
    @Override public String id() { return "q7.4"; }
    @Override public String notesSection() { return "Giving it back: empty_host_cache"; }
    @Override public String title() { return "The reserve segment: what empty_host_cache cannot give back"; }

    /** {reserve segment in MiB, first request, second request}. */
    static long[] numbers(Variant v) {
        if (v.isSeed()) return new long[] {64, MiB, 40 * MiB};
        long reserve = v.pick("reserve", List.of(16L, 32L, 64L, 128L, 256L));
        return new long[] {reserve, v.between("first", 1, reserve * MiB / 4),
            v.between("second", 1, reserve * MiB)};
    }

    @Override
    public String prompt(Variant v) {
        long[] n = numbers(v);
        return "A process runs with PYTORCH_ALLOC_CONF=pinned_reserve_segment_size_mb:" + n[0] + "\n"
                + "(sim = new PinnedSim(\"pinned_reserve_segment_size_mb:" + n[0] + "\"))."
                + " It pins and frees one\n"
                + "tensor, then empties the cache: sim.del(sim.pin(" + n[1] + "L)); sim.emptyHostCache();\n"
                + "   (first tensor: " + Bytes.readable(n[1]) + ")\n"
                + "(a) allocated_bytes in host_memory_stats() now;\n"
                + "(b) the bytes the host has pinned now (cudaHostAlloc'd and not yet freed);\n"
                + "(c) the bytes the host has pinned after one more request, sim.pin(" + n[2] + "L), kept.\n"
                + "   (second tensor: " + Bytes.readable(n[2]) + ")";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] n = numbers(v);
        PinnedSim sim = new PinnedSim("pinned_reserve_segment_size_mb:" + n[0]);
        sim.del(sim.pin(n[1]));
        sim.emptyHostCache();
        long allocated = sim.hostMemoryStats().allocatedBytes();
        long pinned = sim.host().pinnedBytes();
        sim.pin(n[2]);
        return List.of(
                Part.of("a", 1, Blanks.size("q7.4.a.allocated", allocated, Bytes::parse)),
                Part.of("b", 1, Blanks.size("q7.4.b.pinned", pinned, Bytes::parse)),
                Part.of("c", 1, Blanks.size("q7.4.c.pinned", sim.host().pinnedBytes(), Bytes::parse)));
    }
}
