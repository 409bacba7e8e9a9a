package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.figures.TextMetrics;
import vramlab.kit.FigureRegistry;

/**
 * A figure tells the truth about its own frame: it has a viewBox, every text's extent (measured
 * with DejaVu Sans's advance widths, the widest face of the figures' font stack) and every
 * rectangle lie inside it, and every colour comes from the one palette. {@link FigureRegistryTest}
 * runs {@link #check} on every figure of every chapter; here the checker itself is tested.
 */
@DisplayName("The figure fit check")
class FigureFitTest {
    /** The checks every figure of every chapter gets (FigureRegistryTest draws each once and runs them). */
    static void check(String where, String svg) throws Exception {
        assertThat(clipped(svg)).as(where).isEmpty();
        assertThat(svg).as("%s carries the palette", where).contains(Palette.STYLE).contains("prefers-color-scheme: dark");
        assertThat(svg).as("%s colours only through the palette", where)
                .doesNotContainPattern("fill=\"#|stroke=\"#|fill='#|stroke='#");
    }

    /** Every text or box of an SVG that leaves its viewBox, with by how much. */
    static List<String> clipped(String svg) throws Exception {
        Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        String[] vb = root.getAttribute("viewBox").trim().split("\\s+");
        List<String> out = new ArrayList<>();
        if (vb.length != 4) {
            out.add("no viewBox");
            return out;
        }
        double w = Double.parseDouble(vb[2]), h = Double.parseDouble(vb[3]);
        NodeList texts = root.getElementsByTagName("text");
        for (int i = 0; i < texts.getLength(); i++) {
            Element t = (Element) texts.item(i);
            double size = Double.parseDouble(t.getAttribute("font-size").isEmpty() ? "16" : t.getAttribute("font-size"));
            boolean bold = t.getAttribute("font-weight").equals("bold");
            double x = Double.parseDouble(t.getAttribute("x")), y = Double.parseDouble(t.getAttribute("y"));
            double tw = TextMetrics.width(t.getTextContent(), size, bold);
            double left = switch (t.getAttribute("text-anchor")) {
                case "middle" -> x - tw / 2;
                case "end" -> x - tw;
                default -> x;
            };
            double top = y - TextMetrics.ASCENT * size, bottom = y + TextMetrics.DESCENT * size;
            if (left < -0.5 || left + tw > w + 0.5 || top < -0.5 || bottom > h + 0.5) {
                out.add(String.format("text '%s' spans x %.1f..%.1f, y %.1f..%.1f in a %.0fx%.0f viewBox",
                        t.getTextContent(), left, left + tw, top, bottom, w, h));
            }
        }
        NodeList rects = root.getElementsByTagName("rect");
        for (int i = 0; i < rects.getLength(); i++) {
            Element r = (Element) rects.item(i);
            if (r.getAttribute("width").endsWith("%")) continue;
            double x = Double.parseDouble(r.getAttribute("x")), y = Double.parseDouble(r.getAttribute("y"));
            double rw = Double.parseDouble(r.getAttribute("width")), rh = Double.parseDouble(r.getAttribute("height"));
            if (x < -0.5 || y < -0.5 || x + rw > w + 0.5 || y + rh > h + 0.5) {
                out.add(String.format("box at %.1f,%.1f of %.1fx%.1f leaves the %.0fx%.0f viewBox", x, y, rw, rh, w, h));
            }
        }
        return out;
    }

    @Test
    @DisplayName("the fit check finds a label that runs off the right edge and a box below the bottom")
    void findsClipping() throws Exception {
        Svg s = new Svg(200, 50);
        s.text(150, 20, "a label far too long for this", "start", 12);
        s.rect(10, 40, 20, 20, Palette.LIVE, null, null);
        assertThat(clipped(s.toString("t"))).hasSize(2);
        Svg ok = new Svg(200, 50);
        ok.text(100, 20, "fits", "middle", 12);
        assertThat(clipped(ok.toString("t"))).isEmpty();
    }

    @Test
    @DisplayName("a legend wraps before it would leave the figure")
    void legendWraps() throws Exception {
        Svg s = new Svg(300, 120);
        double below = s.legend(10, 10, List.of(new Svg.Key(Palette.LIVE, "a long first entry of the legend"),
                new Svg.Key(Palette.FREE, "a second long entry"), new Svg.Key(Palette.ROUNDING, "third")), 12);
        assertThat(below).as("two rows").isEqualTo(10 + 2 * 22);
        assertThat(clipped(s.toString("t"))).isEmpty();
    }
}
