package vramlab.quiz.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny solutions module: step 6.6 rounds tokens up to blocks, step 5.2 splits a block's
 * unmapped rest off, and {@code splitFront}, graded by no step, splits the same way. A release
 * ships {@code splitFront} as code, so notes that show it show nothing new; they must still be
 * caught showing a step's own arithmetic, names and numbers filled in.
 */
class ExpressionLeaksTest {
    @TempDir Path tmp;
    ExpressionLeaks leaks;
    Path release;

    static final String SOURCE = """
            package vramlab.alloc;

            public final class ToyBlocks {
                /** Blocks for n tokens. */
                int blocksFor(int numTokens) {
                    // lab:begin 6.6 "Blocks for n tokens" see ch06 "Rule 5"
                    return (int) ((numTokens + blockSize() - 1) / blockSize());
                    // lab:end
                }

                /** Maps a block's front, the rest stays unmapped. */
                Block mapBlock(Block toMap, long mapped) {
                    // lab:begin 5.2 "Map a block" see ch05 "Growing"
                    Block rest = new Block(toMap.segment, toMap.stream, toMap.offset + mapped, toMap.size - mapped);
                    return rest;
                    // lab:end
                }

                // tag::split[]
                Block splitFront(Block block, long rounded) {
                    Block remainder = new Block(block.segment, block.stream, block.offset + rounded, block.size - rounded);
                    return remainder;
                }
                // end::split[]
            }
            """;

    @BeforeEach
    void setUp() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("solutions/src/main/java/vramlab/alloc"));
        Files.writeString(src.resolve("ToyBlocks.java"), SOURCE);
        leaks = ExpressionLeaks.of(tmp.resolve("solutions"));
        release = Files.createDirectories(tmp.resolve("release"));
        Files.createDirectories(release.resolve("labs"));
        Files.writeString(release.resolve("labs/ToyBlocks.java"), vramlab.labgen.LabGenerator.transform(SOURCE, "labs/x.java"));
    }

    @Test
    @DisplayName("a hint or a page with a step's arithmetic, names and numbers filled in, shows the step")
    void filledIn() throws Exception {
        assertThat(leaks.shownIn("round up: (n + 16 - 1) / 16 blocks")).containsExactly("step 6.6 ((x+x-x)/x)");
        assertThat(leaks.shownIn("round up: ceil(n / 16) blocks")).isEmpty();
        Files.writeString(release.resolve("Hints.java"), "class Hints { String h = \"use (tokens + 16 - 1) / 16\"; }");
        Files.writeString(release.resolve("ch06.html"), "<p>Blocks: <code>(numTokens + 16 - 1) / 16</code></p>");
        assertThat(leaks.shownIn(release)).containsExactly("Hints.java: shows the body of step 6.6 ((x+x-x)/x)",
                "ch06.html: shows the body of step 6.6 ((x+x-x)/x)");
    }

    @Test
    @DisplayName("a listing of code the release ships outside every step is not a step's body, however alike in shape")
    void shippedListing() throws Exception {
        String listing = "<pre><span class=\"n\">Block</span> remainder = <b>new</b> Block(block.segment, block.stream,"
                + " block.offset + rounded, block.size - rounded);\n    return remainder;</pre>";
        assertThat(leaks.shownIn(StepBodies.plainText(listing))).containsExactly("step 5.2 (xx(x,x,x+x,x-x))");
        Files.writeString(release.resolve("ch03.html"), listing);
        assertThat(leaks.shownIn(release)).isEmpty();
    }

    @Test
    @DisplayName("a step's own line counts as a body even where the release also holds it as code, and prose does not hide behind a listing")
    void bodyLineCopied() throws Exception {
        String line = "Block rest = new Block(toMap.segment, toMap.stream, toMap.offset + mapped, toMap.size - mapped);";
        Files.writeString(release.resolve("Copy.java"), "class Copy {\n" + line + "\n}\n");
        Files.writeString(release.resolve("ch05.html"), "<pre>" + line + "</pre>");
        // The same shape in prose beside a shipped listing: the prose line is read.
        Files.writeString(release.resolve("ch03.adoc"), "Block remainder = new Block(block.segment, block.stream,"
                + " block.offset + rounded, block.size - rounded);\nThe rest is new Block(b.seg, b.s, b.off + k, b.size - k).\n");
        assertThat(leaks.shownIn(release)).containsExactly("ch03.adoc: shows the body of step 5.2 (xx(x,x,x+x,x-x))",
                "ch05.html: shows the body of step 5.2 (xx(x,x,x+x,x-x))");
    }
}
