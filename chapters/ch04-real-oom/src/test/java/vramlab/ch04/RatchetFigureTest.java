package vramlab.ch04;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The ratchet-against-padding figure draws what the scenario does, not a picture of it. */
@DisplayName("The ratchet against padding, as two curves")
class RatchetFigureTest {
    @Test
    @DisplayName("lengths as they come climb to an OOM; padded, reserved stays flat over as many steps")
    void curvesAreTheScenarios() {
        List<Ch04Figures.ReservedCurve> curves = Ch04Figures.ratchetCurves();
        Ch04Figures.ReservedCurve ratchet = curves.get(0), padded = curves.get(1);
        assertThat(ratchet.oomStep()).isPositive();
        assertThat(ratchet.points()).hasSize(ratchet.oomStep() - 1);
        assertThat(new vramlab.ch04.causes.VariableBatchRatchet(1).run(vramlab.ch04.causes.Causes.defaultPolicy(), 1)
                .story()).anyMatch(l -> l.startsWith("Step " + ratchet.oomStep() + " ("));
        long firstRatchet = ratchet.points().get(0)[1], lastRatchet = ratchet.points().get(ratchet.points().size() - 1)[1];
        assertThat(lastRatchet).isGreaterThan(2 * firstRatchet);

        assertThat(padded.oomStep()).isEqualTo(-1);
        assertThat(padded.points()).hasSize(Math.max(ratchet.oomStep(), 100));
        long min = Long.MAX_VALUE, max = 0;
        for (long[] p : padded.points().subList(padded.points().size() / 2, padded.points().size())) {
            min = Math.min(min, p[1]);
            max = Math.max(max, p[1]);
        }
        assertThat(max).as("padded reserved in the second half of its run").isLessThan(lastRatchet);
        assertThat(max - min).as("padded reserved varies little once warm").isLessThanOrEqualTo(lastRatchet / 4);

        String svg = Ch04Figures.figureRatchetAndPadding();
        assertThat(svg).contains("lengths as they come: OOM at step " + ratchet.oomStep())
                .contains("padded to 128 tokens: no OOM").contains("<polyline");
    }
}
