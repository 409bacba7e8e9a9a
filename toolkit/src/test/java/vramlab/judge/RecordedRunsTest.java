package vramlab.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.contest.Contestant;
import vramlab.contest.Entries;
import vramlab.workload.Workload;
import vramlab.workload.Workloads;

/**
 * The reference entries' runs, recorded and read back (what a student release ships so that
 * its contest shows the reference's rows, not the student's chapter 3-6 code): every figure
 * comes back exactly, a recording is found only for the very workload it was run on, and a
 * scoreboard given one shows the recorded row and says so.
 */
class RecordedRunsTest {
    static List<Workload> workloads;
    static RecordedRuns recorded;
    static String csv;

    @BeforeAll
    static void record() throws Exception {
        workloads = List.of(Workloads.diffusionSampling(7, 2), Workloads.llmServing(7, 4));
        recorded = RecordedRuns.record(Entries.references(), workloads, 7, "by this test");
        StringWriter out = new StringWriter();
        recorded.write(out);
        csv = out.toString();
    }

    @Test
    @DisplayName("written and read back, every run equals a fresh run of the same entry, but for the host time")
    void roundTrip() throws Exception {
        RecordedRuns back = RecordedRuns.read(new StringReader(csv), "runs.csv");
        assertThat(back.size()).isEqualTo(6);
        assertThat(back.origin()).isEqualTo("by this test");
        for (Contestant c : Entries.references()) {
            for (Workload w : workloads) {
                Run fresh = Judge.run(c, w);
                assertThat(back.find(c.name(), w)).as("%s on %s", c, w.name())
                        .usingRecursiveComparison().ignoringFields("hostNanos").isEqualTo(fresh);
            }
        }
    }

    @Test
    @DisplayName("none is found for another seed's workload of the same name, another card, or another entry")
    void onlyTheVeryWorkload() throws Exception {
        RecordedRuns back = RecordedRuns.read(new StringReader(csv), "runs.csv");
        Workload same = workloads.get(0);
        assertThat(back.find("pytorch", same)).isNotNull();
        assertThat(back.find("pytorch", workloads.get(1))).isNotNull();
        assertThat(back.find("pytorch", Workloads.llmServing(8, 4))).as("other requests").isNull();
        assertThat(back.find("pytorch", new Workload(same.name(), 2 * same.card(), "", "", same.events()))).isNull();
        assertThat(back.find(Entries.STUDENT.name(), same)).isNull();
    }

    @Test
    @DisplayName("a scoreboard takes a recorded row instead of running it, and marks it recorded")
    void theScoreboardUsesTheRecording() throws Exception {
        // A recording whose pytorch row on the first workload says 7 driver calls: no run makes that.
        String edited = csv.lines().map(l -> l.startsWith("pytorch," + workloads.get(0).name() + ",")
                ? l.replaceFirst("^((?:[^,]*,){11})\\d+,", "$17,") : l).reduce("", (a, b) -> a + b + "\n");
        RecordedRuns back = RecordedRuns.read(new StringReader(edited), "runs.csv");
        Scoreboard board = new Scoreboard(Entries.PYTORCH, List.of(Entries.PYTORCH, Entries.BUDDY), workloads, back);
        assertThat(board.runs("pytorch").get(0).driverCalls()).isEqualTo(7);
        assertThat(board.recorded("pytorch", 0)).isTrue();
        assertThat(board.source("buddy", 1)).isEqualTo("recorded");
        assertThat(board.table()).containsPattern("diffusion-sampling +pytorch .* 7 .* recorded\\n");
        Scoreboard live = new Scoreboard(Entries.PYTORCH, List.of(Entries.PYTORCH), workloads);
        assertThat(live.source("pytorch", 0)).isEqualTo("live");
        assertThat(live.table()).containsPattern("diffusion-sampling +pytorch .* live\\n");
    }

    @Test
    @DisplayName("the table and the index list the entries best index first")
    void rankedByIndex() {
        Scoreboard board = new Scoreboard(Entries.PYTORCH, Entries.references(), workloads, recorded);
        List<String> names = board.ranked().stream().map(Contestant::name).toList();
        for (int i = 1; i < names.size(); i++) {
            assertThat(board.index(names.get(i - 1))).isGreaterThanOrEqualTo(board.index(names.get(i)));
        }
        String table = board.table();
        String index = table.substring(table.indexOf("performance index, best first"));
        int at = -1;
        for (String n : names) {
            assertThat(index.indexOf("  " + n + " ")).as(n).isGreaterThan(at);
            at = index.indexOf("  " + n + " ");
        }
    }

    @Test
    @DisplayName("a bad recording names the file and line, the value and what was expected")
    void badInput() {
        String bad = csv.replaceFirst("\n(pytorch,[^,]*,7,)(\\d+)", "\n$1lots");
        assertThatThrownBy(() -> RecordedRuns.read(new StringReader(bad), "runs.csv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("runs.csv:3: ")
                .hasMessageContaining("lots").hasMessageContaining("expected a number");
        assertThatThrownBy(() -> RecordedRuns.read(new StringReader("entry,workload\npytorch,x\n"), "runs.csv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("runs.csv:1: header [entry, workload]");
    }

    @Test
    @DisplayName("an entry that is not the reference (one that breaks a check) is refused, not recorded")
    void refusesABrokenEntry() {
        Contestant overlapping = new Contestant("overlapping",
                p -> new WrongEntriesTest.OnePerBlock(p, WrongEntriesTest.Bug.OVERLAP, 2));
        assertThatThrownBy(() -> RecordedRuns.record(List.of(overlapping), workloads, 7, "by this test"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot record overlapping")
                .hasMessageContaining("broke a check");
    }
}
