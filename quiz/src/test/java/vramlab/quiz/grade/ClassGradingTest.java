package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassGradingTest {
    @TempDir Path tmp;

    @Test
    @DisplayName("./vramlab grade * run again in the submissions' folder skips grades/, the reports folder, saying so")
    void reportsFolderIsNoStudent() throws Exception {
        Path bob = Files.createDirectories(tmp.resolve("bob/labs/src/main/java"));
        Files.createDirectories(tmp.resolve("kim/labs/answers"));
        Path grades = Files.createDirectories(tmp.resolve("grades/.work"));
        Files.writeString(tmp.resolve("grades/gradebook.csv"), "student,total,max,flags,graded_at,run\n");
        List<String> skipped = new ArrayList<>();
        Map<String, Path> picked = ClassGrading.submissions(
                List.of(tmp.resolve("bob"), tmp.resolve("grades"), tmp.resolve("kim")), Path.of(tmp + "/./grades"), skipped);
        assertThat(picked).containsOnlyKeys("bob", "kim");
        assertThat(skipped).singleElement().asString().endsWith("grades: the folder the reports go to (--out), not a submission");
        assertThat(bob).exists();
        assertThat(grades).exists();
    }

    @Test
    @DisplayName("a stray file and a second submission for one student are still skipped, each with why")
    void strayAndSecond() throws Exception {
        Files.createDirectories(tmp.resolve("bob/labs/src/main/java"));
        Path zip = Files.write(tmp.resolve("bob.zip"), new byte[] {'P', 'K', 3, 4});
        Path notes = Files.writeString(tmp.resolve("notes.txt"), "hi");
        List<String> skipped = new ArrayList<>();
        Map<String, Path> picked = ClassGrading.submissions(List.of(tmp.resolve("bob"), zip, notes),
                tmp.resolve("grades"), skipped);
        assertThat(picked).containsOnlyKeys("bob");
        assertThat(skipped).hasSize(2).anySatisfy(s -> assertThat(s).contains("a second submission for bob"))
                .anySatisfy(s -> assertThat(s).contains("not a folder, a .zip or a .tar.gz"));
    }

    @Test
    @DisplayName("the progress line says where the reports of an id that is not its own folder name went")
    void progressNamesAHashedFolder() {
        Grader.Result jose = new Grader.Result("José", List.of(), List.of(), "run", "now", 1000, "labs/ at the top");
        assertThat(ClassGrading.progress(1, 3, jose)).startsWith("[1/3] José: 0/0 in 1.0 s, labs/ at the top, reports in ")
                .endsWith(Grader.folderName("José") + "/").contains("Jos_~");
        Grader.Result inv = new Grader.Result("_inventory", List.of(), List.of(), "run", "now", 1000, "labs/ at the top");
        assertThat(ClassGrading.progress(2, 3, inv)).contains(", reports in _inventory~");
        Grader.Result ana = new Grader.Result("ana", List.of(), List.of(), "run", "now", 1000, "labs/ at the top");
        assertThat(ClassGrading.progress(3, 3, ana)).isEqualTo("[3/3] ana: 0/0 in 1.0 s, labs/ at the top");
    }

    @Test
    @DisplayName("the progress line keeps a compile error's file and line, and cuts its message instead")
    void compileErrorKeepsItsPlace() {
        String flag = "did not compile: the driver core (vramlab/driver/PageTableWalker.java:97: cannot find symbol"
                + " symbol: variable pageSizeInBytes location: class PageTableWalker)";
        Grader.Result r = new Grader.Result("ana", List.of(), List.of(flag, "timed out: 3.2 and 3.4 and more besides"
                + " that ran past the item bound"), "run", "now", 1000, "labs/ at the top");
        String line = ClassGrading.progress(1, 1, r);
        assertThat(line).contains("(did not compile: the driver core (vramlab/driver/PageTableWalker.java:97: cannot find")
                .contains("...)").contains("; timed out:");
        String bare = "did not compile: the alloc core (vramlab/alloc/CachingAllocator.java:97: ';' expected)";
        assertThat(ClassGrading.shortenedFlag(bare, 60)).isEqualTo(bare);
        assertThat(ClassGrading.shortenedFlag("did not compile: the base core (?)", 60))
                .isEqualTo("did not compile: the base core (?)");
        String other = "read the code: vramlab/alloc/Forge.java uses reflection, file writes, processes, the network";
        assertThat(ClassGrading.shortenedFlag(other, 60)).isEqualTo(ClassGrading.shortened(other, 60));
    }

    @Test
    @DisplayName("a re-grade's note alone is not counted as flagged; it stays in the row, and other flags still count")
    void regradeAloneIsNotFlagged() {
        Grader.Result clean = new Grader.Result("ana", List.of(), List.of(Grader.REGRADED + "200/272 at 2026-12-01T10:00:00Z)"),
                "run", "now", 1000, "labs/ at the top");
        Grader.Result broken = new Grader.Result("bob", List.of(), List.of("did not compile: the base core (?)",
                Grader.REGRADED + "10/272 at 2026-12-01T10:00:00Z)"), "run", "now", 1000, "labs/ at the top");
        Grader.Result none = new Grader.Result("cy", List.of(), List.of(), "run", "now", 1000, "labs/ at the top");
        assertThat(new Grader.ClassResult(List.of(clean), List.of()).flagged()).isZero();
        assertThat(new Grader.ClassResult(List.of(clean, broken, none), List.of()).flagged()).isEqualTo(1);
        assertThat(clean.flags()).singleElement().asString().startsWith("regraded (was 200/272");
    }
}
