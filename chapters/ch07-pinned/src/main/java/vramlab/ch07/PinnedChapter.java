package vramlab.ch07;

import java.io.PrintStream;
import java.util.List;

import vramlab.ch07.exercises.HoldOrRepin;
import vramlab.ch07.exercises.PredictTheBlocks;
import vramlab.ch07.exercises.WhatEmptyHostCacheReturns;
import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.kit.Scenario;

/** Registers chapter 7 with the launcher. */
public final class PinnedChapter implements ChapterLab {
    @Override public int number() { return 7; }
    @Override public String slug() { return "pinned"; }
    @Override public String title() { return "Pinned host memory, and why nobody gives it back"; }
    /** The cores it runs: the pinned host cache, beside the caching allocator. */
    @Override public List<String> cores() { return List.of("base", "gmmu", "driver", "alloc", "pinned"); }
    @Override public void run(PrintStream out) { PinnedLab.run(out); }
    @Override public List<Scenario> scenarios() { return PinnedLab.scenarios(); }
    @Override public List<Exercise> exercises() {
        return List.of(new PredictTheBlocks(), new WhatEmptyHostCacheReturns(), new HoldOrRepin());
    }
}
