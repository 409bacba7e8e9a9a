package vramlab.ch05;

import java.io.PrintStream;
import java.util.List;

import vramlab.kit.ChapterLab;
import vramlab.kit.Scenario;

/** Registers chapter 5 with the launcher. */
public final class ExpandableSegmentsChapter implements ChapterLab {
    @Override public int number() { return 5; }
    @Override public String slug() { return "expandable-segments"; }
    @Override public String title() { return "Expandable segments: contiguity chosen in VA space"; }
    @Override public void run(PrintStream out) { ExpandableLab.run(out); }
    @Override public List<Scenario> scenarios() { return ExpandableLab.scenarios(); }
}
