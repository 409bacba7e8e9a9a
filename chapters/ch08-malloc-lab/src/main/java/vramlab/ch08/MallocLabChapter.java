package vramlab.ch08;

import java.io.PrintStream;
import java.util.List;

import vramlab.ch08.exercises.CountTheSlabs;
import vramlab.ch08.exercises.PredictTheSizeClasses;
import vramlab.ch08.exercises.ScoreTheEntry;

import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.kit.Scenario;

/** Registers chapter 8 with the launcher. */
public final class MallocLabChapter implements ChapterLab {
    @Override public int number() { return 8; }
    @Override public String slug() { return "malloc-lab"; }
    @Override public String title() { return "The GPU malloc lab: your allocator against PyTorch's"; }
    /** The cores it runs: the contest's entries (one a buddy allocator), judged against the caching allocator. */
    @Override public List<String> cores() { return List.of("base", "gmmu", "driver", "alloc", "buddy", "contest"); }
    /** What the notes and a release record: no wall-clock column, so every build gives the same bytes. */
    @Override public void run(PrintStream out) { MallocLab.runRecorded(out); }
    /** What {@code ./vramlab lab malloc-lab} runs: the same table with each row's host time per event. */
    @Override public List<Scenario> scenarios() { return List.of(new Scenario("", MallocLab::run)); }
    @Override public List<Exercise> exercises() {
        return List.of(new PredictTheSizeClasses(), new CountTheSlabs(), new ScoreTheEntry());
    }
}
