package vramlab.units;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kit's one wording of a size near a whole unit ({@link Bytes#formatSizeOrOffset}): PyTorch's
 * two decimals where they are exact or show a fraction, else the whole unit and the bytes off it.
 */
class FormatSizeOrOffsetTest {
    private static final long KiB = Bytes.KiB;
    private static final long MiB = Bytes.MiB;
    private static final long GiB = Bytes.GiB;
    private static final long TiB = Bytes.TiB;

    @ParameterizedTest(name = "{0} reads {1}")
    @CsvSource(delimiter = '|', textBlock = """
            1000                | 1000 bytes
            1024                | 1024 bytes
            1025                | 1 KiB + 1 B
            1536                | 1.50 KiB
            2047                | 2 KiB - 1 B
            2048                | 2.00 KiB
            300000              | 292.97 KiB
            1048570             | 1023.99 KiB
            1048571             | 1 MiB - 5 B
            1048575             | 1 MiB - 1 B
            1048576             | 1024.00 KiB
            1048577             | 1 MiB + 1 B
            2096640             | 2 MiB - 512 B
            2097151             | 2 MiB - 1 B
            2097152             | 2.00 MiB
            2097153             | 2 MiB + 1 B
            2102394             | 2 MiB + 5242 B
            2102395             | 2.01 MiB
            20971520            | 20.00 MiB
            21102592            | 20.12 MiB
            21102593            | 20.13 MiB
            1073741823          | 1 GiB - 1 B
            1073741824          | 1024.00 MiB
            1073741825          | 1 GiB + 1 B
            1073742336          | 1 GiB + 512 B
            1074790400          | 1025 MiB
            1076363264          | 1027 MiB - 524288 B
            1078984705          | 1029 MiB + 1 B
            1610612735          | 1536 MiB - 1 B
            1610612736          | 1.50 GiB
            1610612737          | 1536 MiB + 1 B
            1610613760          | 1.50 GiB
            1099511627775       | 1 TiB - 1 B
            1099511627776       | 1024.00 GiB
            1099511627777       | 1 TiB + 1 B
            2199023255553       | 2 TiB + 1 B
            9223372036854775807 | 8388608 TiB - 1 B
            """)
    @DisplayName("format_size's two decimals unless they read as a whole unit the size is not, or a size "
            + "is within 1 KiB of a whole MiB: then the whole unit and the bytes off it")
    void examples(long size, String text) {
        assertThat(Bytes.formatSizeOrOffset(size)).isEqualTo(text);
    }

    @Test
    @DisplayName("every size within 8 B of 1, 2, 3, 1023, 1024 and 1025 KiB, MiB, GiB and TiB, and seeded "
            + "random ones, read as the reference says, and an offset form adds up to the size")
    void matchesTheReference() {
        List<Long> sizes = new ArrayList<>();
        for (long unit : new long[] {KiB, MiB, GiB, TiB}) {
            for (long k : new long[] {1, 2, 3, 1023, 1024, 1025}) {
                for (long d = -8; d <= 8; d++) sizes.add(k * unit + d);
            }
        }
        Random random = new Random(59);
        for (int i = 0; i < 3000; i++) {
            long unit = new long[] {KiB, MiB, GiB}[random.nextInt(3)];
            sizes.add(1 + (random.nextLong() >>> 14));                                  // anything below 2^50
            sizes.add((1 + random.nextInt(4096)) * unit + random.nextInt(20001) - 10000); // near a whole unit
            sizes.add((1 + random.nextInt(1 << 20)) * MiB + random.nextInt(4097) - 2048); // near a whole MiB
        }
        for (long size : sizes) {
            String text = Bytes.formatSizeOrOffset(size);
            assertThat(text).as("%d", size).isEqualTo(reference(size));
            Long back = offsetForm(text);
            if (back != null) assertThat(back).as(text).isEqualTo(size);
            else assertThat(text).as("%d", size).isEqualTo(Bytes.formatSize(size));
        }
    }

    @Test
    @DisplayName("readable never gives a size near a whole unit as that unit's round figure: it writes the offset, exactly")
    void readableSaysTheOffset() {
        Random random = new Random(1959);
        for (int i = 0; i < 3000; i++) {
            long unit = new long[] {KiB, MiB, GiB, TiB}[random.nextInt(4)];
            long size = (1 + random.nextInt(3000)) * unit + random.nextInt(2001) - 1000;
            String text = Bytes.readable(size);
            assertThat(text).as("%d", size).doesNotContain(".00 ");
            Long back = offsetForm(text);
            if (back == null) back = Long.parseLong(text.substring(0, text.indexOf(' ')));   // "12345 B ..."
            assertThat(back).as(text).isEqualTo(size);
        }
    }

    private static final Pattern OFFSET = Pattern.compile("(\\d+) (KiB|MiB|GiB|TiB)(?: ([-+]) (\\d+) B)?");

    /** The bytes an offset form ({@code 2 MiB - 1 B}, {@code 1029 MiB}) says; null for other text. */
    private static Long offsetForm(String text) {
        Matcher m = OFFSET.matcher(text);
        if (!m.matches()) return null;
        long whole = Long.parseLong(m.group(1)) * unitOf(m.group(2));
        if (m.group(3) == null) return whole;
        long off = Long.parseLong(m.group(4));
        return m.group(3).equals("+") ? whole + off : whole - off;
    }

    private static long unitOf(String name) {
        return switch (name) {
            case "KiB" -> KiB;
            case "MiB" -> MiB;
            case "GiB" -> GiB;
            default -> TiB;
        };
    }

    /**
     * The rule, written plainly with exact decimals (below 2^53 the C++ double is the exact
     * quotient): format_size's unit and two decimals, ties to even; where they read whole and the
     * size is not, the offset from that whole, or from the nearest whole MiB when that whole is a
     * MiB or more away; above 1 MiB, a size less than 1 KiB off a whole MiB likewise.
     */
    static String reference(long size) {
        if (size <= 1024) return size + " bytes";
        long unit = size <= MiB ? KiB : size <= GiB ? MiB : GiB;
        BigDecimal two = BigDecimal.valueOf(size).divide(BigDecimal.valueOf(unit)).setScale(2, RoundingMode.HALF_EVEN);
        String shown = two.toPlainString() + " " + (unit == KiB ? "KiB" : unit == MiB ? "MiB" : "GiB");
        long nearestMiB = BigDecimal.valueOf(size).divide(BigDecimal.valueOf(MiB)).setScale(0, RoundingMode.HALF_UP)
                .longValueExact() * MiB;
        if (two.remainder(BigDecimal.ONE).signum() == 0) {
            long whole = two.longValueExact() * unit;
            if (whole == size) return shown;
            return Math.abs(size - whole) < MiB ? wholeAndOffset(whole, size) : wholeAndOffset(nearestMiB, size);
        }
        if (size > MiB && size != nearestMiB && Math.abs(size - nearestMiB) < KiB) return wholeAndOffset(nearestMiB, size);
        return shown;
    }

    private static String wholeAndOffset(long whole, long size) {
        String name = whole % TiB == 0 ? whole / TiB + " TiB" : whole % GiB == 0 ? whole / GiB + " GiB"
                : whole % MiB == 0 ? whole / MiB + " MiB" : whole / KiB + " KiB";
        long off = size - whole;
        return off == 0 ? name : off > 0 ? name + " + " + off + " B" : name + " - " + -off + " B";
    }
}
