package vramlab.ch08;

import static vramlab.units.Bytes.MiB;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import vramlab.contest.Entries;
import vramlab.contest.SegregatedFits;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.judge.Broken;
import vramlab.judge.Judge;
import vramlab.judge.RecordedRuns;
import vramlab.judge.Run;
import vramlab.judge.Scoreboard;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;
import vramlab.units.Bytes;
import vramlab.workload.Workload;

/** The lab steps of chapter 8: the size class, the entry judged, and its index against thresholds. */
@DisplayName("ch08 lab steps")
@ExtendWith(StepOrder.class)
class GradedStepsTest {
    /** Step 8.1's cases: size, class. */
    static final long[][] CLASS_CASES = {{1, 0}, {512, 0}, {513, 1}, {1024, 1}, {3000, 3}, {4096, 3},
            {MiB, 11}, {MiB + 1, -1}, {64 * MiB, -1}};

    @Test
    @Graded(step = "8.1", points = 2)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("8.1: a request takes the smallest class that holds it; over 1 MiB none")
    void sizeClass() {
        for (long[] c : CLASS_CASES) {
            Ch08Feedback.SIZE_CLASS.check("sizeClass(" + Bytes.readable(c[0]) + ")", c[0], SegregatedFits.sizeClass(c[0]), (int) c[1]);
        }
        Ch08Feedback.SIZE_CLASS.checkThrows("sizeClass(0), a size that is not positive", IllegalArgumentException.class,
                () -> SegregatedFits.sizeClass(0));
    }

    static String verdict(Run r) {
        Broken b = r.broken();
        if (b != null) return b.toString().lines().findFirst().orElse("");
        return r.fit() ? "every check passed" : "out of memory at event " + r.oomStep() + ": " + r.oom();
    }

    @Test
    @Graded(step = "8.2", points = 4)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    @DisplayName("8.2: the entry passes every check on the short workloads, and fits")
    void alloc() {
        for (Workload w : MallocLab.shortSet()) {
            Run r = Judge.run(Entries.STUDENT, w);
            Ch08Feedback.ALLOC.check("the contest's checks on " + w.name(), w.name(), verdict(r), "every check passed",
                    () -> r.broken() == null ? "" : r.broken().toString());
        }
    }

    /** A fresh entry on a 1 GiB card: each request's block size, then the cudaMalloc calls made. */
    static String served() {
        GpuProcess p = new Gpu(Bytes.GiB).openToyProcess();
        SegregatedFits f = new SegregatedFits(p);
        StringBuilder s = new StringBuilder();
        for (long size : new long[] {100, 512, 3000, 3000, 5 * MiB}) {
            long a = f.alloc(size, 0);
            s.append(s.length() == 0 ? "" : ", ").append(Bytes.readable(size)).append(" -> ").append(Bytes.readable(f.blockSize(a)));
        }
        return s.append("; ").append(p.driverCalls(DriverCall.CUDA_MALLOC)).append(" cudaMalloc").toString();
    }

    /** What {@link #served()} gives with the reference: two slabs (512 B and 4 KiB blocks) and one 6 MiB segment. */
    static final String SERVED = "100 B -> 512 B, 512 B -> 512 B, 3000 B -> 4 KiB, 3000 B -> 4 KiB, 5 MiB -> 6 MiB; 3 cudaMalloc";

    @Test
    @Graded(step = "8.2", points = 2)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("8.2: small requests share a slab of their class; a large one takes whole 2 MiB pages")
    void smallRequestsShareSlabs() {
        Ch08Feedback.SERVED.check("alloc(100), alloc(512), alloc(3000) twice, alloc(5 MiB) on a fresh entry",
                "five requests", served(), SERVED);
    }

    /** PyTorch's runs of the short workloads on the reference cores (PyTorchShortSetTest holds them to a fresh run). */
    static final String PYTORCH_RUNS = "pytorch-short-set.csv";

    /**
     * PyTorch's recorded runs: graded on a student's cores, PyTorch's entry would be the student's
     * own chapter 3 code, and the index would price the entry against that.
     */
    static RecordedRuns pytorchRuns() {
        try (var in = GradedStepsTest.class.getResourceAsStream(PYTORCH_RUNS)) {
            if (in == null) throw new IllegalStateException(PYTORCH_RUNS + " is not beside GradedStepsTest");
            return RecordedRuns.read(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8), PYTORCH_RUNS);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String index(int threshold) {
        Scoreboard board = new Scoreboard(Entries.PYTORCH, List.of(Entries.PYTORCH, Entries.STUDENT), MallocLab.shortSet(),
                pytorchRuns());
        double index = board.index(Entries.STUDENT.name());
        return index >= threshold ? "at least " + threshold : String.format(java.util.Locale.ROOT, "%.1f", index);
    }

    @Test
    @Graded(step = "8.2", points = 2)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    @DisplayName("8.2: the entry's performance index on the short workloads is at least 60")
    void indexAtLeast60() {
        Ch08Feedback.INDEX.check("the performance index on the short workloads", "short", index(60), "at least 60");
    }

    @Test
    @Graded(step = "8.2", points = 1)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    @DisplayName("8.2: the entry's performance index on the short workloads is at least 70")
    void indexAtLeast70() {
        Ch08Feedback.INDEX.check("the performance index on the short workloads", "short", index(70), "at least 70");
    }
}
