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
 * Seed question 5: a job that OOMs only at night. The message, in PyTorch 2.x's exact words
 * ({@code PyTorchOomMessage}), carries this student's numbers and the co-tenant's pid.
 */
public final class NightOnlyOom implements Question {
    /** The first thing to do with such an error in hand. */
    public enum FirstStep { LIST_THE_GPU_PROCESSES, CALL_EMPTY_CACHE, SET_EXPANDABLE_SEGMENTS, REINSTALL_THE_DRIVER }

    static final long TOTAL = gib(40);

    /** {co-tenant pid, co-tenant bytes, this process's bytes, reserved-but-unallocated bytes}. */
    static long[] facts(Variant v) {
        if (v.isSeed()) return new long[] {23187, gib(27) + mib(307), gib(12) + mib(100), mib(1229)};
        return new long[] {v.between("pid", 2000, 60000), mib(v.between("other", 8 * 1024, 30 * 1024)),
            mib(v.between("mine", 6 * 1024, 9 * 1024)), mib(v.between("unallocated", 100, 1500))};
    }

    static String message(Variant v) {
        long[] f = facts(v);
        long free = Math.max(0, TOTAL - f[1] - f[2] - mib(500));
        long reserved = f[2] - mib(400);
        return PyTorchOomMessage.format(new Facts(mib(20), 0, TOTAL, free,
                List.of(new ProcessUsage((int) f[0], f[1], false), new ProcessUsage(0, f[2], true)),
                -1, reserved - f[3], 0, reserved));
    }

    @Override public String id() { return "q4.4"; }
    @Override public String title() { return "The OOM that only happens at night"; }

    @Override
    public String prompt(Variant v) {
        return "A training job runs fine all day for weeks but dies some nights with:\n  " + message(v) + "\n"
                + "(a) the cause, one of the six; (b) the pid of the process to go and talk to;\n"
                + "(c) the first thing to do.";
    }

    @Override
    public List<Part> parts(Variant v) {
        return List.of(
                Part.of("a", 1, Blanks.choice("q4.4.a.cause", Cause.OTHER_PROCESSES)),
                Part.of("b", 1, Blanks.number("q4.4.b.pid", facts(v)[0])),
                Part.of("c", 1, Blanks.choice("q4.4.c.first", FirstStep.LIST_THE_GPU_PROCESSES)));
    }
}
