package vramlab.ch02;

import java.io.PrintStream;
import java.util.List;

import vramlab.ch02.exercises.PredictTheCodes;
import vramlab.ch02.exercises.PriceTheLoop;
import vramlab.ch02.exercises.ReadTheLedger;
import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.kit.Scenario;

/** Registers chapter 2 with the launcher. */
public final class CudaMallocChapter implements ChapterLab {
    @Override public int number() { return 2; }
    @Override public String slug() { return "cudamalloc"; }
    @Override public String title() { return "cudaMalloc, page-granular and slow"; }
    /** The cores it runs: cudaMalloc in the driver; the caching allocator beside it. */
    @Override public List<String> cores() { return List.of("base", "gmmu", "driver", "alloc"); }
    @Override public void run(PrintStream out) { CudaMallocLab.run(out); }
    @Override public List<Scenario> scenarios() { return CudaMallocLab.scenarios(); }
    @Override public List<Exercise> exercises() {
        return List.of(new PriceTheLoop(), new ReadTheLedger(), new PredictTheCodes());
    }
}
