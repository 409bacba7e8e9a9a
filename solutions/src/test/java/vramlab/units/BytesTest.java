package vramlab.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BytesTest {
    private static final long MiB = Bytes.MiB;


    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(textBlock = """
            4096,      4096
            512B,      512
            4KiB,      4096
            3MiB,      3145728
            1.5GiB,    1610612736
            80GiB,     85899345920
            2 MiB,     2097152
            1.5KiB,    1536
            0.0005KiB, 1
            7m,        7340032
            """)
    @DisplayName("sizes parse with binary units, rounding fractions to the nearest byte")
    void parses(String text, long bytes) {
        assertThat(Bytes.parse(text)).isEqualTo(bytes);
    }

    @ParameterizedTest(name = "''{0}'' is refused")
    @CsvSource({"abc", "12XB", "1.2.3MiB", "MiB", "''"})
    @DisplayName("bad sizes are refused with the text and the expected forms")
    void refuses(String text) {
        assertThatThrownBy(() -> Bytes.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad size '" + text + "'").hasMessageContaining("3MiB");
    }

    @ParameterizedTest(name = "{0} B prints as {1}")
    @CsvSource(textBlock = """
            512,        512 bytes
            1024,       1024 bytes
            1025,       1.00 KiB
            1048576,    1024.00 KiB
            1048577,    1.00 MiB
            20971520,   20.00 MiB
            1073741824, 1024.00 MiB
            1073741825, 1.00 GiB
            3435973837, 3.20 GiB
            """)
    @DisplayName("formatSize follows PyTorch's format_size thresholds (<= 1024 B, <= 1 MiB, <= 1 GiB)")
    void formatsLikePyTorch(long bytes, String text) {
        assertThat(Bytes.formatSize(bytes)).isEqualTo(text);
    }

    @ParameterizedTest(name = "{0} B prints as {1}")
    @CsvSource(textBlock = """
            21102592,   20.12 MiB
            21102593,   20.13 MiB
            21364736,   20.38 MiB
            21626880,   20.62 MiB
            21889024,   20.88 MiB
            1152,       1.12 KiB
            1664,       1.62 KiB
            3355443200, 3.12 GiB
            """)
    @DisplayName("an exact tie rounds to even, as C++'s setprecision(2) prints it: 20 MiB + 128 KiB is 20.12 MiB")
    void tiesToEven(long bytes, String text) {
        assertThat(Bytes.formatSize(bytes)).isEqualTo(text);
    }

    @Test
    @DisplayName("formatSize agrees with exact rational rounding (half even) on 20,000 seeded sizes")
    void againstExactRounding() {
        java.util.Random r = new java.util.Random(20);
        for (int i = 0; i < 20_000; i++) {
            long size = 1025 + (long) (r.nextDouble() * (64L << 30));
            if (i % 4 == 0) size = size / 128 * 128;          // many exact ties
            long unit = size <= Bytes.MiB ? Bytes.KiB : size <= Bytes.GiB ? Bytes.MiB : Bytes.GiB;
            java.math.BigDecimal exact = java.math.BigDecimal.valueOf(size)
                    .divide(java.math.BigDecimal.valueOf(unit), 2, java.math.RoundingMode.HALF_EVEN);
            String suffix = unit == Bytes.KiB ? " KiB" : unit == Bytes.MiB ? " MiB" : " GiB";
            assertThat(Bytes.formatSize(size)).as("%d B", size).isEqualTo(exact.toPlainString() + suffix);
        }
    }

    /** What formatSize printed before it did the arithmetic in longs: the double's exact value, ties to even. */
    private static String viaDouble(long size) {
        long unit = size <= Bytes.MiB ? Bytes.KiB : size <= Bytes.GiB ? Bytes.MiB : Bytes.GiB;
        String suffix = unit == Bytes.KiB ? " KiB" : unit == Bytes.MiB ? " MiB" : " GiB";
        return new java.math.BigDecimal(size / (double) unit).setScale(2, java.math.RoundingMode.HALF_EVEN)
                .toPlainString() + suffix;
    }

    @Test
    @DisplayName("formatSize prints the double C++ prints: every size up to 1 MiB + 64 KiB, seeded ones up to 2^63 - 1, and each side of 2^53 and of every unit's edge")
    void againstTheDouble() {
        for (long size = 1025; size <= Bytes.MiB + 64 * Bytes.KiB; size++) {
            assertThat(Bytes.formatSize(size)).as("%d B", size).isEqualTo(viaDouble(size));
        }
        java.util.Random r = new java.util.Random(53);
        for (int i = 0; i < 200_000; i++) {
            long size = 1025 + (r.nextLong() >>> (1 + r.nextInt(53)));
            if (size <= 1024) continue;
            if (i % 3 == 0) size = size >>> r.nextInt(12) << r.nextInt(12);   // ties and round values
            if (size <= 1024) continue;
            assertThat(Bytes.formatSize(size)).as("%d B", size).isEqualTo(viaDouble(size));
        }
        for (long edge : new long[] {Bytes.MiB, Bytes.GiB, 1L << 53, Long.MAX_VALUE - 64}) {
            for (long size = edge - 64; size <= edge + 64 && size > 0; size++) {
                assertThat(Bytes.formatSize(size)).as("%d B", size).isEqualTo(viaDouble(size));
            }
        }
    }

    @Test
    @DisplayName("alignUp rounds up to a multiple, and the toy prints whole MiB")
    void alignAndToy() {
        assertThat(Bytes.alignUp(Bytes.mib(3) + 1, Bytes.mib(2))).isEqualTo(Bytes.mib(4));
        assertThat(Bytes.alignUp(Bytes.mib(4), Bytes.mib(2))).isEqualTo(Bytes.mib(4));
        assertThat(Bytes.toyM(Bytes.mib(6))).isEqualTo("6M");
        assertThat(Bytes.toyMiB(Bytes.mib(20))).isEqualTo("20 MiB");
        assertThat(Bytes.isPowerOfTwo(4096)).isTrue();
        assertThat(Bytes.isPowerOfTwo(0)).isFalse();
        assertThat(Bytes.isPowerOfTwo(6)).isFalse();
    }

    @ParameterizedTest(name = "{0} B reads {1}")
    @CsvSource(textBlock = """
            100,           100 B
            4096,          4 KiB
            921600,        900 KiB
            1048576,       1 MiB
            3145729,       3 MiB + 1 B
            2097151,       2 MiB - 1 B
            5123456,       5123456 B (4.89 MiB)
            32212254720,   30 GiB
            109951162777600, 100 TiB
            """)
    @DisplayName("readable sizes are exact: a whole unit, a MiB plus a few bytes, or bytes with a rounded aside")
    void readable(long bytes, String text) {
        assertThat(Bytes.readable(bytes)).isEqualTo(text);
    }

    @Test
    @DisplayName("the largest size that fits a long parses; one unit more is refused as too large")
    void parseLimits() {
        assertThat(Bytes.parse("8388607TiB")).isEqualTo(8388607L * Bytes.TiB);   // (2^63 - 1) / 2^40 = 8388607
        assertThatThrownBy(() -> Bytes.parse("8388608TiB")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size too large: 8388608TiB");
        assertThat(Bytes.parse("2TiB")).isEqualTo(2 * Bytes.TiB);
        assertThat(Bytes.parse("3 bytes")).isEqualTo(3);
    }

    @Test
    @DisplayName("isAligned: a multiple of the alignment, and nothing else")
    void aligned() {
        assertThat(Bytes.isAligned(4096, 512)).isTrue();
        assertThat(Bytes.isAligned(0, 512)).isTrue();
        assertThat(Bytes.isAligned(4097, 512)).isFalse();
        assertThat(Bytes.kib(3)).isEqualTo(3072);
        assertThat(Bytes.gib(2)).isEqualTo(2L << 30);
    }

    @ParameterizedTest(name = "{0} B reads {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0             | 0 B
            1023          | 1023 B
            1024          | 1 KiB
            1025          | 1 KiB + 1 B
            1030          | 1030 B
            2048          | 2 KiB
            1047552       | 1023 KiB
            1048570       | 1048570 B
            1048575       | 1 MiB - 1 B
            1049599       | 1 MiB + 1023 B
            1049600       | 1 MiB + 1024 B
            1054000       | 1054000 B (1.01 MiB)
            1073741823    | 1 GiB - 1 B
            1073741824    | 1 GiB
            1073741825    | 1 GiB + 1 B
            1074790400    | 1025 MiB
            1074790401    | 1025 MiB + 1 B
            1610612737    | 1536 MiB + 1 B
            1610613760    | 1610613760 B (1.50 GiB)
            1099511627775 | 1 TiB - 1 B
            1099511627776 | 1 TiB
            1100585369600 | 1025 GiB
            """)
    @DisplayName("readable at each unit's edge: a whole unit from exactly one unit up, and the whole unit and "
            + "the bytes off it where format_size's two decimals would read as that unit (Bytes.formatSizeOrOffset)")
    void readableEdges(long bytes, String text) {
        assertThat(Bytes.readable(bytes)).isEqualTo(text);
    }

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource({"0, 0x0", "4096, 0x1000", "139680928497664, 0x7f0a00200000", "140737488351232, 0x7ffffffff000"})
    @DisplayName("an address prints as lower-case hex with 0x and no leading zeros, as the notes print it")
    void hex(long address, String text) {
        assertThat(Bytes.hex(address)).isEqualTo(text);
    }

    @Test
    @DisplayName("toyMiB's cached text is the uncached formatter's, for edge values, colliding slots and seeded random ones")
    void toyMiBCacheGivesTheSameText() {
        java.util.List<Long> values = new java.util.ArrayList<>(java.util.List.of(0L, 1L, MiB - 1, MiB, MiB + 1,
                20 * MiB, 1024 * MiB, 1025 * MiB, 2048 * MiB, -1L, -MiB, -MiB - 1, -1024 * MiB,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - MiB, Long.MIN_VALUE + 1));
        java.util.Random random = new java.util.Random(38);
        for (int i = 0; i < 20_000; i++) {
            values.add(switch (i % 4) {
                case 0 -> random.nextLong();
                case 1 -> (long) random.nextInt(4096) * MiB + random.nextInt((int) MiB);   // slots hit again
                case 2 -> (long) random.nextInt(8) * 1024 * MiB + 20 * MiB;                // one slot, many values
                default -> -(long) random.nextInt(4096) * MiB - random.nextInt((int) MiB);
            });
        }
        for (int round = 0; round < 2; round++) {            // cold, then whatever the first round left
            for (long v : values) assertThat(Bytes.toyMiB(v)).as("%d", v).isEqualTo(v / MiB + " MiB");
        }
    }

    @Test
    @DisplayName("toyMiB keeps the text it made: the same size twice gives the same string, not a new one")
    void toyMiBKeepsItsText() {
        for (long v : new long[] {0, 20 * MiB, 20 * MiB + 1, 1044 * MiB, -3 * MiB}) {
            assertThat(Bytes.toyMiB(v)).as("%d", v).isSameAs(Bytes.toyMiB(v));
        }
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            1.5         | true
            2.5B        | true
            .5bytes     | true
            ' 0.25 b '  | true
            0.001       | true
            5.          | false
            2.0         | false
            2.50B       | true
            3.000bytes  | false
            4096        | false
            512B        | false
            1.5GiB      | false
            1.5KiB      | false
            0.5k        | false
            1..5        | false
            .           | false
            ''          | false
            1.5XB       | false
            """)
    @DisplayName("a fraction of a byte: a fraction with no unit or in bytes; whole numbers, larger units and non-sizes are not")
    void fractionOfAByte(String text, boolean fraction) {
        assertThat(Bytes.isFractionOfAByte(text)).isEqualTo(fraction);
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            80GiB       | 85899345920
            24B         | 24
            1.5 KiB     | 1536
            ' 3MiB '    | 3145728
            7m          | 7340032
            24          | -1
            1.5         | -1
            .           | -1
            ''          | -1
            '   '       | -1
            0MiB        | -1
            0.0001B     | -1
            lots        | -1
            MiB         | -1
            .MiB        | -1
            1.2.3MiB    | -1
            8388608TiB  | -1
            9999999999999999999999TiB | -1
            \u0666\u0664 | -1
            \u0666\u0664MiB | 67108864
            """)
    @DisplayName("a size where a unit is required: a bare number, 0, a non-size and an overflow are -1")
    void parseWithUnit(String text, long bytes) {
        assertThat(Bytes.parseWithUnit(text)).isEqualTo(bytes);
    }

    @Test
    @DisplayName("parseWithUnit is parse where the text has a unit and the size is positive, on every short text")
    void parseWithUnitMatchesParse() {
        String alphabet = "0159. kKmMiIbB";
        java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of(""));
        for (int len = 1; len <= 4; len++) {
            java.util.List<String> next = new java.util.ArrayList<>();
            for (String t : texts) {
                if (t.length() != len - 1) continue;
                for (char c : alphabet.toCharArray()) next.add(t + c);
            }
            texts.addAll(next);
        }
        for (String t : texts) {
            long expected;
            boolean bare = t.trim().chars().allMatch(c -> c >= '0' && c <= '9' || c == '.');
            try {
                long n = Bytes.parse(t);
                expected = bare || n <= 0 ? -1 : n;
            } catch (IllegalArgumentException | ArithmeticException e) {
                expected = -1;
            }
            assertThat(Bytes.parseWithUnit(t)).as("'%s'", t).isEqualTo(expected);
        }
    }

    /**
     * The replay's address-space limit printed TiB with its own copy of formatSize's padding
     * ({@code AddressSpaceLimit.tib}, on {@code bytes * 100 / TiB}, rounded down); both now use
     * {@link Bytes#hundredths}. This is that copy, the path it replaces.
     */
    private static String oldTib(long hundredths) {
        long cents = hundredths % 100;
        return hundredths / 100 + (cents < 10 ? ".0" : ".") + cents + " TiB";
    }

    @Test
    @DisplayName("formatTiBDown prints what the address-space limit's own TiB formatter printed: each side of"
            + " every hundredth up to 1,000 TiB, and 200,000 seeded sizes; hundredths() pads as it did")
    void tibDownAsTheLimitPrintedIt() {
        long tib = Bytes.TiB;
        for (long h = 0; h <= 100_000; h++) {
            assertThat(Bytes.hundredths(h, new StringBuilder()).append(" TiB").toString()).isEqualTo(oldTib(h));
            long edge = (h * tib + 99) / 100;                         // the first size of hundredth h
            for (long b = Math.max(0, edge - 1); b <= edge + 1; b++) {
                assertThat(Bytes.formatTiBDown(b)).as("%d bytes", b).isEqualTo(oldTib(b * 100 / tib));
            }
        }
        java.util.Random r = new java.util.Random(51);
        long noOverflow = Long.MAX_VALUE / 100;                       // where the old b * 100 is exact
        for (int i = 0; i < 200_000; i++) {
            long b = i % 2 == 0 ? Math.floorMod(r.nextLong(), 8 * tib) : Math.floorMod(r.nextLong(), noOverflow);
            assertThat(Bytes.formatTiBDown(b)).as("%d bytes", b).isEqualTo(oldTib(b * 100 / tib));
        }
        assertThat(Bytes.formatTiBDown(0)).isEqualTo("0.00 TiB");
        assertThat(Bytes.formatTiBDown(7 * tib)).isEqualTo("7.00 TiB");
        assertThat(Bytes.formatTiBDown(tib + tib / 8 - 1)).isEqualTo("1.12 TiB");   // 1.1249...: down, not 1.13
        assertThat(Bytes.formatTiBDown(Long.MAX_VALUE)).isEqualTo("8388607.99 TiB");
    }
}
