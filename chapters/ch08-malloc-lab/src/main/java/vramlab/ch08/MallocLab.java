package vramlab.ch08;

import java.io.PrintStream;
import java.util.List;

import vramlab.contest.Entries;
import vramlab.judge.Scoreboard;
import vramlab.workload.Workload;
import vramlab.workload.Workloads;

/**
 * Chapter 8's lab: the contest on two short workloads (a diffusion sampler and LLM serving,
 * cut short), every entry beside PyTorch's. {@code ./vramlab contest} runs the whole public set.
 */
public final class MallocLab {
    private MallocLab() {}

    /** The lab's short workloads: two diffusion steps, four served requests. */
    public static List<Workload> shortSet() {
        return List.of(Workloads.diffusionSampling(Workloads.PUBLIC_SEED, 2), Workloads.llmServing(Workloads.PUBLIC_SEED, 4));
    }

    /** The contest on the short set, with each row's host time per event: what {@code ./vramlab lab malloc-lab} prints. */
    public static void run(PrintStream out) {
        out.print(new Scoreboard(Entries.PYTORCH, Entries.all(), shortSet()).table(true));
    }

    /**
     * The same without the host time per event, for the notes and a release, which record the
     * lab's run: that column is wall-clock time, different on every run, so two builds would
     * never give the same bytes. Every other figure is exact, and the last line says where the
     * time is printed. The index never uses it (driver cost is simulated).
     */
    public static void runRecorded(PrintStream out) {
        out.print(new Scoreboard(Entries.PYTORCH, Entries.all(), shortSet()).table(false));
        out.println();
        out.println("Host time per event (host ns/event) is left out here: it is measured, so it changes from");
        out.println("run to run, and it is not scored. ./vramlab lab malloc-lab and ./vramlab contest print it.");
    }

    public static void main(String[] args) { run(System.out); }

    public static void help() {
        System.out.println("""
                MallocLab.run(System.out)                 the contest on two short workloads
                SegregatedFits.sizeClass(3000)            step 8.1: the size class of a request
                var w = Workloads.diffusionSampling(2026, 2)
                Judge.run(Entries.STUDENT, w)             one entry on one workload, every event checked
                ./vramlab contest                         every entry on every public workload""");
    }
}
