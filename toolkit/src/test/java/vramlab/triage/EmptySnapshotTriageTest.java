package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.snapshot.SnapshotFile;

/**
 * A snapshot in which no device has segments or a history (dumped before the run allocated, or
 * with its history off) is a result, as replay and advise read it ("nothing to replay", exit 0):
 * triage says there is nothing to triage and how to record a snapshot that has something. It
 * was an error, {@code nothing to analyse}, exit 2, the status of bad input.
 */
@DisplayName("triage of a snapshot with nothing in it: a report saying so, with the recipe")
class EmptySnapshotTriageTest {
    @Test
    @DisplayName("no segments and an empty history: nothing to triage, then how to record the next failure")
    void nothingInIt() {
        byte[] bytes = "{\"segments\": [], \"device_traces\": [[]]}".getBytes(StandardCharsets.UTF_8);
        SnapshotTriage.Peak p = SnapshotTriage.peak(SnapshotFile.read(bytes, "empty.json"), "empty.json", -1);
        assertThat(p.text()).startsWith("Format: a PyTorch memory snapshot in which no device has segments or a"
                + " history\n\nNothing to triage: no 'oom' entry").endsWith(SnapshotTriage.RECIPE);
        assertThat(p.map()).containsEntry("oom", false).containsEntry("collectNext", SnapshotTriage.RECIPE);
    }
}
