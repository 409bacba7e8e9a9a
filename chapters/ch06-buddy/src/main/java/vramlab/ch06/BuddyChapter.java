package vramlab.ch06;

import java.io.PrintStream;
import java.util.List;

import vramlab.kit.ChapterLab;
import vramlab.kit.Scenario;

/** Registers chapter 6 with the launcher. */
public final class BuddyChapter implements ChapterLab {
    @Override public int number() { return 6; }
    @Override public String slug() { return "buddy"; }
    @Override public String title() { return "Inference memory: buddy allocator, paged KV blocks"; }
    @Override public void run(PrintStream out) { BuddyLab.run(out); }
    @Override public List<Scenario> scenarios() { return BuddyLab.scenarios(); }
}
