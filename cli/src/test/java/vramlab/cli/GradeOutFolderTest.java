package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reports folder is the instructor's input: a gradebook.csv there that is no gradebook is
 * bad input, refused before anything is graded, with one line and exit 2 (it was exit 1, after
 * a first batch of submissions had been graded for nothing).
 */
class GradeOutFolderTest {
    @TempDir Path tmp;

    @Test
    @DisplayName("grade --out FOLDER holding another gradebook.csv: one line naming it, exit 2, nothing graded")
    void foreignGradebook() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("reports"));
        Files.writeString(out.resolve("gradebook.csv"), "name,score\nx,1\n");
        Path kim = Files.createDirectories(tmp.resolve("kim/labs/answers"));
        CliRun r = CliRun.of("grade", "--practice", "--out", out.toString(), kim.getParent().getParent().toString());
        assertThat(r.status()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("error: grade: " + out.resolve("gradebook.csv") + " is not a gradebook")
                .doesNotContain("\n").doesNotContain("Exception");
        assertThat(out.resolve(".work/kim")).doesNotExist();
    }

    @Test
    @DisplayName("grade --out FILE (the gradebook itself, say): one line naming it, exit 2, not an internal error")
    void outIsAFile() throws Exception {
        Path file = Files.writeString(tmp.resolve("gradebook.csv"), "student,total,max,flags,graded_at,run\n");
        Path kim = Files.createDirectories(tmp.resolve("kim/labs/answers"));
        CliRun r = CliRun.of("grade", "--practice", "--out", file.toString(), kim.getParent().getParent().toString());
        assertThat(r.status()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("error: grade: --out " + file + ": a file, not a folder: the reports go in"
                + " a folder (results.json per student, gradebook.csv, gradebook-items.csv); name a folder");
        assertThat(Files.readString(file)).isEqualTo("student,total,max,flags,graded_at,run\n");
    }
}
