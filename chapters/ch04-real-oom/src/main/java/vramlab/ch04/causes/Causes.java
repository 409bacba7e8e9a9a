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

    /** The policy the lab runs the scenarios with. The toy for now (see the notes). */
    public static Policy defaultPolicy() { return new PyTorchPolicy(); }

    public static void main(String[] args) { runCauses(System.out); }

    // tag::run-causes[]
    /** Runs every scenario with seed 1 and prints its story, its message and the triage. */
    public static void runCauses(PrintStream out) {
        for (Scenario s : all()) {
            Outcome o = s.run(defaultPolicy(), 1);
            Diagnosis d = Triage.of(o.pasted());
            out.println("== " + s.cause().step() + ". " + s.title() + " (" + s.name() + ") ==");
            o.story().forEach(line -> out.println("  " + line));
            out.println("  message: " + o.message());
            String why = d.evidence().get(d.evidence().size() - 1);
            out.println("  triage:  " + d.cause() + " -- " + why);
            out.println();
        }
    }
    // end::run-causes[]
}
