package vramlab.ch06;

import java.io.PrintStream;
import java.util.List;

import vramlab.ch06.exercises.CountThePagedBlocks;
import vramlab.ch06.exercises.HalfFreeYetRefused;
import vramlab.ch06.exercises.PredictTheBuddyBlocks;
import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.kit.Scenario;

/** Registers chapter 6 with the launcher. */
public final class BuddyChapter implements ChapterLab {
    @Override public int number() { return 6; }
    @Override public String slug() { return "buddy"; }
    @Override public String title() { return "Inference memory: buddy allocator, paged KV blocks"; }
    /** The cores it runs: the buddy allocator and the paged KV blocks, against the caching allocator. */
    @Override public List<String> cores() { return List.of("base", "gmmu", "driver", "alloc", "buddy", "kv"); }
    @Override public void run(PrintStream out) { BuddyLab.run(out); }
    @Override public List<Scenario> scenarios() { return BuddyLab.scenarios(); }
    @Override public List<Exercise> exercises() {
        return List.of(new PredictTheBuddyBlocks(), new HalfFreeYetRefused(), new CountThePagedBlocks());
    }
}
