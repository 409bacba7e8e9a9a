package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * The release ships the student edition's playground with the rest of the rendered site, and its
 * check fails a bundle compiled from the reference. The bundles here stand in for TeaVM's (built
 * under -Psite only): the student's carries the Todo message every stubbed step throws, the
 * reference's has none. The real bundles: {@code StudentBundleTest} (playground/student) and
 * {@code PlaygroundBrowserTest.studentEditionShowsNoBody} (site), under -Psite.
 */
@Tag("grading-fixtures")  // writes a student release (~11 s on 2 cores): -Pgrading-fixtures, which .ci/run runs, not every mvn test
class ReleasePlaygroundTest {
    static final String STUDENT = "function $a(){throw $b(\"TODO step \"+\"3.1\"+\" (Round a request) is not written yet:"
            + " read the notes\");}";
    static final String REFERENCE = "function $a(a,b){return Long_add(a,b);}";

    @Test
    @DisplayName("the student edition's playground goes into docs/playground, and a bundle compiled from the reference fails the release")
    void shipsTheStudentPlayground(@TempDir Path tmp) throws Exception {
        Path site = Files.createDirectories(tmp.resolve("site/playground"));
        Files.writeString(site.resolveSibling("index.html"), "<html><body>the course</body></html>\n");
        Files.writeString(site.resolve("vramlab-playground.js"), STUDENT);
        Files.writeString(site.resolve("vramlab-playground-recorded.js"), "var vramlabRecorded = {};\n");
        Files.writeString(site.resolve("ch04-real-oom.html"), "<html><body>playground</body></html>\n");
        Path root = KitPaths.root();
        Path release = tmp.resolve("course");
        ReleaseCommand.write(root, release, site.getParent(), 1);
        Path bundle = release.resolve("docs/playground/vramlab-playground.js");
        assertThat(bundle).hasContent(STUDENT);
        assertThat(release.resolve("docs/playground/vramlab-playground-recorded.js")).isRegularFile();
        assertThat(release.resolve("README.adoc")).content().contains("`docs/playground/`");
        assertThat(ReleaseCommand.shownIn(root, release)).isEmpty();

        Files.writeString(bundle, REFERENCE);
        assertThat(ReleaseCommand.shownIn(root, release)).singleElement().asString()
                .startsWith("docs/playground/vramlab-playground.js: a playground bundle compiled from the reference");
    }
}
