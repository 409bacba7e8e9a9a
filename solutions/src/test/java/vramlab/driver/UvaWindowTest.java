package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One device's VA window on its own: a range {@code [floor, end)} with a base inside it. */
@DisplayName("A VA window")
class UvaWindowTest {
    static final long M2 = Gpu.PAGE;
    static final long FLOOR = 64 * M2, BASE = 72 * M2, END = 80 * M2;

    static UvaWindow window() { return new UvaWindow(FLOOR, BASE, END); }

    @Nested
    @DisplayName("is a range: 0 < floor <= base < end")
    class Shape {
        @ParameterizedTest(name = "[{0}, {2}) from {1}")
        @CsvSource({"4096, 4096, 8192", "1, 1, 2", "4096, 8188, 8192"})
        @DisplayName("a base at the floor, or one byte below the end, is a window")
        void accepted(long floor, long base, long end) {
            UvaWindow w = new UvaWindow(floor, base, end);
            assertThat(new long[] {w.floor(), w.base(), w.end()}).containsExactly(floor, base, end);
        }

        @ParameterizedTest(name = "[{0}, {2}) from {1}")
        @CsvSource({"0, 4096, 8192", "-4096, 4096, 8192", "8192, 4096, 16384", "4096, 8192, 8192"})
        @DisplayName("a floor of 0, a base below the floor or at the end is refused")
        void refused(long floor, long base, long end) {
            assertThatThrownBy(() -> new UvaWindow(floor, base, end)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("UvaWindow [" + floor + ", " + end + ") from " + base + ": not a range");
        }
    }

    @Nested
    @DisplayName("fits a range that lies inside it and overlaps nothing taken")
    class Fits {
        @ParameterizedTest(name = "{0} + {1} fits: {2}")
        @CsvSource({
            "134217728, 4194304, true",      // at the floor
            "134213632, 4194304, false",     // one host page below the floor
            "163577856, 4194304, true",      // ending exactly at the end
            "163581952, 4194304, false",     // one host page further: past the end
            "150994944, 0, false",           // nothing is no range
            "150994944, -2097152, false"})
        @DisplayName("exactly at the floor and exactly up to the end, and no further; never 0 bytes")
        void edges(long start, long size, boolean fits) {
            assertThat(window().fits(start, size)).isEqualTo(fits);
        }

        @Test
        @DisplayName("a range that ends where a taken one starts, or starts where it ends")
        void adjacent() {
            UvaWindow w = window();
            assertThat(w.take(M2, M2, BASE + 2 * M2)).isEqualTo(BASE + 2 * M2);
            assertThat(w.fits(BASE, 2 * M2)).isTrue();
            assertThat(w.fits(BASE + 3 * M2, M2)).isTrue();
            assertThat(w.fits(BASE + M2, 2 * M2)).isFalse();
        }
    }

    @Nested
    @DisplayName("its checker")
    class Checker {
        @Test
        @DisplayName("accepts ranges side by side from the floor up to the very end")
        void wallToWall() {
            UvaWindow w = window();
            assertThat(w.take(BASE - FLOOR, M2, FLOOR)).isEqualTo(FLOOR);
            assertThat(w.take(END - BASE, M2, BASE)).isEqualTo(BASE);
            assertThat(w.takenBytes()).isEqualTo(END - FLOOR);
            w.checkInvariants();
            assertThat(w.take(M2, M2, 0)).as("nothing is left").isEqualTo(-1);
        }

        @Test
        @DisplayName("refuses an empty range, which a take of 0 bytes (no caller makes one) would book")
        void emptyRange() {
            UvaWindow w = window();
            w.take(M2, M2, BASE + 2 * M2);
            assertThat(w.take(0, M2, 0)).isEqualTo(BASE);
            assertThatThrownBy(w::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessage("UvaWindow: bad range [0x" + Long.toHexString(BASE) + ", 0x" + Long.toHexString(BASE)
                            + ") in [0x" + Long.toHexString(FLOOR) + ", 0x" + Long.toHexString(END) + ")");
        }
    }
}
