package vramlab.ch08;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;

/**
 * Step 8.2's contract: {@code alloc} must record every block it hands out in {@code live},
 * which {@code free} and {@code blockSize} read; the stub in {@code labs/} had no Javadoc and
 * the notes did not say so. And the notes' reading of the contest table matches what it prints.
 */
class StepContractTest {
    private static String read(String path) throws IOException {
        return Files.readString(KitPaths.root().resolve(path));
    }

    @Test
    @DisplayName("8.2: alloc's Javadoc and the notes say a block handed out is recorded in live, read by free and blockSize")
    void allocRecordsLive() throws IOException {
        String text = read("solutions/src/main/java/vramlab/contest/SegregatedFits.java");
        int method = text.indexOf("public long alloc(long size, int stream)");
        String javadoc = text.substring(text.lastIndexOf("/**", method), method).replaceAll("\\s*\n\\s*\\*\\s*", " ");
        assertThat(javadoc).contains("recorded in {@code live}").contains("{@link #free}")
                .contains("{@link #blockSize}").contains("emptyCache");
        assertThat(read("chapters/ch08-malloc-lab/src/docs/asciidoc/ch08-malloc-lab.adoc"))
                .contains("recorded in `live`");
    }

    @Test
    @DisplayName("the notes do not claim expandable segments hold the least on every workload (not on finetune-checkpointed)")
    void expandableClaim() throws IOException {
        String notes = read("chapters/ch08-malloc-lab/src/docs/asciidoc/ch08-malloc-lab.adoc").replaceAll("\\s+", " ");
        assertThat(notes).doesNotContain("close the gap on every workload")
                .contains("not on finetune-checkpointed: there PyTorch's default (1.003) and the segregated-fits entry (1.002)")
                .contains("at 1.004");
    }
}
