package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A run recorded with settings of its own whose best row is the defaults: the advice is to drop
 * the recorded settings. It said "keep the recorded settings", because the defaults' row has no
 * {@code PYTORCH_CUDA_ALLOC_CONF=} line to print.
 */
@DisplayName("advise: where the defaults beat the recorded settings, drop them")
class DefaultsBeatRecordedTest {
    private static Outcome row(Setting s, long peakMiB, long ooms) {
        return new Outcome(s, peakMiB * MiB, peakMiB * MiB, ooms, null, 0, peakMiB * MiB);
    }

    private static Advice advice(String recorded, Outcome... rows) {
        return new Advice("run.pickle", 4096 * MiB, "--device", recorded, "trace entry", List.of(rows), true);
    }

    private static final Setting DEFAULTS = new Setting("", "");

    @Test
    @DisplayName("recorded with max_split_size_mb:128 at 3604 MiB, the defaults at 3112 MiB: unset it")
    void lowerPeak() {
        Advice a = advice("max_split_size_mb:128", row(Setting.recorded("max_split_size_mb:128"), 3604, 0),
                row(DEFAULTS, 3112, 0), row(new Setting("expandable_segments:True", ""), 3400, 0));
        assertThat(a.best().setting()).isEqualTo(DEFAULTS);
        assertThat(a.recommendation())
                .startsWith("Recommendation: the defaults peak at 3.04 GiB reserved, 492.00 MiB less than the recorded settings.")
                .contains("without the recorded max_split_size_mb:128:\n  unset PYTORCH_CUDA_ALLOC_CONF PYTORCH_ALLOC_CONF\n")
                .doesNotContain("keep");
    }

    @Test
    @DisplayName("recorded settings that OOM where the defaults do not: the defaults, by their OOMs")
    void fewerOoms() {
        Advice a = advice("expandable_segments:True", row(Setting.recorded("expandable_segments:True"), 4000, 2),
                row(DEFAULTS, 4000, 0));
        assertThat(a.recommendation())
                .startsWith("Recommendation: the defaults replay the whole workload without an OOM (the recorded settings: 2 OOMs).")
                .contains("unset PYTORCH_CUDA_ALLOC_CONF");
    }

    @Test
    @DisplayName("the card unknown: the defaults' lower peak comes with the words every other chosen row's"
            + " does, that whether either fits is not said")
    void cardUnknown() {
        Advice a = new Advice("run.pickle", 4096 * MiB, "assumed 4 GiB", "max_split_size_mb:128", "trace entry",
                List.of(row(Setting.recorded("max_split_size_mb:128"), 3604, 0), row(DEFAULTS, 3112, 0)), false);
        assertThat(a.recommendation()).isEqualTo("Recommendation: the defaults peak at 3.04 GiB reserved, 492.00 MiB"
                + " less than the recorded settings (the card is unknown: whether either fits is not said). Start the"
                + " process without the recorded max_split_size_mb:128:\n  unset PYTORCH_CUDA_ALLOC_CONF PYTORCH_ALLOC_CONF\n");
    }

    @Test
    @DisplayName("recorded with nothing set: the defaults' row is the same settings, and the advice keeps them")
    void recordedUnset() {
        Advice a = advice("", row(Setting.recorded(""), 3604, 0), row(DEFAULTS, 3112, 0));
        assertThat(a.recommendation()).startsWith("Recommendation: keep the recorded settings").doesNotContain("unset");
    }
}
