package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.units.Bytes;

/**
 * A message copied from a localised log, its figures written with a decimal comma. PyTorch prints
 * a point (format_size in c10/cuda/CUDACachingAllocator.cpp), so the kit reads a comma as one
 * only where it cannot be a thousands separator ({@link DecimalCommas}).
 */
@DisplayName("Figures written with a decimal comma")
class DecimalCommasTest {
    static final String WITH_POINTS = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. "
            + "GPU 0 has a total capacity of 23.65 GiB of which 1.02 GiB is free. Including non-PyTorch memory, "
            + "this process has 22.61 GiB memory in use. Of the allocated memory 20.11 GiB is allocated by "
            + "PyTorch, and 2.05 GiB is reserved by PyTorch but unallocated.";
    static final String WITH_COMMAS = WITH_POINTS.replaceAll("(\\d)\\.(\\d\\d) GiB", "$1,$2 GiB");

    @Test
    @DisplayName("'1,96 GiB' in a message without decimal points reads as 1.96 GiB, and the report says so")
    void readAsPoints() {
        assertThat(WITH_COMMAS).contains("Tried to allocate 1,96 GiB").doesNotContain("1.96");
        Diagnosis commas = Triage.of(WITH_COMMAS), points = Triage.of(WITH_POINTS);
        assertThat(commas.reading().figures()).isEqualTo(points.reading().figures());
        assertThat(commas.reading().missing()).isEmpty();
        assertThat(commas.cause()).isEqualTo(points.cause()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(commas.evidence()).isEqualTo(points.evidence());
        assertThat(commas.text()).contains("Commas were read as decimal points (1,96 GiB as 1.96 GiB, "
                + "6 figures)");
        assertThat(commas.json()).contains("Commas were read as decimal points");
        assertThat(points.text()).doesNotContain("Commas were read");
    }

    @Test
    @DisplayName("one decimal too ('2,5 GiB'), and MiB, KiB as format_size prints them")
    void oneDecimalAndOtherUnits() {
        Diagnosis d = Triage.of("CUDA out of memory. Tried to allocate 512,50 MiB. GPU 0 has a total capacity of "
                + "7,5 GiB of which 20,25 KiB is free.");
        assertThat(d.reading().get(Figure.REQUESTED)).isEqualTo(Bytes.parse("512.50MiB"));
        assertThat(d.reading().get(Figure.CAPACITY)).isEqualTo(Bytes.parse("7.5GiB"));
        assertThat(d.reading().get(Figure.FREE)).isEqualTo(Bytes.parse("20.25KiB"));
    }

    @Test
    @DisplayName("a single comma figure is counted as one")
    void oneFigure() {
        Diagnosis d = Triage.of("CUDA out of memory. Tried to allocate 3,50 GiB.");
        assertThat(d.reading().get(Figure.REQUESTED)).isEqualTo(Bytes.parse("3.5GiB"));
        assertThat(d.text()).contains("Commas were read as decimal points (3,50 GiB as 3.50 GiB, 1 figure):");
    }

    @Test
    @DisplayName("'1,024 MiB' (three digits after the comma) is left unread, never 1.024 MiB nor 24 MiB")
    void thousandsSeparatorAlone() {
        Diagnosis d = Triage.of("CUDA out of memory. Tried to allocate 1,024 MiB. GPU 0 has a total capacity of "
                + "23,65 GiB of which 1,02 GiB is free.");
        assertThat(d.reading().has(Figure.REQUESTED)).as(d.text()).isFalse();
        assertThat(d.reading().missing()).contains(Figure.REQUESTED.label());
        assertThat(d.reading().get(Figure.CAPACITY)).isEqualTo(Bytes.parse("23.65GiB"));
        assertThat(d.reading().get(Figure.FREE)).isEqualTo(Bytes.parse("1.02GiB"));
        assertThat(d.text()).contains("A figure such as 1,024 MiB (three digits after the comma) was left unread")
                .contains("the kit does not guess");
    }

    @Test
    @DisplayName("the ambiguous case: only '1,024 MiB'-style figures, no point anywhere: nothing is guessed")
    void ambiguous() {
        Diagnosis d = Triage.of("CUDA out of memory. Tried to allocate 1,024 MiB. GPU 0 has a total capacity of "
                + "24,576 MiB of which 1,000 MiB is free.");
        assertThat(d.reading().has(Figure.REQUESTED)).isFalse();
        assertThat(d.reading().has(Figure.CAPACITY)).isFalse();
        assertThat(d.reading().has(Figure.FREE)).isFalse();
        assertThat(d.text()).contains("3 figures such as 1,024 MiB (three digits after the comma) were left unread")
                .doesNotContain("Commas were read as decimal points");
        assertThat(d.cause()).isEqualTo(Cause.CANNOT_TELL);
    }

    @Test
    @DisplayName("a paste with decimal points keeps its commas: '1,5 GiB' beside '2.00 GiB' is left unread")
    void pointsWin() {
        Diagnosis d = Triage.of("CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
                + "23.65 GiB of which 1,5 GiB is free.");
        assertThat(d.reading().get(Figure.REQUESTED)).isEqualTo(2L << 30);
        assertThat(d.reading().has(Figure.FREE)).isFalse();
        assertThat(d.text()).contains("A figure with a comma (1,5 GiB) stands next to figures with a decimal point");
    }

    @Test
    @DisplayName("a thousands separator before a point ('1,024.00 GiB total capacity') is never read as 24 GiB")
    void thousandsSeparatorWithPoint() {
        Diagnosis d = Triage.of("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; "
                + "1,024.00 GiB total capacity; 3.49 GiB already allocated; 1,000.04 GiB free; 3.50 GiB reserved "
                + "in total by PyTorch)");
        assertThat(d.reading().family()).isEqualTo(Family.RESERVED_IN_TOTAL);
        assertThat(d.reading().has(Figure.CAPACITY)).as(d.text()).isFalse();
        assertThat(d.reading().has(Figure.FREE)).as(d.text()).isFalse();
        assertThat(d.reading().get(Figure.ALLOCATED_BY_PYTORCH)).isEqualTo(Bytes.parse("3.49GiB"));
    }

    @Test
    @DisplayName("'1.024,00 MiB' (points for thousands, a comma and two decimals, as a German locale prints) reads"
            + " as 1024.00 MiB, and the report says so")
    void groupedWithPoints() {
        String points = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1024.00 MiB. GPU 0 has a total"
                + " capacity of 23.65 GiB of which 1000.50 MiB is free. Of the allocated memory 20.11 GiB is allocated"
                + " by PyTorch, and 24576.00 KiB is reserved by PyTorch but unallocated.";
        String german = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.024,00 MiB. GPU 0 has a total"
                + " capacity of 23,65 GiB of which 1.000,50 MiB is free. Of the allocated memory 20,11 GiB is allocated"
                + " by PyTorch, and 24.576,00 KiB is reserved by PyTorch but unallocated.";
        Diagnosis g = Triage.of(german), p = Triage.of(points);
        assertThat(g.reading().get(Figure.REQUESTED)).as(g.text()).isEqualTo(1024L << 20);
        assertThat(g.reading().figures()).isEqualTo(p.reading().figures());
        assertThat(g.reading().missing()).isEmpty();
        assertThat(g.cause()).isEqualTo(p.cause());
        assertThat(g.evidence()).isEqualTo(p.evidence());
        assertThat(g.text()).contains("Commas were read as decimal points (23,65 GiB as 23.65 GiB, 2 figures)")
                .contains("Points were read as thousands separators and the comma after them as a decimal point"
                        + " (1.024,00 MiB as 1024.00 MiB, 3 figures)")
                .doesNotContain("left unread");
        assertThat(g.json()).contains("Points were read as thousands separators");

        Diagnosis alone = Triage.of("CUDA out of memory. Tried to allocate 1.024,00 MiB.");
        assertThat(alone.reading().get(Figure.REQUESTED)).isEqualTo(1024L << 20);
        assertThat(alone.text()).contains("(1.024,00 MiB as 1024.00 MiB, 1 figure)")
                .doesNotContain("Commas were read as decimal points");
        assertThat(DecimalCommas.read("Tried to allocate 12.345.678,90 KiB.").text())
                .isEqualTo("Tried to allocate 12345678.90 KiB.");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1.024,0 MiB", "1.024,000 MiB", "1.024,5 MiB", "1.5,00 MiB", "1.02,00 MiB",
            "1024.000,00 MiB", "1.0245,00 MiB", ".024,00 MiB", "1,024,00 MiB"})
    @DisplayName("a figure with a point and a comma in any other shape is left unread, never read as its tail")
    void otherShapesWithPointAndComma(String figure) {
        Diagnosis d = Triage.of("CUDA out of memory. Tried to allocate " + figure + ". GPU 0 has a total capacity of "
                + "23,65 GiB of which 1,02 GiB is free.");
        assertThat(d.reading().has(Figure.REQUESTED)).as(d.text()).isFalse();
        assertThat(d.reading().missing()).contains(Figure.REQUESTED.label());
        assertThat(d.reading().get(Figure.CAPACITY)).isEqualTo(Bytes.parse("23.65GiB"));
        assertThat(d.text()).doesNotContain("Points were read as thousands separators");
    }

    @Test
    @DisplayName("'1.024,00 MiB' beside a figure with a decimal point ('2.00 GiB') is left unread: the paste mixes two"
            + " ways of writing numbers")
    void groupedBesidePoints() {
        Diagnosis d = Triage.of("CUDA out of memory. Tried to allocate 1.024,00 MiB. GPU 0 has a total capacity of "
                + "23.65 GiB of which 1.02 GiB is free.");
        assertThat(d.reading().has(Figure.REQUESTED)).as(d.text()).isFalse();
        assertThat(d.reading().get(Figure.CAPACITY)).isEqualTo(Bytes.parse("23.65GiB"));
        assertThat(d.text()).contains("A figure with a comma (1.024,00 MiB) stands next to figures with a decimal point")
                .doesNotContain("Points were read as thousands separators");
    }

    @Test
    @DisplayName("every whole part from 0 to 11.999 and a few up to 12.345.678.901, as a German locale prints it (%,.2f),"
            + " reads as the point version (%.2f)")
    void exhaustiveGermanFigures() {
        java.util.List<Long> wholes = new java.util.ArrayList<>();
        for (long n = 0; n < 12_000; n++) wholes.add(n);
        wholes.addAll(java.util.List.of(99_999L, 100_000L, 999_999L, 1_000_000L, 1_234_567L, 12_345_678_901L));
        for (long n : wholes) {
            java.math.BigDecimal v = java.math.BigDecimal.valueOf(n * 100 + (n * 37) % 100, 2);
            String german = String.format(java.util.Locale.GERMANY, "Tried to allocate %,.2f MiB.", v);
            String points = String.format(java.util.Locale.ROOT, "Tried to allocate %.2f MiB.", v);
            DecimalCommas.Result r = DecimalCommas.read(german);
            if (!r.text().equals(points) || !r.note().startsWith(n < 1000 ? "Commas were read" : "Points were read")) {
                assertThat(r.text()).as(german).isEqualTo(points);
                assertThat(r.note()).as(german).startsWith(n < 1000 ? "Commas were read" : "Points were read");
            }
        }
    }

    @Test
    @DisplayName("seeded random figures: the comma version, and the German one (1.024,00), read exactly as the point"
            + " version")
    void seededRandom() {
        Random rnd = new Random(49);
        for (int i = 0; i < 300; i++) {
            long cap = (1L << 30) + (long) (rnd.nextDouble() * (200L << 30));
            long tried = 1025 + (long) (rnd.nextDouble() * cap);
            long free = (long) (rnd.nextDouble() * tried);
            long alloc = 1025 + (long) (rnd.nextDouble() * (cap - free) / 2);
            long unalloc = 1025 + (long) (rnd.nextDouble() * (cap - free - alloc) / 2);
            String points = "CUDA out of memory. Tried to allocate " + Bytes.formatSize(tried) + ". GPU 0 has a "
                    + "total capacity of " + Bytes.formatSize(cap) + " of which " + Bytes.formatSize(free)
                    + " is free. Of the allocated memory " + Bytes.formatSize(alloc) + " is allocated by PyTorch, and "
                    + Bytes.formatSize(unalloc) + " is reserved by PyTorch but unallocated.";
            String commas = points.replaceAll("(\\d)\\.(\\d\\d) ([KMG]iB)", "$1,$2 $3");
            Diagnosis p = Triage.of(points), c = Triage.of(commas), g = Triage.of(german(points));
            assertThat(c.reading().figures()).as(commas).isEqualTo(p.reading().figures());
            assertThat(c.cause()).as(commas).isEqualTo(p.cause());
            assertThat(c.evidence()).as(commas).isEqualTo(p.evidence());
            assertThat(g.reading().figures()).as(german(points)).isEqualTo(p.reading().figures());
            assertThat(g.cause()).as(german(points)).isEqualTo(p.cause());
            assertThat(g.evidence()).as(german(points)).isEqualTo(p.evidence());
        }
    }

    /** Every "1234.56 MiB" of a message as a German locale writes it: "1.234,56 MiB". */
    private static String german(String points) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)\\.(\\d\\d) ([KMG]iB)").matcher(points);
        StringBuilder out = new StringBuilder();
        int copied = 0;
        while (m.find()) {
            out.append(points, copied, m.start()).append(String.format(java.util.Locale.GERMANY, "%,d",
                    Long.parseLong(m.group(1)))).append(',').append(m.group(2)).append(' ').append(m.group(3));
            copied = m.end();
        }
        return out.append(points, copied, points.length()).toString();
    }
}
