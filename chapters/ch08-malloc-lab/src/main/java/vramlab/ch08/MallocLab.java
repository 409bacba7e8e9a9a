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

    public static void run(PrintStream out) {
        out.print(new Scoreboard(Entries.PYTORCH, Entries.all(), shortSet()).table());
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
