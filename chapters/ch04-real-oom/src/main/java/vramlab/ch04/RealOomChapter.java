package vramlab.ch04;

import java.io.PrintStream;
import java.util.List;

import vramlab.ch04.exercises.FreeVersusFit;
import vramlab.ch04.exercises.PlanTheCapacity;
import vramlab.ch04.exercises.ReadTheMessage;
import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.kit.Scenario;

/** Registers chapter 4 with the launcher. */
public final class RealOomChapter implements ChapterLab {
    @Override public int number() { return 4; }
    @Override public String slug() { return "real-oom"; }
    @Override public String title() { return "Fragmentation and the real OOM"; }
    /** The cores it runs: the caching allocator's replays and its OOM. */
    @Override public List<String> cores() { return List.of("base", "gmmu", "driver", "alloc"); }
    @Override public void run(PrintStream out) { RealOomLab.run(out); }
    @Override public List<Scenario> scenarios() { return RealOomLab.scenarios(); }
    @Override public List<Exercise> exercises() {
        return List.of(new FreeVersusFit(), new ReadTheMessage(), new PlanTheCapacity());
    }
}
