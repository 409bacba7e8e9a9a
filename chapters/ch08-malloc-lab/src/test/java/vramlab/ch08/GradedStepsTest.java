package vramlab.ch08;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import vramlab.contest.Entries;
import vramlab.contest.SegregatedFits;
import vramlab.judge.Broken;
import vramlab.judge.Judge;
import vramlab.judge.Run;
import vramlab.judge.Scoreboard;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;
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
            Ch08Feedback.SIZE_CLASS.check("sizeClass(" + c[0] + ")", c[0], SegregatedFits.sizeClass(c[0]), (int) c[1]);
        }
        Ch08Feedback.SIZE_CLASS.checkThrows("sizeClass(0), a size that is not positive", IllegalArgumentException.class,
                () -> SegregatedFits.sizeClass(0));
    }

    static String verdict(Run r) {
        Broken b = r.broken();
        return b == null ? "every check passed" : b.toString().lines().findFirst().orElse("");
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
            assertThat(r.fit()).as(w.name() + ": out of memory at event " + r.oomStep() + ": " + r.oom()).isTrue();
        }
    }

    private static double index() {
        Scoreboard board = new Scoreboard(Entries.PYTORCH, List.of(Entries.PYTORCH, Entries.STUDENT), MallocLab.shortSet());
        return board.index(Entries.STUDENT.name());
    }

    @Test
    @Graded(step = "8.2", points = 2)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    @DisplayName("8.2: the entry's performance index on the short workloads is at least 60")
    void indexAtLeast60() {
        assertThat(index()).as("performance index (ch08 \"How the contest scores\")").isGreaterThanOrEqualTo(60);
    }

    @Test
    @Graded(step = "8.2", points = 1)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    @DisplayName("8.2: the entry's performance index on the short workloads is at least 70")
    void indexAtLeast70() {
        assertThat(index()).as("performance index (ch08 \"How the contest scores\")").isGreaterThanOrEqualTo(70);
    }
}
