package vramlab.ch02;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.units.Bytes;

/** The tax curve is the driver's own allocation sizes, checked against the rule in one line. */
@DisplayName("The rounding tax per request size")
class TaxBySizeFigureTest {
    /** Rule 1 as a reference model: a 512 B slice up to 1 MiB, whole 2 MiB pages above. */
    private static long mapped(long size) {
        return size <= mib(1) ? Bytes.alignUp(size, 512) : Bytes.alignUp(size, mib(2));
    }

    @Test
    @DisplayName("every point is what the rule maps; zero tax at each multiple of 2 MiB, the peak one byte later")
    void curveIsTheDriver() {
        List<long[]> pts = Ch02Figures.taxPoints();
        assertThat(pts).hasSizeGreaterThan(700);
        for (long[] p : pts) assertThat(p[1]).as("mapped for %d B", p[0]).isEqualTo(mapped(p[0]));
        for (long[] p : pts) {
            if (p[0] % mib(2) == 0) assertThat(Ch02Figures.taxShare(p)).isZero();
        }
        long[] peak = pts.stream().max((a, b) -> Double.compare(Ch02Figures.taxShare(a), Ch02Figures.taxShare(b)))
                .orElseThrow();
        assertThat(peak[0]).isEqualTo(mib(2) + 1);
        String svg = Ch02Figures.figureTaxBySize();
        for (long at : new long[] {mib(2) + 1, mib(8) + 1, mib(16) + 1}) {
            long[] p = {at, mapped(at)};
            assertThat(svg).contains(">" + Bytes.readable(at) + ": " + Ch02Figures.pct(Ch02Figures.taxShare(p)) + "<");
        }
    }
}
