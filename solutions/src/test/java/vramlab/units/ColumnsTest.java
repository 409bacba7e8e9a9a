package vramlab.units;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("columns padded as printf pads them")
class ColumnsTest {

    @Test
    @DisplayName("%Ns, %-Ns, %Nd and %-Nd: seeded values and widths, negatives, text wider than its column")
    void asPrintf() {
        Random r = new Random(16);
        for (int k = 0; k < 2000; k++) {
            int width = 1 + r.nextInt(24);
            long value = switch (k % 4) {
                case 0 -> r.nextInt(1000);
                case 1 -> -r.nextInt(100_000);
                case 2 -> r.nextLong();
                default -> k % 8 == 3 ? Long.MIN_VALUE : Long.MAX_VALUE;
            };
            String text = "x".repeat(r.nextInt(30));
            assertThat(Columns.right(value, width)).isEqualTo(String.format(Locale.ROOT, "%" + width + "d", value));
            assertThat(Columns.left(value, width)).isEqualTo(String.format(Locale.ROOT, "%-" + width + "d", value));
            assertThat(Columns.right(text, width)).isEqualTo(String.format(Locale.ROOT, "%" + width + "s", text));
            assertThat(Columns.left(text, width)).isEqualTo(String.format(Locale.ROOT, "%-" + width + "s", text));
        }
        assertThat(Columns.left("", 3)).isEqualTo("   ");
        assertThat(Columns.right(42, 6)).isEqualTo("    42");
    }
}
