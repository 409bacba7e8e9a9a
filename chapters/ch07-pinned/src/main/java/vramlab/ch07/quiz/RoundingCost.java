package vramlab.ch07.quiz;

import java.util.List;

import vramlab.pinned.PinnedSim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** Rule 1 at scale: a KV-offload buffer in decimal gigabytes, rounded to a power of two. */
public final class RoundingCost implements Question {
    @Override public String id() { return "q7.1"; }
    @Override public String notesSection() { return "Rule 1: round up to a power of two"; }
    @Override
    public String title() { return "What pin_memory=True costs: the power-of-two round-up at scale"; }

    /** The buffer in decimal gigabytes: the practice variant's 100 GB, or this student's. */
    static long gigabytes(Variant v) {
        return v.isSeed() ? 100 : v.between("gigabytes", 3, 400);
    }

    static long bytes(Variant v) { return gigabytes(v) * 1_000_000_000L; }

    @Override
    public String prompt(Variant v) {
        long n = bytes(v);
        return "You pin a " + gigabytes(v) + " GB (" + n + " B) KV-offload buffer with\n"
                + "torch.empty(" + n + ", dtype=torch.uint8, pin_memory=True)   (sim.pin(" + n + "L)).\n"
                + "(a) allocated_bytes in torch.cuda.host_memory_stats() right after the call;\n"
                + "(b) the bytes the host has pinned if you pin the same buffer instead the way vLLM's\n"
                + "    pin_tensor does (malloc, then cudaHostRegister: sim.pinTensor(" + n + "L)).";
    }

    @Override
    public List<Part> parts(Variant v) {
        long n = bytes(v);
        PinnedSim viaAllocator = new PinnedSim();
        viaAllocator.pin(n);
        PinnedSim viaRegister = new PinnedSim();
        viaRegister.pinTensor(n);
        return List.of(
                Part.of("a", 1, Blanks.size("q7.1.a.allocated",
                        viaAllocator.hostMemoryStats().allocatedBytes(), Bytes::parse)),
                Part.of("b", 1, Blanks.size("q7.1.b.registered",
                        viaRegister.host().pinnedBytes(), Bytes::parse)));
    }
}
