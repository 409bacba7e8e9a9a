package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;

/**
 * Steps 3.2, 3.4 and 3.5's contracts, the Javadoc that {@code labs/} and the notes show above
 * {@code mergeWithNeighbours}: a body that kept the freed block and dropped a free left
 * neighbour (as PyTorch's {@code try_merge_blocks} keeps its {@code dst}) left the segment's
 * {@code first} on a block no longer in the segment, and check said only "free block missing
 * from its pool" and "the merged block is the left neighbour, grown", neither of which the
 * notes had said. Step 3.2's did not name the key its one ceiling lookup needs (probe), nor the
 * null result; step 3.5's said nothing of what it returns, which check grades.
 */
class StepContractTest {
    private static String javadoc(String file, String signature) throws IOException {
        String text = Files.readString(KitPaths.root().resolve("solutions/src/main/java/vramlab/alloc/" + file));
        int method = text.indexOf(signature);
        assertThat(method).as(signature).isPositive();
        return text.substring(text.lastIndexOf("/**", method), method).replaceAll("\\s*\n\\s*\\*\\s*", " ");
    }

    @Test
    @DisplayName("3.4: mergeWithNeighbours's Javadoc says which neighbours merge, that they leave the pool, and that the left one grows")
    void mergeWithNeighbours() throws IOException {
        assertThat(javadoc("CachingAllocator.java", "Block mergeWithNeighbours(Block block, NavigableSet<Block> pool)"))
                .contains("{@link #canMerge}").contains("leaves {@code pool} first")
                .contains("{@code absorbNext}").contains("{@code a} grown when {@code a} merges")
                .contains("segment's {@code first}").contains("else {@code block} grown");
    }

    @Test
    @DisplayName("3.5: releaseWholeFreeSegments's Javadoc says what it returns and which call frees a segment")
    void releaseWholeFreeSegments() throws IOException {
        assertThat(javadoc("CacheRelease.java", "long releaseWholeFreeSegments()"))
                .contains("{@link #releaseBlock}").contains("Returns the bytes released");
    }

    @Test
    @DisplayName("3.2: findFreeBlock's Javadoc names the pool's order, the probe key and the null result")
    void findFreeBlock() throws IOException {
        assertThat(javadoc("CachingAllocator.java", "Block findFreeBlock(NavigableSet<Block> pool, int stream, long rounded)"))
                .contains("(stream, size, address)").contains("{@link #probe}").contains("null when no block of this stream fits");
    }
}
