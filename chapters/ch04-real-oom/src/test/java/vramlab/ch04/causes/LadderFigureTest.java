package vramlab.ch04.causes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

import vramlab.triage.Cause;

@DisplayName("The ladder figure")
class LadderFigureTest {
    @Test
    @DisplayName("is well-formed SVG with one step per cause, in order, each linked to its scenario")
    void wellFormed() throws Exception {
        String svg = LadderFigure.figureLadder();
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
        int last = -1;
        for (Cause c : Cause.values()) {
            if (c.step() == 0) continue;        // NOT_PYTORCH_OOM and CANNOT_TELL are no rung
            if (c == Cause.OUTSIDE_ALLOCATOR) continue;   // step 3 without a distributed run: no scenario
            int at = svg.indexOf(">" + c.name() + "<");
            assertThat(at).as(c.name()).isGreaterThan(last);
            last = at;
        }
        for (Scenario s : Causes.all()) assertThat(svg).contains(s.name());
        assertThat(doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "a").getLength()).isEqualTo(6);
    }
}
