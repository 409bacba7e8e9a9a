package vramlab.ch04.causes;

import java.io.PrintStream;
import java.util.List;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.triage.Diagnosis;
import vramlab.triage.Triage;

/**
 * The six causes of a real OOM, each staged on the simulator, in the ladder's order; and the
 * lab that runs them and triages the messages they end in.
 */
public final class Causes {
    private Causes() {}

    /** Every scenario, in the ladder's order (two for fragmentation, two for other processes). */
    public static List<Scenario> all() {
        return List.of(new InterleavedLifetimes(), new VariableBatchRatchet(),
                new OtherProcesses(false), new OtherProcesses(true), new NcclCommunicators(),
                new GraphPrivatePool(), new CudnnWorkspace(), new DriverReserve());
    }

    /** The scenario named {@code name}. */
    public static Scenario named(String name) {
        for (Scenario s : all()) if (s.name().equals(name)) return s;
        throw new IllegalArgumentException("no scenario '" + name + "'");
    }

    /** The policy the lab runs the scenarios with: PyTorch's native rules. */
    public static Policy defaultPolicy() { return new PyTorchPolicy(); }

    public static void main(String[] args) { runCauses(System.out); }

    // tag::run-causes[]
    /** Runs every scenario with seed 1 and prints its story, its message and the triage. */
    public static void runCauses(PrintStream out) {
        for (Scenario s : all()) {
            out.println("== " + heading(s) + " ==");
            runCause(s, out);
            out.println();
        }
    }

    /** One scenario with seed 1: its story, the message it ends in, and what triage reads from it. */
    public static void runCause(Scenario s, PrintStream out) {
        Outcome o = s.run(defaultPolicy(), 1);
        Diagnosis d = Triage.of(o.pasted());
        o.story().forEach(line -> out.println("  " + line));
        out.println("  message: " + o.message());
        String why = d.evidence().get(d.evidence().size() - 1);
        out.println("  triage:  " + d.cause() + " -- " + why);
    }
    // end::run-causes[]

    /** {@code 1. Interleaved lifetimes (interleaved)}: the cause's step on the ladder, title and name. */
    public static String heading(Scenario s) { return s.cause().step() + ". " + s.title() + " (" + s.name() + ")"; }

    /** Every cause as a lab scenario of its own, so one that needs an unwritten step stops alone. */
    public static List<vramlab.kit.Scenario> labScenarios() {
        return all().stream().map(s -> new vramlab.kit.Scenario(heading(s), out -> runCause(s, out))).toList();
    }
}
