package vramlab.ch05;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Smoke test of the lab: it runs, and says what the simulator did. */
@DisplayName("the expandable-segments lab")
class ExpandableLabTest {

    @Test
    @DisplayName("the toy and PyTorch's defaults run out of memory; expandable segments serve 46 MiB")
    void outcomes() {
        List<ExpandableLab.Outcome> o = ExpandableLab.policies().stream().map(ExpandableLab::workload).toList();
        assertThat(o).extracting(ExpandableLab.Outcome::allocator)
                .containsExactly("toy", "pytorch", "pytorch+expandable");
        assertThat(o.get(0).result()).startsWith("OOM: CUDA out of memory. Tried to allocate 46 MiB");
        assertThat(o.get(1).result()).startsWith("OOM: CUDA out of memory. Tried to allocate 46.00 MiB.");
        assertThat(o.get(2).result()).startsWith("OK");
        assertThat(o.get(2).map()).contains("expandable");
    }

    @Test
    @DisplayName("run() prints the table, the three maps and what to notice")
    void prints() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ExpandableLab.run(new PrintStream(buf, true, StandardCharsets.UTF_8));
        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("-- toy --", "-- pytorch --", "-- pytorch+expandable --", "What to notice");
        assertThat(ExpandableLab.summary(new vramlab.alloc.PyTorchPolicy())).contains("CUDA OOMs: 1");
    }

    @Test
    @DisplayName("the figures are SVG drawn from the simulator")
    void figures() {
        assertThat(Ch05Figures.figureThreeAllocators()).startsWith("<svg").contains("pytorch+expandable")
                .contains("stroke-dasharray");
        assertThat(Ch05Figures.figurePages()).startsWith("<svg").contains("<rect");
    }

    @Test
    @DisplayName("the bars are one under another, each allocator's label on its first bar, every bar in one column, within 80 columns")
    void barsFitALine() {
        List<ExpandableLab.Outcome> o = ExpandableLab.policies().stream().map(ExpandableLab::workload).toList();
        String bars = ExpandableLab.bars(o);
        List<String> lines = bars.lines().toList();
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(ExpandableLab.BARS_WIDTH));
        assertThat(lines).hasSize(o.stream().mapToInt(x -> x.bars().size()).sum());
        int column = lines.get(0).indexOf('|');
        assertThat(lines).allSatisfy(l -> assertThat(l.indexOf('|')).as(l).isEqualTo(column));
        for (ExpandableLab.Outcome x : o) {
            assertThat(lines).anyMatch(l -> l.startsWith(x.allocator() + " (") && l.endsWith(x.bars().get(0)));
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ExpandableLab.run(new PrintStream(buf, true, StandardCharsets.UTF_8));
        assertThat(buf.toString(StandardCharsets.UTF_8)).contains(bars);
    }
}
