package vramlab.ch07.quiz;

import static vramlab.units.Bytes.MiB;

import java.util.List;

import vramlab.driver.DeviceBuffer;
import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** Rule 2: a block freed with its copy still queued waits for the copy's event, checked lazily. */
public final class QueuedCopyHoldsTheBlock implements Question {
    /** Whether a request got the block that was freed. */
    public enum Reuse { YES, NO }

    /** Which block the last request gets. */
    public enum Which { A_BLOCK, B_BLOCK, NEW_BLOCK }

    @Override public String id() { return "q7.6"; }
    @Override public String notesSection() { return "Rule 2: a freed block waits for its events"; }
    @Override public String title() { return "A queued copy holds the block: reuse waits for the event"; }

    /**
     * {tensor size, kernel time, host work before the next request}. The host work is either
     * none or at most the kernel time less 10 ms (the copy is surely still queued), or at least
     * the kernel time plus 10 ms (the copy is surely done): the answer never hangs on the
     * microseconds of a pin or a copy.
     */
    static long[] numbers(Variant v) {
        if (v.isSeed()) return new long[] {MiB, 20_000_000, 0};
        long kernelMs = v.between("kernel-ms", 20, 60);
        long workMs = v.pick("copy-done", List.of(false, true))
                ? v.between("work-after", kernelMs + 10, kernelMs + 40)
                : v.between("work-before", 0, kernelMs - 10);
        return new long[] {v.between("size", MiB, 64 * MiB), kernelMs * 1_000_000, workMs * 1_000_000};
    }

    @Override
    public String prompt(Variant v) {
        long[] n = numbers(v);
        return "On a fresh PinnedSim: d = sim.cuda(" + n[0] + "L); sim.kernel(\"busy\", " + n[1] + "L);   ("
                + Show.ms(n[1]) + ")\n"
                + "  a = sim.pin(" + n[0] + "L); sim.copyToDevice(d, a); sim.del(a);   ("
                + Bytes.readable(n[0]) + ")\n"
                + (n[2] == 0 ? "" : "  the host works " + Show.ms(n[2])
                        + " on other things: sim.clock().advanceBy(" + n[2] + "L);\n")
                + "  b = sim.pin(" + n[0] + "L);   // and b is kept\n"
                + "(a) does b get a's block?\n"
                + "(b) then sim.synchronize(): active_bytes in host_memory_stats() right after it;\n"
                + "(c) then c = sim.pin(" + n[0] + "L): does c get a's block (A_BLOCK), b's (B_BLOCK),"
                + " or a new one?";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] n = numbers(v);
        PinnedSim sim = new PinnedSim();
        DeviceBuffer d = sim.cuda(n[0]);
        sim.kernel("busy", n[1]);
        HostBlock a = sim.pin(n[0]);
        sim.copyToDevice(d, a);
        sim.del(a);
        sim.clock().advanceBy(n[2]);
        HostBlock b = sim.pin(n[0]);
        sim.synchronize();
        long active = sim.hostMemoryStats().activeBytes();
        HostBlock c = sim.pin(n[0]);
        Which which = c == b ? Which.B_BLOCK : c == a ? Which.A_BLOCK : Which.NEW_BLOCK;
        return List.of(
                Part.of("a", 1, Blanks.choice("q7.6.a.reuse", b == a ? Reuse.YES : Reuse.NO)),
                Part.of("b", 1, Blanks.size("q7.6.b.active", active, Bytes::parse)),
                Part.of("c", 1, Blanks.choice("q7.6.c.block", which)));
    }
}
