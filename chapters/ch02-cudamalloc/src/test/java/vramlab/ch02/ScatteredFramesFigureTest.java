package vramlab.ch02;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * The scattered-frames figure is the simulator's own state: the 4 MiB allocation's pages sit in
 * exactly the two frames the frees left, which are not neighbours, behind one range of VA.
 */
@DisplayName("The scattered-frames figure")
class ScatteredFramesFigureTest {
    @Test
    @DisplayName("the new allocation takes exactly the freed frames, not neighbours, behind contiguous VA")
    void framesAreTheFreedOnes() {
        Ch02Figures.Scatter sc = Ch02Figures.scatter();
        assertThat(sc.freeBefore()).isEqualTo(mib(4));
        // The card's frames are the four 2 MiB frames from 0; the kept and the freed cover them.
        TreeSet<Long> all = new TreeSet<>(sc.freed());
        all.addAll(sc.kept());
        assertThat(all).containsExactly(0L, mib(2), mib(4), mib(6));
        assertThat(sc.pages()).hasSize(2).containsExactlyInAnyOrderElementsOf(sc.freed());
        assertThat(Math.abs(sc.pages().get(1) - sc.pages().get(0))).as("not neighbours").isGreaterThan(Gpu.PAGE);
        assertThat(sc.process().translate(sc.va() + Gpu.PAGE).physical()).isEqualTo(sc.pages().get(1));
    }

    @Test
    @DisplayName("the figure labels each VA page and each frame with the simulator's addresses, one arrow per page")
    void figureShowsTheState() {
        Ch02Figures.Scatter sc = Ch02Figures.scatter();
        String svg = Ch02Figures.figureScatteredFrames();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 2; i++) labels.add(">" + String.format("0x%x", sc.va() + i * Gpu.PAGE) + "<");
        for (long f = 0; f < sc.card(); f += Gpu.PAGE) labels.add(">" + String.format("0x%x", f) + "<");
        assertThat(svg).contains(labels);
        assertThat(svg.split("<polygon", -1)).as("two arrowheads").hasSize(3);
        assertThat(Ch02Outputs.outputScatteredFrames()).contains(String.format("physical 0x%x", sc.pages().get(0)),
                String.format("physical 0x%x", sc.pages().get(1)));
    }
}
