package vramlab.quiz.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny solutions module with one step, and release folders that do and do not show its body. */
class StepBodiesTest {
    @TempDir Path tmp;
    StepBodies bodies;
    Path release;

    static final String SOURCE = """
            package vramlab.alloc;

            public final class ToyPolicy {
                /** Rounds a request. */
                public long roundSize(long requested) {
                    // lab:begin 3.1 "Round a request" see ch03 "Rule 1"
                    if (requested <= SMALL_SIZE) return roundUp(requested, 512);
                    return roundUp(requested, 2 * 1024 * 1024);
                    // lab:end
                }
            }
            """;

    @BeforeEach
    void setUp() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("solutions/src/main/java/vramlab/alloc"));
        Files.writeString(src.resolve("ToyPolicy.java"), SOURCE);
        bodies = StepBodies.of(tmp.resolve("solutions"));
        release = Files.createDirectories(tmp.resolve("release"));
    }

    @Test
    @DisplayName("the generated labs show no body; the reference's file does")
    void sources() throws Exception {
        assertThat(bodies.steps()).containsExactly("3.1");
        Files.writeString(release.resolve("ToyPolicy.java"), vramlab.labgen.LabGenerator.transform(SOURCE, "labs/x.java"));
        assertThat(bodies.shownIn(release)).isEmpty();
        Files.writeString(release.resolve("Copy.java"), SOURCE);
        assertThat(bodies.shownIn(release)).containsExactly("Copy.java: shows the body of step 3.1");
    }

    @Test
    @DisplayName("a highlighted HTML listing shows it too, spans, entities and line breaks notwithstanding")
    void renderedPages() throws Exception {
        Files.writeString(release.resolve("ch03.html"), "<pre><span class=\"k\">if</span> (requested &lt;=\n"
                + "  SMALL_SIZE) <b>return</b> roundUp(requested, 512);</pre>");
        assertThat(bodies.shownIn(release)).containsExactly("ch03.html: shows the body of step 3.1");
    }

    @Test
    @DisplayName("compiled code is reported whatever it holds: a release ships sources only")
    void compiled() throws Exception {
        Files.write(release.resolve("cores.jar"), new byte[] {0x50, 0x4b, 3, 4});
        Files.createDirectories(release.resolve("x"));
        Files.write(release.resolve("x/ToyPolicy.class"), new byte[] {(byte) 0xca, (byte) 0xfe});
        assertThat(bodies.shownIn(release)).containsExactly("cores.jar: compiled code (a release ships sources only)",
                "x/ToyPolicy.class: compiled code (a release ships sources only)");
    }
}
