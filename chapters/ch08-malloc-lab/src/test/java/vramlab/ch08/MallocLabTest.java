package vramlab.ch08;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.contest.Entries;
import vramlab.judge.Scoreboard;
import vramlab.kit.Scenario;

class MallocLabTest {
    @Test
    void theLabPrintsEveryEntryOnBothShortWorkloadsAndTheirIndex() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MallocLab.run(new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        for (String entry : new String[] {"segregated-fits", "pytorch", "expandable", "buddy"}) {
            assertThat(text).contains(entry);
        }
        assertThat(text).contains("diffusion-sampling").contains("llm-serving").contains("performance index")
                .doesNotContain("BAD");
    }

    @Test
    @DisplayName("help() lists the steps, how to check them and the quiz, as chapters 1-7 do, and the startup imports Gpu for its entry line")
    void helpListsStepsCheckAndQuiz() {
        assertThat(MallocLab.help()).contains("8.1 Pick a size class", "SegregatedFits.sizeClass",
                "8.2 Serve a request", "SegregatedFits.alloc", "./vramlab check 8.1", "./vramlab check 8\n",
                "./vramlab quiz 8 --check labs/answers/ch08.txt",
                "new SegregatedFits(new Gpu(gib(1)).openToyProcess())");
        assertThat(new MallocLabChapter().jshellStartup()).contains("import vramlab.driver.Gpu;")
                .contains("System.out.print(MallocLab.help())");
    }

    private static String printed(java.util.function.Consumer<PrintStream> run) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        run.accept(new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("the run the notes and a release record (ChapterLab.run) is the same bytes twice: no wall-clock column")
    void recordedRunIsTheSameBytesEveryTime() {
        MallocLabChapter lab = new MallocLabChapter();
        String first = printed(lab::run);
        assertThat(printed(lab::run)).isEqualTo(first);
        assertThat(first.lines().findFirst().orElseThrow()).as("the header").doesNotContain("host");
        assertThat(first).contains("performance index", "./vramlab lab malloc-lab");
    }

    @Test
    @DisplayName("./vramlab lab malloc-lab (the chapter's scenarios) still prints each row's host time per event")
    void labCommandPrintsTheHostTime() {
        String live = printed(out -> Scenario.runAll(out, new MallocLabChapter().scenarios()));
        assertThat(live).contains("host ns").contains("/event");
    }

    @Test
    @DisplayName("without the host time the table is the timed one less that column, byte for byte")
    void untimedIsTheTimedLessOneColumn() {
        Scoreboard board = new Scoreboard(Entries.PYTORCH, Entries.all(), MallocLab.shortSet());
        int at = 105;                       // workload, entry, fit, overhead, peaks, calls, cost: 22+1+18+1+5+1+9+1+12+1+12+1+8+1+12
        StringBuilder less = new StringBuilder();
        for (String line : board.table(true).split("\n", -1)) {
            less.append(line.length() >= at + 9 ? line.substring(0, at) + line.substring(at + 9) : line).append('\n');
        }
        String untimed = board.table(false);
        assertThat(less.substring(0, less.length() - 1).replaceAll(" +\n", "\n"))
                .isEqualTo(untimed.replaceAll(" +\n", "\n"));
    }
}
