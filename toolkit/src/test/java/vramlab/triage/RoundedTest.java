package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Figures read back from PyTorch's two decimals, and what the ladder computes from them: the
 * error each rounding allows, and a test the rounding alone could decide left open.
 */
@DisplayName("Rounded: differences of printed figures carry the error of their roundings")
class RoundedTest {
    private static long size(String printed) { return Sizes.parseOrMinusOne(printed); }

    @Test
    @DisplayName("19.82 GiB - 19.37 GiB is 0.45 GiB give or take 0.01 GiB, not 460.80 MiB")
    void differenceOfTwoGiBFigures() {
        Rounded d = Rounded.printed(size("19.82 GiB")).minus(Rounded.printed(size("19.37 GiB")));
        assertThat(d.text()).isEqualTo("0.45 GiB ± 0.01 GiB");
        assertThat(d.low()).isGreaterThan(size("450.00 MiB")).isLessThan(size("451.00 MiB"));    // 450.56 MiB
        assertThat(d.high()).isGreaterThan(size("471.00 MiB")).isLessThan(size("472.00 MiB"));   // 471.04 MiB
    }

    @Test
    @DisplayName("a figure as printed reads as printed; MiB figures keep MiB; exact bytes stay exact")
    void units() {
        assertThat(Rounded.printed(size("19.82 GiB")).text()).isEqualTo("19.82 GiB");
        assertThat(Rounded.printed(size("602.00 MiB")).minus(Rounded.printed(size("340.50 MiB"))).text())
                .isEqualTo("261.50 MiB ± 0.01 MiB");
        assertThat(Rounded.exact(size("19.82 GiB") - size("19.37 GiB")).text()).isEqualTo("460.80 MiB");
        assertThat(Rounded.of(5L << 30, Family.SNAPSHOT).error()).isZero();
        assertThat(Rounded.printed(512).error()).isZero();   // "512 bytes" is exact
        // three GiB figures: the error is rounded up to whole hundredths, never down
        Rounded three = Rounded.printed(size("5.70 GiB")).minus(Rounded.printed(size("3.57 GiB")))
                .minus(Rounded.printed(size("1.00 GiB")));
        assertThat(three.text()).isEqualTo("1.13 GiB ± 0.02 GiB");
    }

    @Test
    @DisplayName("a line inside the rounding is neither passed nor missed; outside it, it is")
    void lines() {
        Rounded u = Rounded.printed(size("19.82 GiB")).minus(Rounded.printed(size("19.23 GiB")));   // 0.59
        Rounded reserved = Rounded.printed(size("19.82 GiB"));
        assertThat(u.atLeastPercent(3, reserved)).isNull();
        assertThat(u.percentOf(reserved)).isEqualTo("2.93% to 3.03%");
        Rounded small = Rounded.printed(size("19.82 GiB")).minus(Rounded.printed(size("19.37 GiB")));   // 0.45
        assertThat(small.atLeastPercent(3, reserved)).isFalse();
        Rounded big = Rounded.printed(size("19.82 GiB")).minus(Rounded.printed(size("18.82 GiB")));
        assertThat(big.atLeastPercent(3, reserved)).isTrue();
        assertThat(small.atLeast(size("440.00 MiB"))).isTrue();
        assertThat(small.atLeast(size("461.00 MiB"))).isNull();
        assertThat(small.atLeast(size("480.00 MiB"))).isFalse();
    }
}
