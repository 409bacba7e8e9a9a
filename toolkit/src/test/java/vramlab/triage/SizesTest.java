package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.units.Bytes;

@DisplayName("Sizes reads what format_size prints")
class SizesTest {
    @Nested
    @DisplayName("given a printed figure")
    class Figures {
        @ParameterizedTest(name = "{0} -> {1} bytes")
        @CsvSource(delimiter = '|', textBlock = """
                0 bytes          | 0
                512 bytes        | 512
                1024 bytes       | 1024
                1.00 KiB         | 1024
                1008.00 KiB      | 1032192
                20.00 MiB        | 20971520
                2.00 MiB         | 2097152
                1.50 GiB         | 1610612736
                79.33 GiB        | 85179938898
                0.01 KiB         | 10
                0.005 KiB        | 5
                1.25 MiB         | 1310720
                3.33 MiB         | 3491758
                6.90 GiB         | 7408818586
                more than 1EB    | 1152921504606846976
                """)
        @DisplayName("1 KiB is 1024 B and a fraction rounds to the nearest byte")
        void parses(String text, long bytes) {
            assertThat(Sizes.parse(text)).hasValue(bytes);
        }

        @Test
        @DisplayName("a figure wrapped inside the number still reads")
        void wrapped() {
            assertThat(Sizes.parse("79.3\n3 G iB")).hasValue(85179938898L);
        }

        @Test
        @DisplayName("half a byte rounds up, less than half rounds down")
        void rounding() {
            // 0.01 MiB = 10485.76 B -> 10486; 0.02 KiB = 20.48 B -> 20
            assertThat(Sizes.parse("0.01 MiB")).hasValue(10486);
            assertThat(Sizes.parse("0.02 KiB")).hasValue(20);
            assertThat(Sizes.parse("0.0005 KiB")).hasValue(1);   // 0.512 B
        }
    }

    @Nested
    @DisplayName("given something that is not a size")
    class NotSizes {
        @ParameterizedTest(name = "''{0}''")
        @ValueSource(strings = {"", "GiB", "1.2.3 MiB", "12 parsecs", "-4 MiB", "17179869184.00 GiB"})
        @DisplayName("it is empty, never an exception (a 2^64-byte figure does not fit a long)")
        void empty(String text) {
            assertThat(Sizes.parse(text)).isEmpty();
            assertThat(Sizes.parseOrMinusOne(text)).isEqualTo(-1);
        }

        @Test
        @DisplayName("null is empty")
        void nullText() { assertThat(Sizes.parse(null)).isEmpty(); }
    }

    @Nested
    @DisplayName("given format_size's own output")
    class RoundTrip {
        @Test
        @DisplayName("every size format_size prints reads back to within half its last digit (seed 20241)")
        void roundTripsFormatSize() {
            java.util.Random rnd = new java.util.Random(20241);
            for (int i = 0; i < 10_000; i++) {
                long n = switch (i % 4) {
                    case 0 -> rnd.nextInt(4096);
                    case 1 -> rnd.nextInt(1 << 30);
                    case 2 -> (long) (rnd.nextDouble() * (1L << 40));
                    default -> Math.abs(rnd.nextLong()) >>> rnd.nextInt(20);
                };
                String printed = Bytes.formatSize(n);
                long back = Sizes.parse(printed).orElseThrow();
                long unit = n <= 1024 ? 1 : n <= Bytes.MiB ? Bytes.KiB : n <= Bytes.GiB ? Bytes.MiB : Bytes.GiB;
                assertThat(Math.abs(back - n)).as("%d printed as %s read as %d", n, printed, back)
                        .isLessThanOrEqualTo(unit / 200 + 1);
            }
        }
    }
}
