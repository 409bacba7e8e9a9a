package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.cli.ReleaseCommand;

/**
 * {@code ./vramlab release DIR} with its site, as far as the site goes: the student edition this
 * build rendered (what {@code release} renders, {@code -Dvramlab.site.edition=student}) goes into
 * a release's {@code docs/} beside the sources it ships, and every check {@code release} runs
 * before it hands anything out passes on the whole of it: no step's body as text or as an
 * expression in any page, no bundle from the reference, no quiz key. Runs under {@code -Psite}
 * only (plain {@code mvn test} skips it, saying so): rendering takes JRuby. The release's
 * sources and its own builds: cli's {@code ReleaseTest} ({@code -Pgrading-fixtures}).
 */
class StudentReleaseTest {
    @Test
    @DisplayName("a release with the student edition rendered passes the release's own checks, its pages whole and offline")
    void releaseWithTheSite(@TempDir Path tmp) throws Exception {
        Path site = Rendered.site(Edition.STUDENT);
        Path root = Repo.root();
        Path release = tmp.resolve("course");
        List<String> shown = ReleaseCommand.writeChecked(root, release, site, 1);
        assertThat(shown).as("what release would refuse to hand out").isEmpty();

        Path docs = release.resolve("docs");
        assertThat(docs.resolve("index.html")).isRegularFile();
        for (Course.ChapterDir c : Course.chapters(root)) {
            if (c.notes().isEmpty()) continue;
            assertThat(docs.resolve(c.id()).resolve("notes.html")).as(c.id()).isRegularFile();
        }
        assertThat(docs.resolve("playground/vramlab-playground.js")).isRegularFile();
        // ch03's split listing (splitFront, graded by no step) is shown, as the notes teach it:
        // it resembles one line of step 5.2's body in shape, and the check does not take it for that body.
        assertThat(vramlab.quiz.build.StepBodies.plainText(Files.readString(docs.resolve("ch03-caching-allocator/notes.html"))))
                .contains("block.offset + rounded, block.size - rounded");

        // Opened from the folder with nothing else: every page's scripts, styles and images are in docs/.
        List<Object> broken = new ArrayList<>(OfflineCheck.scanTree(docs));
        for (Path page : Rendered.pages(docs)) broken.addAll(SiteChecks.missingFiles(page));
        assertThat(broken).isEmpty();
    }
}
