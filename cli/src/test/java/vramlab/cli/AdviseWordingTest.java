package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * advise's recommendation names the first row in words: when no setting fits and the recorded
 * run has the fewest OOMs it read "the fewest OOMs (1) come with as recorded." (nesta's real
 * snapshot), and "... come with as recorded (expandable_segments:True)." (constructor-sun's).
 */
@DisplayName("advise's recommendation calls the first row 'the recorded settings'")
class AdviseWordingTest {
    @TempDir
    Path dir;

    @Test
    @DisplayName("no setting fits, the recorded run has the fewest OOMs: 'come with the recorded settings.'")
    void recordedSettingsInASentence() throws IOException {
        Path f = Files.writeString(dir.resolve("oom.json"), CardLineTest.OOM);
        CliRun r = CliRun.of("advise", f.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("the fewest OOMs (1) come with the recorded settings. None of these")
                .doesNotContain("come with as recorded");
    }
}
