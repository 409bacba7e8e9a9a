package vramlab.ch03;

import java.io.PrintStream;
import java.util.List;

import vramlab.ch03.exercises.BestFitAndSplit;
import vramlab.ch03.exercises.PredictTheCounters;
import vramlab.ch03.exercises.RoundAndPool;
import vramlab.ch03.exercises.WhatEmptyCacheReleases;
import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.kit.Scenario;

/** Registers chapter 3 with the launcher. */
public final class CachingAllocatorChapter implements ChapterLab {
    @Override public int number() { return 3; }
    @Override public String slug() { return "caching-allocator"; }
    @Override public String title() { return "The caching allocator: size classes, pools, split, merge"; }
    /** The cores it runs: the caching allocator, on the driver it asks for segments. */
    @Override public List<String> cores() { return List.of("base", "gmmu", "driver", "alloc"); }
    @Override public void run(PrintStream out) { CachingAllocatorLab.run(out); }
    @Override public List<Scenario> scenarios() { return CachingAllocatorLab.scenarios(); }
    @Override public List<Exercise> exercises() {
        return List.of(new PredictTheCounters(), new RoundAndPool(), new BestFitAndSplit(),
                new WhatEmptyCacheReleases());
    }
}
