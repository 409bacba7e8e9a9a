package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.PyTorchPolicy;
import vramlab.snapshot.Snapshot;

/**
 * replay's "live blocks" row. Under the recording's settings it counts the blocks found at the
 * recorded address and size; under other settings every block lies elsewhere, so that count was
 * 0 and read as "nothing live": the row now gives the replay's own count there.
 */
@DisplayName("replay's live blocks row: matched under the recording, the replay's own under other settings")
class SnapshotSummaryLiveBlocksTest {
    private static String summary(Snapshot s, SnapshotReplay.Options o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        SnapshotSummary.print(WhatIf.run(s, s.device(0), o, (step, e, r, b, a) -> { }, false), out);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("30 blocks live at the end: 30 at the recorded addresses as recorded, 30 of the replay's own under expandable segments")
    void liveBlocks() {
        Snapshot s = FractionMarginTest.recorded();
        assertThat(summary(s, SnapshotReplay.Options.recorded()))
                .containsPattern("(?m)^  live blocks +30 +30 \\(at the recorded address and size\\)$");
        String other = summary(s, new SnapshotReplay.Options(new PyTorchPolicy("expandable_segments:True"), 1024 * MiB));
        assertThat(other).containsPattern("(?m)^  live blocks +30 +30 \\(the replay's own, at its own addresses\\)$")
                .doesNotContain("at the recorded address and size");
    }
}
