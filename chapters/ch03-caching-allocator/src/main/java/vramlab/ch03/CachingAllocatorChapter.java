package vramlab.ch03;

import java.io.PrintStream;

import vramlab.kit.ChapterLab;

/** Registers chapter 3 with the launcher. */
public final class CachingAllocatorChapter implements ChapterLab {
    @Override public int number() { return 3; }
    @Override public String slug() { return "caching-allocator"; }
    @Override public String title() { return "The caching allocator: size classes, pools, split, merge"; }
    @Override public void run(PrintStream out) { CachingAllocatorLab.run(out); }
}
