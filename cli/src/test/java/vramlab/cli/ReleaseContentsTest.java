package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;
import vramlab.quiz.build.StepBodies;

/**
 * The quick half of {@link ReleaseTest}, in plain {@code mvn test}: the sources a release copies
 * (every chapter's main, test and docs folders, the harness, the generated labs and cores) carry
 * no telling line of a graded step's body. A chapter's new helper class that happens to repeat
 * such a line is caught here, not only by the slower grading-fixtures profile.
 */
class ReleaseContentsTest {
    @Test
    @DisplayName("what a release copies shows no graded step's body")
    void noStepBodies(@TempDir Path tmp) throws Exception {
        Path root = KitPaths.root();
        Path dir = tmp.resolve("course");
        ReleaseCommand.write(root, dir, null);
        assertThat(StepBodies.of(root.resolve("solutions")).shownIn(dir)).isEmpty();
    }
}
