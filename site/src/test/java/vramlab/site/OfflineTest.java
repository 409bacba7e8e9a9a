package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("Offline")
class OfflineTest {
    static final Path PAGE = Path.of("page.html");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "<script src=\"https://cdn.jsdelivr.net/npm/reveal.js@4.1.2/dist/reveal.js\"></script>",
        "<link rel=\"stylesheet\" href=\"https://fonts.googleapis.com/css?family=Open+Sans\">",
        "<link rel='stylesheet' href='//cdnjs.cloudflare.com/ajax/libs/font-awesome/4.7.0/css/font-awesome.min.css'>",
        "<img class=\"x\" src=\"http://example.org/a.png\">",
        "<style>@import \"https://fonts.googleapis.com/css?family=Lato\";</style>",
        "<style>body { background: url( 'https://example.org/bg.png') }</style>",
        "<svg><image href=\"https://example.org/a.png\"/></svg>",
        "<script type=\"text/javascript\" src=http://example.org/MathJax.js></script>",
    })
    @DisplayName("a script, stylesheet, font or image from the network is found")
    void remoteResourcesAreFound(String html) {
        assertThat(OfflineCheck.scan(PAGE, "<html>\n" + html + "\n</html>")).singleElement()
                .satisfies(f -> assertThat(f.line()).isEqualTo(2));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "<a href=\"https://pytorch.org/memory_viz\">the real viewer</a>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"></svg>",
        "<style>/* @import \"https://fonts.googleapis.com/css?family=Open+Sans\"; */</style>",
        "<!-- <script src=\"https://example.org/x.js\"></script> -->",
        "<script src=\"../reveal.js/dist/reveal.js\"></script><img src=\"figures/a.svg\">",
    })
    @DisplayName("links a reader may follow, namespaces, comments and local files are fine")
    void localAndInertAreFine(String html) {
        assertThat(OfflineCheck.scan(PAGE, html)).isEmpty();
    }

    @Test
    @DisplayName("the site's own templates ask for nothing from the network")
    void templates() throws IOException {
        Path root = Repo.root();
        List<Object> problems = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root.resolve("site/src/site"))) {
            for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                if (p.toString().endsWith(".adoc")) problems.addAll(NotesLint.check(p, root));
                problems.addAll(OfflineCheck.scan(p, Files.readString(p)));
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    @DisplayName("no page, stylesheet or figure this build rendered loads from the network, in either edition (-Psite)")
    void renderedSite() {
        for (Edition e : Edition.values()) assertThat(OfflineCheck.scanTree(Rendered.site(e))).as(e.id()).isEmpty();
    }
}
