package vramlab.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import vramlab.alloc.Block;
import vramlab.alloc.Sim;
import vramlab.figures.SegmentMapFigure.BlockView;
import vramlab.figures.SegmentMapFigure.SegmentView;
import vramlab.figures.TimelineFigure.Event;

class FiguresTest {
    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        Element root = d.getDocumentElement();
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(root.getAttribute("width")).matches("\\d+");
        assertThat(root.getAttribute("viewBox")).matches("0 0 \\d+ \\d+");
        return d;
    }

    static List<Element> rectsOfClass(Document d, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList rects = d.getElementsByTagName("rect");
        for (int i = 0; i < rects.getLength(); i++) {
            Element e = (Element) rects.item(i);
            if (java.util.Arrays.asList(e.getAttribute("class").split(" ")).contains(cls)) out.add(e);
        }
        return out;
    }

    @Nested
    @DisplayName("MemoryViz colours")
    class Colours {
        /** MemoryViz.js's hashCode, written the JavaScript way: 32-bit wrap after each step. */
        int jsHash(String s) {
            int h = 0;
            for (char c : s.toCharArray()) h = (int) ((long) (h << 5) - h + c);
            return h;
        }

        @Test
        @DisplayName("a block's colour is Tableau10[|hash(address)| % 10], the hash as JavaScript computes it (seed 9)")
        void blockColourFollowsTheJavaScriptHash() {
            Random r = new Random(9);
            for (int i = 0; i < 2000; i++) {
                long addr = r.nextLong() >>> r.nextInt(64);
                int expected = (int) (Math.abs((long) jsHash(Long.toString(addr))) % 10);
                assertThat(MemoryVizColors.blockColor(addr)).as("address %d", addr)
                        .isEqualTo(MemoryVizColors.TABLEAU10[expected]);
            }
        }
    }

    @Nested
    @DisplayName("segment map")
    class SegmentMaps {
        @Test
        @DisplayName("after the fragmentation fill, each rounded live block shows one rounding band, and every live "
                + "block the one live colour the legend names")
        void roundingLossIsRed() throws Exception {
            Sim sim = new Sim(mib(40));
            List<Block> small = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                small.add(sim.alloc(mib(3) + 1));
                sim.alloc(mib(5) + 1);
            }
            small.forEach(sim::free);
            List<SegmentView> segs = SegmentMapFigure.snapshot(sim.allocator());
            long rounded = segs.stream().flatMap(s -> s.blocks().stream())
                    .filter(b -> b.live() && b.size() > b.requested()).count();
            Document d = parse(SegmentMapFigure.svg("fragmented", segs));
            assertThat(rounded).isEqualTo(4);
            assertThat(rectsOfClass(d, "rounding")).hasSize((int) rounded + 1);   // and the legend's swatch
            long live = segs.stream().flatMap(s -> s.blocks().stream()).filter(BlockView::live).count();
            assertThat(rectsOfClass(d, "live")).hasSize((int) live + 1);
            assertThat(segs).hasSize(sim.allocator().segments().size());
        }

        @Test
        @DisplayName("a snapshot does not change when the allocator does")
        void snapshotIsACopy() {
            Sim sim = new Sim(mib(40));
            Block a = sim.alloc(mib(4));
            List<SegmentView> before = SegmentMapFigure.snapshot(sim.allocator());
            sim.free(a);
            assertThat(before.get(0).blocks().get(0).live()).isTrue();
        }

        @Test
        @DisplayName("blocks that do not tile their segment are refused")
        void tilingIsChecked() {
            assertThatThrownBy(() -> new SegmentView("s", 0, mib(4),
                    List.of(new BlockView(0, mib(2), mib(2), true))))
                    .hasMessageContaining("blocks cover 2097152 of 4194304");
        }
    }

    @Nested
    @DisplayName("active-memory timeline")
    class Timeline {
        @Test
        @DisplayName("freeing the bottom allocation slides the one above down over three steps")
        void freeSlidesTheStackDown() {
            List<TimelineFigure.Band> bands = TimelineFigure.stack(List.of(
                    Event.alloc("a", 1), Event.alloc("b", 2), Event.free("a")));
            // MemoryViz.js: each alloc and each free advances one step; the slide takes three more.
            assertThat(bands.get(0).steps()).containsExactly(0, 3);
            assertThat(bands.get(0).offsets()).containsExactly(0L, 0L);
            assertThat(bands.get(1).steps()).containsExactly(1, 3, 6, 6);
            assertThat(bands.get(1).offsets()).containsExactly(1L, 1L, 0L, 0L);
        }

        @Test
        @DisplayName("the figure has one polygon per allocation, each in the live colour its legend names")
        void onePolygonPerAllocation() throws Exception {
            Document d = parse(TimelineFigure.svg("t", List.of(Event.alloc("a", mib(4)),
                    Event.alloc("b", mib(6)), Event.free("a"), Event.alloc("c", mib(2)))));
            NodeList polys = d.getElementsByTagName("polygon");
            assertThat(polys.getLength()).isEqualTo(3);
            for (int i = 0; i < polys.getLength(); i++) {
                assertThat(((Element) polys.item(i)).getAttribute("class")).isEqualTo("live");
            }
            assertThat(rectsOfClass(d, "live")).hasSize(1);                       // the legend's swatch
        }

        @Test
        @DisplayName("freeing a handle that is not live names it")
        void badFree() {
            assertThatThrownBy(() -> TimelineFigure.stack(List.of(Event.free("x"))))
                    .hasMessage("free x: handle not live");
        }
    }

    @Nested
    @DisplayName("page walk and buddy tree")
    class WalkAndBuddy {
        @Test
        @DisplayName("a walk draws one table per level and is well-formed")
        void walk() throws Exception {
            List<PageWalkFigure.Level> levels = List.of(new PageWalkFigure.Level("PDE3", 2, 0, "-> PDE2"),
                    new PageWalkFigure.Level("PDE0", 8, 5, "-> PTE"), new PageWalkFigure.Level("PTE", 9, 17, "frame 7"));
            Document d = parse(PageWalkFigure.svg("walk", 0x1234000L, levels, 12, "frame 7"));
            long tables = 0;
            NodeList titles = d.getElementsByTagName("title");
            for (int i = 0; i < titles.getLength(); i++) {
                if (titles.item(i).getTextContent().endsWith(" table")) tables++;
            }
            assertThat(tables).isEqualTo(3);
        }

        @Test
        @DisplayName("an index wider than its bits is refused")
        void indexMustFit() {
            assertThatThrownBy(() -> new PageWalkFigure.Level("PTE", 2, 4, "x"))
                    .hasMessage("PTE: index 4 does not fit 2 bits");
        }

        @Test
        @DisplayName("a buddy tree is well-formed and refuses a misaligned block")
        void buddy() throws Exception {
            parse(BuddyTreeFigure.svg("buddy", mib(8), List.of(
                    new BuddyTreeFigure.Node(0, mib(8), BuddyTreeFigure.State.SPLIT),
                    new BuddyTreeFigure.Node(0, mib(4), BuddyTreeFigure.State.ALLOCATED),
                    new BuddyTreeFigure.Node(mib(4), mib(4), BuddyTreeFigure.State.FREE))));
            assertThatThrownBy(() -> new BuddyTreeFigure.Node(mib(2), mib(4), BuddyTreeFigure.State.FREE))
                    .hasMessage("offset 2097152 is not aligned to its size 4194304");
        }
    }

    @Nested
    @DisplayName("run chart")
    class RunCharts {
        /** A polyline's look: its colour class and its dash ("" when solid). */
        private static String look(Element line) {
            return line.getAttribute("class") + " / " + line.getAttribute("stroke-dasharray");
        }

        @Test
        @DisplayName("advise's 8 settings: every reserved line has its own colour and dash, and its legend swatch the same")
        void eightSeriesStayApart() throws Exception {
            // advise's chart drew its 7th and 8th settings in the 1st's and 2nd's colour and dash, in
            // the legend too (walk of a fresh clone, issue 52).
            List<RunChart.Series> series = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                series.add(new RunChart.Series("setting " + i, new long[] {1, 2, 3},
                        new long[] {mib(10 + i), mib(20 + i), mib(30 + i)}, new long[] {mib(5), mib(6), mib(7)}, List.of()));
            }
            Document d = parse(RunChart.svg("Reserved and allocated over the run", series, mib(64)));
            NodeList lines = d.getElementsByTagNameNS("*", "polyline");
            java.util.Map<String, String> reserved = new java.util.LinkedHashMap<>();
            List<String> swatches = new ArrayList<>();
            for (int i = 0; i < lines.getLength(); i++) {
                Element l = (Element) lines.item(i);
                NodeList title = l.getElementsByTagNameNS("*", "title");
                if (title.getLength() == 0) swatches.add(look(l));
                else if (title.item(0).getTextContent().endsWith(": reserved")) {
                    reserved.put(title.item(0).getTextContent(), look(l));
                }
            }
            assertThat(reserved).hasSize(8);
            assertThat(new java.util.HashSet<>(reserved.values())).as("distinct colour and dash pairs").hasSize(8);
            assertThat(swatches).as("the legend, in order, as the lines").containsExactlyElementsOf(reserved.values());
            assertThat(look((Element) lines.item(1))).as("the first series as before").isEqualTo("s0 / ");
        }
    }
}
