package vramlab.ch07;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;

/**
 * Step 7.2's contract, the Javadoc the student's {@code labs/} and the notes show above
 * {@code fateOf}, names every fate the graded tests expect: PARK, CACHE and RELEASE, the last
 * tested by {@code PinnedStepsTest.released} ("a block above pinned_max_cached_size_mb is
 * released"), which the contract once left out, so a student writing from the notes' Rule 3
 * alone failed it.
 */
class FateContractTest {
    @Test
    @DisplayName("fateOf's Javadoc states the release above pinned_max_cached_size_mb, which 7.2's graded test checks")
    void contractNamesTheRelease() throws IOException {
        Path core = KitPaths.root().resolve("solutions/src/main/java/vramlab/pinned/CachingHostAllocator.java");
        String text = Files.readString(core);
        int method = text.indexOf("public Fate fateOf(HostBlock b)");
        String javadoc = text.substring(text.lastIndexOf("/**", method), method);
        assertThat(javadoc).contains("never recycled").contains("pinned_max_cached_size_mb").contains("released")
                .contains("cached");
    }
}
