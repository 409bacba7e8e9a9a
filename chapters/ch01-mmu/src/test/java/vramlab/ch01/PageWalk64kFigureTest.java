package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Walk;

/** The 64 KiB walk is the simulator's walk of the page it maps, one level deeper than the 2 MiB one. */
@DisplayName("The page walk at 64 KiB")
class PageWalk64kFigureTest {
    @Test
    @DisplayName("the walk finds the frame plus the offset, through one more table than a 2 MiB page, and the figure shows each step")
    void walkIsTheSimulators() {
        Walk w = Ch01Figures.walk64k();
        assertThat(w.found()).isTrue();
        assertThat(w.physical()).as("frame + offset into the 64 KiB page").isEqualTo(Ch01Figures.WALK64_FRAME + 0x1234);
        GpuProcess p = new Gpu(vramlab.units.Bytes.mib(40)).openToyProcess();
        long ptr = p.cudaMalloc(vramlab.units.Bytes.mib(2));
        Walk big = p.walk(ptr + 0x40);
        assertThat(w.steps()).hasSize(big.steps().size() + 1);
        String svg = Ch01Figures.figurePageWalk64k();
        for (Walk.Step s : w.steps()) {
            assertThat(svg).contains(">" + s.level() + "[" + s.index() + "]<").contains(">" + vramlab.figures.Svg.escape(s.entry()) + "<");
        }
        assertThat(svg).contains(String.format("physical 0x%x", w.physical()));
    }
}
