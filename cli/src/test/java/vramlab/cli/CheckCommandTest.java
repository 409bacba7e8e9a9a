package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.ChapterLab;
import vramlab.quiz.KitPaths;
import vramlab.quiz.grade.Kit;

/** {@code check} on the reference, and its usage errors. */
class CheckCommandTest {
    @Test
    @DisplayName("check 3 --reference: every graded test of the chapter passes, and the score is full")
    void reference() {
        CliRun r = CliRun.of("check", "caching-allocator", "--reference");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        for (String step : new String[] {"3.1 Round a request", "3.2 Find a block", "3.3 The split rule",
                "3.4 Merge on free", "3.5 empty_cache"}) {
            assertThat(r.out()).contains(step);
        }
        assertThat(r.out().lines().filter(l -> l.matches("  (FAIL|TODO|WAIT|ERROR) .*"))).isEmpty();
        String score = r.out().lines().filter(l -> l.startsWith("Score: ")).findFirst().orElseThrow();
        String[] xy = score.substring("Score: ".length()).split("/");
        assertThat(xy[0]).isEqualTo(xy[1]);
        assertThat(Integer.parseInt(xy[1])).isPositive();
    }

    @Test
    @DisplayName("an unknown step or chapter, or no argument, is a usage error naming what there is")
    void usage() {
        CliRun step = CliRun.of("check", "3.9");
        assertThat(step.status()).isEqualTo(2);
        assertThat(step.err()).startsWith("error: check: no step 3.9 (chapter 3 has steps 3.1, 3.2, 3.3, 3.4, 3.5)");
        CliRun chapter = CliRun.of("check", "42");
        assertThat(chapter.status()).isEqualTo(2);
        assertThat(chapter.err()).startsWith("error: check: no chapter '42'");
        assertThat(CliRun.of("check").status()).isEqualTo(2);
        assertThat(CliRun.of("check", "3", "--mine", "--reference").status()).isEqualTo(2);
    }

    @Test
    @DisplayName("check's kit is the batch grader's (same reference cores, same class path for the tests), with one chapter's tests and no quiz")
    void chapterKitIsTheGradersKit() throws Exception {
        Path root = KitPaths.root();
        ChapterLab ch03 = LabCommand.find("3", "check");
        Kit full = Kit.locate(root);
        Kit kit = CheckCommand.chapterKit(root, ch03);
        assertThat(kit.referenceCore()).isEqualTo(full.referenceCore());
        assertThat(kit.runtime()).isEqualTo(full.runtime());
        assertThat(kit.testRoots()).containsExactly(root.resolve("chapters").resolve(ch03.id()).resolve("target/test-classes"));
        assertThat(full.testRoots()).contains(kit.testRoots().get(0));
        assertThat(kit.questions()).isEmpty();
    }
}
