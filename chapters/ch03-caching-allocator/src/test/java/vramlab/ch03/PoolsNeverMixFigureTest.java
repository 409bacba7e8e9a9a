package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.figures.SegmentMapFigure.SegmentView;
import vramlab.figures.SegmentMapFigure.Step;

/** The pools figure is the printed run's own segments: the free large one untouched, a new small one. */
@DisplayName("Pools never mix, as segment maps")
class PoolsNeverMixFigureTest {
    @Test
    @DisplayName("after the 900 KiB request the 20 MiB large segment is still one free block and a 2 MiB small segment holds it")
    void segmentsAreTheRun() {
        List<Step> steps = Ch03Figures.poolsNeverMixSteps();
        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).segments()).hasSize(1);
        List<SegmentView> after = steps.get(1).segments();
        assertThat(after).hasSize(2);
        SegmentView large = after.stream().filter(v -> v.label().contains("(large")).findFirst().orElseThrow();
        SegmentView small = after.stream().filter(v -> v.label().contains("(small")).findFirst().orElseThrow();
        assertThat(large.size()).isEqualTo(vramlab.units.Bytes.mib(20));
        assertThat(large.blocks()).hasSize(1).allMatch(b -> !b.live());
        assertThat(small.size()).isEqualTo(vramlab.units.Bytes.mib(2));
        assertThat(small.blocks()).anyMatch(b -> b.live() && b.requested() == vramlab.units.Bytes.kib(900));
        String printed = Ch03Outputs.outputPoolsNeverMix();
        assertThat(printed).contains("pool small").contains("(2 MiB)");
        String svg = Ch03Figures.figurePoolsNeverMix();
        for (Step s : steps) assertThat(svg).contains(s.caption());
    }
}
