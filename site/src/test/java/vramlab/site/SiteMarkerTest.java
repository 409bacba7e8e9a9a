package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.cli.ReleaseCommand;

/**
 * The site build's marker (its edition and build time) is named twice: {@link SiteBuilder#MARKER},
 * which writes it, and the cli's {@link ReleaseCommand#SITE_BUILD_MARKER}, which leaves it out of a
 * release's {@code docs/} (the cli cannot depend on the site). Renamed on one side only, the
 * marker would ship, and with it a build time that makes two releases of one commit differ.
 */
class SiteMarkerTest {
    @Test
    @DisplayName("the release leaves out of docs/ the very marker the site build writes")
    void releaseDropsTheSitesMarker(@TempDir Path tmp) throws Exception {
        assertThat(ReleaseCommand.SITE_BUILD_MARKER).isEqualTo(SiteBuilder.MARKER);
        Path site = Files.createDirectories(tmp.resolve("site/ch01-mmu"));
        Files.writeString(site.resolve("notes.html"), "<html></html>\n");
        Files.writeString(tmp.resolve("site").resolve(SiteBuilder.MARKER), "edition=student\nstamp=20261205045024710\n");
        ReleaseCommand.copySite(tmp.resolve("site"), tmp.resolve("docs"));
        assertThat(tmp.resolve("docs/ch01-mmu/notes.html")).isRegularFile();
        assertThat(tmp.resolve("docs").resolve(SiteBuilder.MARKER)).doesNotExist();
    }
}
