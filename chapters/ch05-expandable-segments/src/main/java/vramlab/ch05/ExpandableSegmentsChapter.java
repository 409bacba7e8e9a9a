package vramlab.ch05;

import java.io.PrintStream;
import java.util.List;

import vramlab.ch05.exercises.DefaultsOrExpandable;
import vramlab.ch05.exercises.PredictThePages;
import vramlab.ch05.exercises.WhatEmptyCacheGivesBack;
import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.kit.Scenario;

/** Registers chapter 5 with the launcher. */
public final class ExpandableSegmentsChapter implements ChapterLab {
    @Override public int number() { return 5; }
    @Override public String slug() { return "expandable-segments"; }
    @Override public String title() { return "Expandable segments: contiguity chosen in VA space"; }
    /** The cores it runs: expandable segments live in the caching allocator. */
    @Override public List<String> cores() { return List.of("base", "gmmu", "driver", "alloc"); }
    @Override public void run(PrintStream out) { ExpandableLab.run(out); }
    @Override public List<Scenario> scenarios() { return ExpandableLab.scenarios(); }
    @Override public List<Exercise> exercises() {
        return List.of(new PredictThePages(), new DefaultsOrExpandable(), new WhatEmptyCacheGivesBack());
    }
}
