package vramlab.ch01;

import java.io.PrintStream;
import java.util.List;

import vramlab.ch01.exercises.CountTheTables;
import vramlab.ch01.exercises.PredictTheTlb;
import vramlab.ch01.exercises.SliceTheAddress;
import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.kit.Scenario;

/** Registers chapter 1 with the launcher. */
public final class MmuChapter implements ChapterLab {
    @Override public int number() { return 1; }
    @Override public String slug() { return "mmu"; }
    @Override public String title() { return "The GPU has an MMU"; }
    /** The cores it runs: the page tables and the driver the lab maps through. */
    @Override public List<String> cores() { return List.of("base", "gmmu", "driver"); }
    @Override public void run(PrintStream out) { MmuLab.run(out); }
    @Override public List<Scenario> scenarios() { return MmuLab.scenarios(); }
    @Override public List<Exercise> exercises() {
        return List.of(new SliceTheAddress(), new CountTheTables(), new PredictTheTlb());
    }
}
