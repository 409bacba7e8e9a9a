package vramlab.ch07;

import java.io.PrintStream;

import vramlab.kit.ChapterLab;

/** Registers chapter 7 with the launcher. */
public final class PinnedChapter implements ChapterLab {
    @Override public int number() { return 7; }
    @Override public String slug() { return "pinned"; }
    @Override public String title() { return "Pinned host memory, and why nobody gives it back"; }
    @Override public void run(PrintStream out) { PinnedLab.run(out); }
}
