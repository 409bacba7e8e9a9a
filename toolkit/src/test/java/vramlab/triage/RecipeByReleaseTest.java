package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.advise.RecordingCallByReleaseTest;
import vramlab.snapshot.RecordingCalls;
import vramlab.snapshot.SnapshotFile;

/**
 * triage of a snapshot without an oom entry ends with how to record the next failure. For a
 * snapshot in PyTorch 2.0's layout (the real yiyi.*.legacy files) that recipe named only 2.1's
 * calls, as advise did (RecordingCallByReleaseTest).
 */
@DisplayName("triage's recipe for the next failure names 2.0's calls too when PyTorch 2.0 wrote the snapshot")
class RecipeByReleaseTest {
    static SnapshotTriage.Peak peak(boolean legacy) {
        byte[] bytes = RecordingCallByReleaseTest.snapshot(legacy);
        return SnapshotTriage.peak(SnapshotFile.read(bytes, "run.json"), "run.json", -1);
    }

    @Test
    @DisplayName("2.0's layout: the 2.0 record and save calls under the recipe, in the text and in --json")
    void legacy() {
        SnapshotTriage.Peak p = peak(true);
        assertThat(p.text()).contains(SnapshotTriage.RECIPE)
                .contains("on 2.0, record with " + RecordingCalls.record2_0("100000"))
                .contains("save with " + RecordingCalls.SAVE_2_0);
        assertThat((String) p.map().get("collectNext")).contains(RecordingCalls.record2_0("100000"));
    }

    @Test
    @DisplayName("2.1's layout: the recipe alone, as before")
    void newer() {
        assertThat(peak(false).text()).contains(SnapshotTriage.RECIPE).doesNotContain("trace_alloc_max_entries");
    }
}
