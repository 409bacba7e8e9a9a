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

    /**
     * What {@code help()} prints in {@code ./vramlab jshell malloc-lab}: what to try, the steps
     * with how to check them, and the quiz, as every chapter's help lists them. The entry is built
     * as the quiz's q8.1 builds it, a fresh {@code SegregatedFits} on a 1 GiB card.
     */
    public static String help() {
        return """
                GPU malloc lab: your allocator against PyTorch's, every event checked. Try:
                  var e = new SegregatedFits(new Gpu(gib(1)).openToyProcess());   a fresh entry on a 1 GiB card
                  var a = e.alloc(3000, 0); e.blockSize(a)  step 8.2: a 4 KiB block from a new 2 MiB slab
                  SegregatedFits.sizeClass(3000)            step 8.1: the size class of a request
                  var w = Workloads.diffusionSampling(2026, 2)
                  Judge.run(Entries.STUDENT, w)             one entry on one workload, every event checked
                  MallocLab.run(System.out)                 the contest on two short workloads
                  ./vramlab contest                         every entry on every public workload (outside JShell)
                Your steps (labs/src/main/java/vramlab/contest/):
                  8.1 Pick a size class   SegregatedFits.sizeClass
                  8.2 Serve a request     SegregatedFits.alloc
                Check one step: ./vramlab check 8.1   the chapter: ./vramlab check 8
                Quiz (outside JShell): ./vramlab quiz 8   your answers: ./vramlab quiz 8 --check labs/answers/ch08.txt
                """;
    }
}
