package vramlab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import vramlab.contest.Contestant;
import vramlab.contest.Entries;
import vramlab.judge.Judge;
import vramlab.judge.Run;
import vramlab.kit.RealSnapshotsFolder;
import vramlab.replay.SnapshotCard;
import vramlab.snapshot.RealSnapshotsTest;

/**
 * The real snapshots beside the kit read as workloads: every reference entry and the student's pass
 * every check. Plain {@code mvn test} reads RealSnapshotsTest's fast subset (one file of each
 * layout, both OOMs); {@code mvn test -Preal-snapshots} (which {@code .ci/run} runs) reads them all.
 */
class SnapshotWorkloadTest {
    static boolean inThisRun(Path gz) {
        String name = gz.getFileName().toString();
        return RealSnapshotsTest.all() || RealSnapshotsTest.FAST.contains(name.substring(0, name.length() - ".gz".length()));
    }

    @Test
    void everyRealSnapshotIsAWorkloadEveryEntryServesCorrectly() throws IOException {
        Optional<Path> dir = RealSnapshotsFolder.snapshots();
        assumeTrue(dir.isPresent(), RealSnapshotsFolder.MISSING);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir.get())) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".gz")).filter(SnapshotWorkloadTest::inThisRun)
                    .sorted().toList();
        }
        assertThat(files).isNotEmpty();
        int withEvents = 0;
        for (Path f : files) {
            Workload w = SnapshotWorkload.read(Files.readAllBytes(f), f.toString(), SnapshotCard.DEFAULT_CARD);
            if (w.events().size() > 1) withEvents++;
            for (Contestant c : Entries.all()) {
                Run r = Judge.run(c, w);
                assertThat(r.broken()).as(c + " on " + f.getFileName()).isNull();
                if (r.fit()) assertThat(r.peakRequested()).as(f.getFileName().toString()).isEqualTo(w.peakRequested());
            }
        }
        assertThat(withEvents).as("snapshots that give a workload with events").isGreaterThan(files.size() / 2);
    }
}
