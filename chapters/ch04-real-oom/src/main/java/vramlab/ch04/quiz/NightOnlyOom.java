package vramlab.ch04.quiz;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.alloc.PyTorchOomMessage;
import vramlab.alloc.PyTorchOomMessage.Facts;
import vramlab.alloc.PyTorchOomMessage.ProcessUsage;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/**
 * A job that OOMs only at night. The message, in PyTorch 2.x's exact words
 * ({@code PyTorchOomMessage}), carries this student's numbers and the co-tenant's pid.
 */
public final class NightOnlyOom implements Question {
    /** The first thing to do with such an error in hand. */
    public enum FirstStep { LIST_THE_GPU_PROCESSES, CALL_EMPTY_CACHE, SET_EXPANDABLE_SEGMENTS, REINSTALL_THE_DRIVER }

    /** What the driver and ECC keep before any process runs (the kit's assumption, cause 6). */
    static final long DRIVER_RESERVE = mib(512);

    /**
     * {co-tenant pid, co-tenant bytes, this process's bytes, reserved-but-unallocated bytes,
     * total, free}. The card is full: free is under the 20 MiB segment the allocator asks for.
     */
    static long[] facts(Variant v) {
        long pid = v.isSeed() ? 23187 : v.between("pid", 2000, 60000);
        long total = v.isSeed() ? gib(40) : gib(v.pick("card", List.of(24L, 40L, 48L, 80L)));
        long other = v.isSeed() ? gib(27) + mib(307) : total / 100 * v.between("other%", 35, 70);
        long free = v.isSeed() ? mib(12) : mib(v.between("free", 2, 19));
        long unallocated = v.isSeed() ? mib(1229) : mib(v.between("unallocated", 100, 1500));
        return new long[] {pid, other, total - other - free - DRIVER_RESERVE, unallocated, total, free};
    }

    static String message(Variant v) {
        long[] f = facts(v);
        long reserved = f[2] - mib(400);                 // the rest is this process's CUDA context
        return PyTorchOomMessage.format(new Facts(mib(20), 0, f[4], f[5],
                List.of(new ProcessUsage((int) f[0], f[1], false), new ProcessUsage(0, f[2], true)),
                -1, reserved - f[3], 0, reserved));
    }

    @Override public String id() { return "q4.4"; }
    @Override public String notesSection() { return "The fix ladders, one per cause"; }
    @Override public String title() { return "The OOM that only happens at night"; }

    @Override
    public String prompt(Variant v) {
        return "A training job runs fine all day for weeks but dies some nights with:\n  " + message(v) + "\n"
                + "(a) the cause, as ./vramlab triage names it; (b) the pid of the process to go and talk to;\n"
                + "(c) the first thing to do.";
    }

    @Override
    public List<Part> parts(Variant v) {
        return List.of(
                Part.of("a", 1, CauseChoice.of("q4.4.a.cause")),
                Part.of("b", 1, Blanks.number("q4.4.b.pid", facts(v)[0])),
                Part.of("c", 1, Blanks.choice("q4.4.c.first", FirstStep.class)));
    }
}
