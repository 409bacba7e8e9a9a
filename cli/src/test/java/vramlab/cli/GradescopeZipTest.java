package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./vramlab release --gradescope FILE.zip}: the autograder zip's contents, read back
 * (building it and grading with it, as Gradescope does, is {@code GradescopeLayoutTest} in
 * {@code -Pgrading-fixtures}).
 */
@DisplayName("release --gradescope")
class GradescopeZipTest {
    @TempDir Path tmp;

    @AfterEach
    void clear() {
        System.clearProperty("vramlab.salt");
        System.clearProperty("vramlab.salt.file");
    }

    static List<ZipArchiveEntry> entries(Path zip) throws Exception {
        try (ZipFile z = ZipFile.builder().setPath(zip).get()) {
            return new ArrayList<>(Collections.list(z.getEntries()));
        }
    }

    @Test
    @DisplayName("writes setup.sh and run_autograder at the root, executable, the salt, the kit for grading only")
    void contents() throws Exception {
        Path salt = Files.writeString(tmp.resolve("salt.txt"), "zip-test-salt\nsecond line is not the salt\n");
        System.setProperty("vramlab.salt.file", salt.toString());
        Path zip = tmp.resolve("autograder.zip");
        CliRun r = CliRun.of("release", "--gradescope", zip.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Wrote the Gradescope autograder to " + zip);
        List<ZipArchiveEntry> entries = entries(zip);
        List<String> names = entries.stream().map(ZipArchiveEntry::getName).toList();
        assertThat(names.subList(0, 4)).containsExactly("salt.txt", "pom.xml", "setup.sh", "run_autograder");
        assertThat(names).contains("vramlab", "solutions/pom.xml", "quiz/pom.xml", "cli/pom.xml", "labs/pom.xml",
                        FastFlags.PATH)         // ./vramlab reads it
                .anyMatch(n -> n.matches("chapters/ch03-[^/]+/src/test/java/.*Test\\.java"))
                .noneMatch(n -> n.matches("(.*/)?(target|\\.git|node_modules)/.*"))
                .noneMatch(n -> n.matches("(bench|site|playground|slides|gradecheck|\\.github|\\.ci)/.*"));
        assertThat(entries).filteredOn(e -> List.of("setup.sh", "run_autograder", "vramlab").contains(e.getName()))
                .hasSize(3).allSatisfy(e -> assertThat(e.getUnixMode() & 0111).as(e.getName()).isEqualTo(0111));
        assertThat(Files.size(zip)).isLessThan(20L << 20);
        try (ZipFile z = ZipFile.builder().setPath(zip).get()) {
            assertThat(new String(z.getInputStream(z.getEntry("salt.txt")).readAllBytes())).isEqualTo("zip-test-salt\n");
            String pom = new String(z.getInputStream(z.getEntry("pom.xml")).readAllBytes());
            assertThat(pom).contains("<module>cli</module>", "<module>solutions</module>", "<module>chapters/ch07-pinned</module>")
                    .doesNotContain("<module>bench</module>", "<module>site</module>", "<module>playground</module>",
                            "<module>slides</module>", "<module>gradecheck</module>");
        }
    }

    @Test
    @DisplayName("two zips of one commit are the same bytes: every entry dated by the commit (ReleaseStamp), not the clock")
    void sameCommitSameBytes() throws Exception {
        Path salt = Files.writeString(tmp.resolve("salt.txt"), "zip-test-salt\n");
        System.setProperty("vramlab.salt.file", salt.toString());
        Path first = tmp.resolve("first.zip");
        Path second = tmp.resolve("second.zip");
        for (Path zip : List.of(first, second)) {
            CliRun r = CliRun.of("release", "--gradescope", zip.toString());
            assertThat(r.status()).as(r.err()).isZero();
        }
        // A zip keeps times to 2 s, so two quick writes could match by luck: the dates themselves are checked too.
        long commitTime = vramlab.quiz.ReleaseStamp.of(vramlab.quiz.KitPaths.root()).zipTime();
        assertThat(entries(first)).isNotEmpty().allSatisfy(e -> assertThat(e.getTime()).as(e.getName()).isEqualTo(commitTime));
        assertThat(Files.mismatch(first, second)).as("first byte that differs").isEqualTo(-1L);
    }

    @Test
    @DisplayName("without a salt, or with a salt file that is missing, it refuses in one line")
    void needsTheSalt() {
        Path zip = tmp.resolve("a.zip");
        CliRun r = CliRun.of("release", "--gradescope", zip.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("error: release: no instructor salt: set VRAMLAB_SALT_FILE")
                .doesNotContain("\n");
        System.setProperty("vramlab.salt.file", "grading/nosuch.txt");
        r = CliRun.of("release", "--gradescope", zip.toString());
        assertThat(r.err().strip()).isEqualTo("error: release: salt file grading/nosuch.txt: no such file");
        assertThat(zip).doesNotExist();
    }

    @Test
    @DisplayName("writes the zip alone: a folder beside it, or a name without .zip, is refused")
    void alone() {
        System.setProperty("vramlab.salt", "s");
        assertThat(CliRun.of("release", "--gradescope", tmp.resolve("a.zip").toString(), tmp.resolve("dir").toString())
                .err()).startsWith("error: release: --gradescope writes the autograder zip alone");
        assertThat(CliRun.of("release", "--gradescope", tmp.resolve("a.tar").toString()).err())
                .startsWith("error: release: --gradescope").contains("expected a .zip");
    }
}
