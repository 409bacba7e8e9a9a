package vramlab.ch08;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import vramlab.contest.Entries;
import vramlab.judge.Judge;
import vramlab.judge.RecordedRuns;
import vramlab.quiz.KitPaths;
import vramlab.workload.Workload;
import vramlab.workload.Workloads;

/**
 * The PyTorch runs the graded index thresholds price the student's entry against
 * ({@link GradedStepsTest#PYTORCH_RUNS}) are a fresh run of PyTorch's entry on the reference
 * cores, workload by workload, every figure but the host time. After a change to the allocator
 * or the workloads, write them again: {@code mvn test -pl chapters/ch08-malloc-lab -am
 * -Dtest=PyTorchShortSetTest -Dsurefire.failIfNoSpecifiedTests=false -Dvramlab.rerecord=true}.
 */
class PyTorchShortSetTest {
    @Test
    void theRecordedRunsArePyTorchsOwnOnTheShortWorkloads() throws Exception {
        List<Workload> set = MallocLab.shortSet();
        if (Boolean.getBoolean("vramlab.rerecord")) {
            StringWriter out = new StringWriter();
            RecordedRuns.record(List.of(Entries.PYTORCH), set, Workloads.PUBLIC_SEED,
                    "from the reference cores by PyTorchShortSetTest").write(out);
            Files.writeString(KitPaths.root().resolve("chapters/ch08-malloc-lab/src/test/resources/vramlab/ch08/"
                    + GradedStepsTest.PYTORCH_RUNS), out.toString());
        }
        RecordedRuns recorded = GradedStepsTest.pytorchRuns();
        assertThat(recorded.size()).isEqualTo(set.size());
        for (Workload w : set) {
            assertThat(recorded.find(Entries.PYTORCH.name(), w)).as("%s: run again with -Dvramlab.rerecord=true", w.name())
                    .usingRecursiveComparison().ignoringFields("hostNanos").isEqualTo(Judge.run(Entries.PYTORCH, w));
        }
    }
}
