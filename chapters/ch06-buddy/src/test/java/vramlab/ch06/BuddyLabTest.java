package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ServiceLoader;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import vramlab.kit.ChapterLab;

class BuddyLabTest {

    static String capture(java.util.function.Consumer<PrintStream> lab) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        lab.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("the mechanics walk splits and merges back to one free 16 MiB block")
    void mechanics() {
        String out = capture(BuddyLab::mechanics);
        assertThat(out).contains("alloc 3 MiB   [A 4][F 4][F 8]").contains("free the rest [F 16]");
    }

    @Test
    @DisplayName("the counterexample refuses 128 MiB with 512 MiB free, and paged blocks admit it")
    void counterexample() {
        String out = capture(BuddyLab::counterexample);
        assertThat(out).contains("largest free block 64.00 MiB")
                .contains("buddy: 128 MiB refused with 512.00 MiB free")
                .contains("-> admitted")
                .contains("largest free 512.00 MiB");
    }

    @Test
    @DisplayName("monitoring prints a buddyinfo line every 800 steps, eleven orders from 2 MiB to 2 GiB")
    void monitoring() {
        String[] lines = capture(BuddyLab::monitoring).split("\n");
        assertThat(lines).hasSizeGreaterThan(3).allSatisfy(l ->
                assertThat(l).matches("step +\\d+ free .* unusable\\(1024 tok\\) [01]\\.\\d{3}  "
                        + "Node 0, zone   Normal( +\\d+ ){11}"));
        assertThat(lines[0]).startsWith("step     0 ");
    }

    @Test
    @DisplayName("prefix caching: 64 shared prompt blocks plus 4 own blocks each, instead of 68 each")
    void prefixSharing() {
        int[] blocks = BuddyLab.prefixSharing(new PrintStream(java.io.OutputStream.nullOutputStream()));
        assertThat(blocks[0]).isEqualTo(64 * 68);          // (1024 + 64) / 16 = 68 blocks per request
        assertThat(blocks[1]).isEqualTo(64 + 64 * 4);      // the prompt's 64 blocks once, 4 each of their own
    }

    @Test
    @DisplayName("the launcher finds the chapter as 6 / buddy, with a startup that defines help()")
    void registered() {
        ChapterLab lab = ServiceLoader.load(ChapterLab.class).stream().map(ServiceLoader.Provider::get)
                .filter(l -> l.number() == 6).findFirst().orElseThrow();
        assertThat(lab.slug()).isEqualTo("buddy");
        assertThat(lab.id()).isEqualTo("ch06-buddy");
        assertThat(lab.jshellStartup()).contains("import vramlab.buddy.*;").contains("void help()");
    }

    @Test
    @DisplayName("the split-tree figure is well-formed SVG with one rectangle per tree node")
    void splitTreeFigure() throws Exception {
        Document svg = parse(Ch06Figures.figureSplitTree());
        // tree after alloc 3, 1, 2 MiB: 16 | 8 8 | 4 4 | 2 2 | 1 1 = 9 nodes, each with its tooltip
        var rects = svg.getElementsByTagName("rect");
        int nodes = 0;
        for (int i = 0; i < rects.getLength(); i++) {
            if (rects.item(i).getFirstChild() != null) nodes++;
        }
        assertThat(nodes).isEqualTo(9);
    }

    @Test
    @DisplayName("the largest-servable figure draws one line per contender")
    void servableFigure() throws Exception {
        Comparison c = new Comparison(new Workload(1, 30, 0.3, LengthDist.uniform(32, 256),
                LengthDist.uniform(16, 64), 16), ModelShape.LLAMA_3_8B, vramlab.units.Bytes.gib(1),
                java.util.List.of(KvContender.buddy(), KvContender.paged(16)));
        Document svg = parse(Ch06Figures.largestServable(c.run(false), 8192));
        var lines = svg.getElementsByTagName("polyline");    // the data lines carry a tooltip, legend keys not
        int data = 0;
        for (int i = 0; i < lines.getLength(); i++) {
            if (lines.item(i).getFirstChild() != null) data++;
        }
        assertThat(data).isEqualTo(2);
    }

    static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new java.io.ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }
}
