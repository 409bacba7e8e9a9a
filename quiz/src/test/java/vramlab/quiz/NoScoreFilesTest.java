package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** A plain test run scores nothing: only the graders write score files. */
class NoScoreFilesTest {
    @Test
    @DisplayName("the harness registers no test listener, so a plain mvn test writes no score files")
    void noListener() throws Exception {
        for (TestExecutionListener l : ServiceLoader.load(TestExecutionListener.class)) {
            assertThat(l.getClass().getName()).doesNotStartWith("vramlab.");
        }
        Path old = Path.of("target", "grading", "scores.tsv");
        Files.deleteIfExists(old);
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(GradedItemsTest.Mixed.class)).build());
        assertThat(old).as("graded tests ran with every listener the class path registers").doesNotExist();
    }
}
