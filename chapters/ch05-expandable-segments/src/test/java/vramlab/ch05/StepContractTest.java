package vramlab.ch05;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;

/**
 * Steps 5.1 and 5.2's contracts, the Javadoc the student's {@code labs/} and the notes show
 * above {@code map} and {@code mapBlock}: what the reference body does and the graded tests
 * check ({@code checkInvariants} holds the unmapped sets and {@code reserved}), so that a
 * student can write the step from the notes alone.
 */
class StepContractTest {
    private static String javadoc(String file, String signature) throws IOException {
        String text = Files.readString(KitPaths.root().resolve("solutions/src/main/java/vramlab/alloc/" + file));
        int method = text.indexOf(signature);
        assertThat(method).as(signature).isPositive();
        return text.substring(text.lastIndexOf("/**", method), method).replaceAll("\\s*\n\\s*\\*\\s*", " ");
    }

    @Test
    @DisplayName("5.2: mapBlock's Javadoc says to split off the unmapped remainder, count reserved and num_device_alloc, trace SEGMENT_MAP")
    void mapBlock() throws IOException {
        assertThat(javadoc("ExpandableBlocks.java", "Block mapBlock(Block toMap, long size)"))
                .contains("unmapped remainder").contains("unmapped set").contains("free set")
                .contains("{@code reserved}").contains("reserved_bytes").contains("num_device_alloc")
                .contains("SEGMENT_MAP").contains("return null");
    }

    @Test
    @DisplayName("5.1: map's Javadoc says no page in the range is mapped yet (PyTorch asserts it) and driver errors propagate")
    void map() throws IOException {
        assertThat(javadoc("ExpandableSegment.java", "public Range map(long offset, long size)"))
                .contains("No page the range touches is mapped yet (PyTorch asserts it)")
                .contains("another driver error propagates");
        String file = Files.readString(KitPaths.root().resolve("solutions/src/main/java/vramlab/alloc/ExpandableSegment.java"));
        assertThat(file.substring(0, file.indexOf("// tag::map[]")))
                .as("the assert's source, beside the tag the deck shows on one slide")
                .contains("TORCH_INTERNAL_ASSERT(!handles_.at(i))").contains("@001074d");
    }
}
