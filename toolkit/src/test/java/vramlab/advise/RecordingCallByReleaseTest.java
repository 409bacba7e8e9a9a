package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.snapshot.RecordingCalls;

/**
 * The recommendation that asks for a snapshot recorded from the start names the call of the
 * release that wrote the snapshot. Both real snapshots in PyTorch 2.0's layout
 * (yiyi.*.legacy.pickle) were told to call 2.1's {@code _record_memory_history(max_entries=N)},
 * a call 2.0 does not have in that form.
 */
@DisplayName("advise names the recording call of the release that wrote the snapshot")
public class RecordingCallByReleaseTest {
    /**
     * One 20 MiB segment: an 8 MiB block in use and the rest free, and a history of one
     * {@code snapshot} entry, as the real 2.0 files have. {@code legacy}: the blocks carry 2.0's
     * {@code history} and no {@code address}; else 2.1's {@code address}.
     */
    public static byte[] snapshot(boolean legacy) {
        String used = legacy
                ? "{\"size\": 8388608, \"state\": \"active_allocated\", \"history\": [{\"addr\": 1048576,"
                        + " \"real_size\": 8388608, \"frames\": []}]}"
                : "{\"address\": 1048576, \"size\": 8388608, \"requested_size\": 8388608,"
                        + " \"state\": \"active_allocated\", \"frames\": []}";
        String free = legacy ? "{\"size\": 12582912, \"state\": \"inactive\"}"
                : "{\"address\": 9437184, \"size\": 12582912, \"requested_size\": 0, \"state\": \"inactive\"}";
        return ("{\"segments\": [{\"device\": 0, \"address\": 1048576, \"total_size\": 20971520, \"stream\": 0,"
                + " \"segment_type\": \"large\", \"allocated_size\": 8388608, \"active_size\": 8388608,"
                + " \"blocks\": [" + used + ", " + free + "]}],"
                + " \"device_traces\": [[{\"action\": \"snapshot\", \"addr\": 0, \"size\": 8388608, \"stream\": 0,"
                + " \"frames\": []}]]}").getBytes(StandardCharsets.UTF_8);
    }

    static String recommendation(boolean legacy) {
        Workload w = Workload.read(snapshot(legacy), "run.json", -1);
        return Advice.of(w, "run.json", Setting.standard(), null).recommendation();
    }

    @Test
    @DisplayName("a snapshot in PyTorch 2.0's layout: 2.0's call and its way to save, not 2.1's max_entries")
    void legacyLayout() {
        String r = recommendation(true);
        assertThat(r).contains("none from this replay")
                .contains("its layout is PyTorch 2.0's, which records with"
                        + " torch.cuda.memory._record_memory_history(True, trace_alloc_max_entries=N) before its"
                        + " first CUDA allocation")
                .contains("then save it with pickle.dump(torch.cuda.memory._snapshot(), f)) and advise that.")
                .doesNotContain("(max_entries=N)");
    }

    /** Two rows on a 4 GiB card: the defaults with an OOM, expandable segments without. */
    static Advice expandableWins(boolean writtenBy2_0) {
        java.util.List<Outcome> rows = java.util.List.of(
                new Outcome(Setting.recorded(""), 4000L << 20, 4000L << 20, 1, null, 0, 4000L << 20),
                new Outcome(new Setting("expandable_segments:True", ""), 3000L << 20, 3000L << 20, 0, null, 0,
                        3000L << 20));
        return new Advice("run.pickle", 4096L << 20, "--device", "", "trace entry", rows, true, null, "",
                writtenBy2_0);
    }

    @Test
    @DisplayName("expandable segments advised for a snapshot in 2.0's layout: 2.0 refuses the key, upgrade first")
    void expandableOnA2_0Snapshot() {
        assertThat(expandableWins(true).recommendation()).contains("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
                .contains("(this snapshot's layout is PyTorch 2.0's, and " + RecordingCalls.EXPANDABLE_SINCE_2_1
                        + ": upgrade to 2.1 or later first)");
        assertThat(expandableWins(false).recommendation()).contains("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
                .doesNotContain("2.0");
    }

    @Test
    @DisplayName("a snapshot in 2.1's layout: 2.1's call, as before")
    void newerLayout() {
        assertThat(recommendation(false)).contains("none from this replay")
                .contains("(" + RecordingCalls.record("N") + " before its first CUDA allocation")
                .doesNotContain("trace_alloc_max_entries").doesNotContain("pickle.dump");
    }
}
