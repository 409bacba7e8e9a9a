package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.ToyPolicy;
import vramlab.units.Bytes;

/** The size-ladder figure draws each policy's own block and segment for every request of the table. */
@DisplayName("The size ladder, to scale")
class SizeLadderFigureTest {
    @Test
    @DisplayName("every request's block and segment, under both policies, are the policies' answers and the table's")
    void ladderIsThePolicies() {
        String svg = Ch03Figures.figureSizeLadder();
        String table = Ch03Outputs.outputLadderBothPolicies();
        Policy toy = new ToyPolicy(), real = new PyTorchPolicy();
        for (long n : Ch03Outputs.LADDER_SIZES) {
            for (Policy p : new Policy[] {toy, real}) {
                String name = p == toy ? "toy" : "PyTorch";
                long block = p.roundSize(n);
                assertThat(block).isGreaterThanOrEqualTo(n);
                assertThat(p.segmentSize(block)).isGreaterThanOrEqualTo(block);
                assertThat(svg).contains(">" + name + ": block of " + Bytes.readable(block) + " for " + Bytes.readable(n) + "<")
                        .contains(">" + name + ": " + Bytes.readable(p.segmentSize(block)) + " "
                                + p.poolFor(block).name().toLowerCase(java.util.Locale.ROOT) + " segment<")
                        .contains(">" + Ch03Outputs.cell(p, n) + "<");
                assertThat(table).contains(Ch03Outputs.cell(p, n));
            }
        }
        assertThat(toy.roundSize(Bytes.mib(3) / 2)).as("where the two part ways").isNotEqualTo(real.roundSize(Bytes.mib(3) / 2));
    }
}
