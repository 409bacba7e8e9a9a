package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Element;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.kit.FigureRegistry;

@DisplayName("Figures")
class FigureRegistryTest {
    @TestFactory
    @DisplayName("every chapter draws at least one figure, each well-formed SVG with a size that loads nothing, "
            + "every text and box inside its viewBox, in the one palette")
    Stream<DynamicTest> everyFigureIsWellFormed() {
        return Chapters.all().stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> {
            Map<String, FigureRegistry.Figure> figures = FigureRegistry.figures(c);
            assertThat(figures).as("%s has no public static String figureXxx()", c.id()).isNotEmpty();
            for (FigureRegistry.Figure f : figures.values()) {
                String text = f.draw();
                Element svg = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                        .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
                        .getDocumentElement();
                assertThat(OfflineCheck.scan(java.nio.file.Path.of(f.name() + ".svg"), text)).as(f.where()).isEmpty();
                assertThat(text).as("%s runs no script", f.where()).doesNotContain("<script");
                assertThat(svg.getTagName()).as(f.where()).isEqualTo("svg");
                boolean sized = svg.getAttribute("width").matches("\\d+(\\.\\d+)?")
                        && svg.getAttribute("height").matches("\\d+(\\.\\d+)?");
                assertThat(sized || svg.getAttribute("viewBox").matches("[\\d. ]+"))
                        .as("%s has a width and height or a viewBox", f.where()).isTrue();
                FigureFitTest.check(f.where(), text);
            }
        }));
    }

    @Test
    @DisplayName("ch03 and ch04 draw their starter figures from the simulator")
    void starterFigures() {
        assertThat(FigureRegistry.figures(Chapters.find("ch03")).keySet()).contains("split-merge");
        assertThat(FigureRegistry.figures(Chapters.find("ch04")).keySet())
                .contains("fragmentation", "fragmentation-timeline");
        ChapterLab ch04 = Chapters.find("ch04");
        assertThat(FigureRegistry.figures(ch04).get("fragmentation").draw()).contains("4M free");
    }

    @ParameterizedTest(name = "{0}() -> {1}.svg")
    @CsvSource(textBlock = """
            figureSplitMerge,     split-merge
            figureFragmentation,  fragmentation
            figureOom2,           oom2
            figureKVBlocks,       k-v-blocks
            """)
    @DisplayName("a figure method's name gives its file name")
    void fileNames(String method, String file) {
        assertThat(FigureRegistry.fileName(method)).isEqualTo(file);
    }

    @Test
    @DisplayName("notes may show a figure by its name or prefixed with the chapter number")
    void aliases() {
        assertThat(FigureRegistry.shownNames(Chapters.find("ch03"))).contains("split-merge", "ch03-split-merge");
    }

    @Test
    @DisplayName("classes are found in a jar as well as in a classes folder (here: AsciidoctorJ's own jar)")
    void scansJars() {
        assertThat(org.asciidoctor.Asciidoctor.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                .endsWith(".jar");
        assertThat(FigureRegistry.classesOf(org.asciidoctor.Asciidoctor.class)).extracting(Class::getSimpleName)
                .contains("Asciidoctor", "Options", "SafeMode").noneMatch(n -> n.contains("$"));
    }

    public static String figureNotACandidate(int x) { return ""; }

    @Test
    @DisplayName("only public static String figureXxx() with no parameters counts")
    void convention() throws Exception {
        assertThat(FigureRegistry.isFigure(getClass().getMethod("figureNotACandidate", int.class))).isFalse();
        assertThat(FigureRegistry.isFigure(vramlab.ch03.Ch03Figures.class.getMethod("figureSplitMerge"))).isTrue();
    }
}
