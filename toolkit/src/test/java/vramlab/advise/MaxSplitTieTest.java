package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * On silmont2000's real snapshot max_split_size_mb 128, 256 and 512 all peak at 3.04 GiB, and
 * advise recommended 128, the first: the harshest value, where PyTorch's notes warn the option's
 * cost in speed can be substantial. Of tied values the largest is now recommended, with that warning.
 */
@DisplayName("advise: of max_split_size_mb values that tie, the largest, with PyTorch's warning")
class MaxSplitTieTest {
    private static Outcome row(String conf, long peakMiB, long ooms) {
        Setting s = Setting.standard().stream().filter(x -> x.conf().equals(conf)).findFirst().orElseThrow();
        return new Outcome(s, peakMiB * MiB, peakMiB * MiB, ooms, null, 0, peakMiB * MiB);
    }

    private static Advice advice(boolean cardKnown, Outcome... rows) {
        return new Advice("run.trace, 4 events", 4096 * MiB, "--device", null, "line", List.of(rows), cardKnown);
    }

    @Test
    @DisplayName("128, 256 and 512 tie at 3112 MiB: 512 is set, and the line says what PyTorch says of the option")
    void largestOfTheTied() {
        Advice a = advice(false, row("", 3604, 0), row("max_split_size_mb:128", 3112, 0),
                row("max_split_size_mb:256", 3112, 0), row("max_split_size_mb:512", 3112, 0));
        assertThat(a.best().setting().conf()).isEqualTo("max_split_size_mb:512");
        assertThat(a.line()).isEqualTo("PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512");
        assertThat(a.recommendation()).contains("(PyTorch's notes call it a last resort for a run that fails");
    }

    @Test
    @DisplayName("a lower peak still wins, and a tie with another setting keeps the earlier row")
    void onlyTiesOfTheSameKey() {
        Advice lower = advice(false, row("", 3604, 0), row("max_split_size_mb:128", 3000, 0),
                row("max_split_size_mb:512", 3112, 0));
        assertThat(lower.best().setting().conf()).isEqualTo("max_split_size_mb:128");
        Advice other = advice(true, row("", 3604, 1), row("expandable_segments:True", 3112, 0),
                row("max_split_size_mb:512", 3112, 0));
        assertThat(other.best().setting().conf()).isEqualTo("expandable_segments:True");
    }
}
