package vramlab.playground.student;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.alloc.CachingAllocator;
import vramlab.labgen.LabGenerator;
import vramlab.playground.BrowserMain;
import vramlab.playground.Playground;
import vramlab.quiz.build.ExpressionLeaks;
import vramlab.quiz.build.PlaygroundBundles;
import vramlab.quiz.build.StepBodies;

/**
 * The student edition's playground: the page code compiled against the cores as handed out
 * (every graded step a Todo), so its bundle holds no graded step's body, by the release's own
 * check. These tests run on the very classpath TeaVM compiles the bundle from.
 */
@DisplayName("The student edition's playground bundle")
class StudentBundleTest {
    static final Path SOLUTIONS = Path.of(System.getProperty("vramlab.playground.solutions", "../../solutions"));
    static final Path CORES = Path.of(System.getProperty("vramlab.playground.cores", "target/cores"));
    static final Path BUNDLE = Path.of(System.getProperty("vramlab.playground.bundle", "target/web/vramlab-playground.js"));
    /** The instructor's bundle, which -Psite builds beside this one from the reference. */
    static final Path REFERENCE = Path.of("../target/classes/vramlab/playground/web/vramlab-playground.js");

    @Test
    @DisplayName("is compiled from the cores exactly as labgen hands them out, and from no other copy of the cores")
    void theCoresAsHandedOut() throws Exception {
        Map<String, String> mine = new TreeMap<>();
        try (Stream<Path> s = Files.walk(CORES.resolve("src/main/java"))) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                mine.put(CORES.relativize(f).toString().replace('\\', '/'), Files.readString(f));
            }
        }
        assertThat(mine).isEqualTo(LabGenerator.generate(SOLUTIONS));
        assertThat(StepBodies.of(SOLUTIONS).shownIn(CORES)).isEmpty();
        Path from = Path.of(CachingAllocator.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(from).isEqualTo(Path.of("target/classes").toAbsolutePath());
        assertThat(System.getProperty("java.class.path")).doesNotContain("vramlab-solutions", "solutions/target/classes");
    }

    @Test
    @DisplayName("reads a trace and starts it live; a replay that needs a graded step names the step instead")
    void liveUpToAGradedStep() {
        Playground p = Playground.of("ch04");
        assertThat(BrowserMain.vramlabReplay(p.trace(), p.policy(), p.card(), 0))
                .startsWith("{\"step\":0,\"events\":15,\"summary\":\"events: 0, OOMs: 0").contains("\"error\":\"\"}");
        assertThat(BrowserMain.vramlabReplay(p.trace(), p.policy(), p.card(), -1))
                .contains("\"error\":\"error: this replay needs step 3.1, which this page's copy of the cores leaves out",
                        "labs/src/main/java/vramlab/alloc/ToyPolicy.java", "./vramlab replay runs this trace on your own cores");
        assertThat(BrowserMain.vramlabReplay("alloc a 3MiB\nalloc b 3 parsecs\n", "toy", "40MiB", -1))
                .contains("\"error\":\"error: line 2: ");
        assertThat(BrowserMain.vramlabReplay("alloc a 3MiB\n", "toy", "40 parsecs", -1))
                .contains("\"error\":\"error: card '40 parsecs': expected a size");
        assertThat(BrowserMain.vramlabLab("ch04")).contains("[needs step ");
    }

    @Test
    @DisplayName("holds no graded step's body, by the release's body check")
    void noBodyInTheBundle(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isRegularFile(BUNDLE), "no " + BUNDLE + ": TeaVM writes it under -Psite"
                + " (mvn -Psite -pl playground/student -am process-classes)");
        Path student = Files.createDirectories(dir.resolve("student/docs/playground"));
        Files.copy(BUNDLE, student.resolve("vramlab-playground.js"));
        assertThat(StepBodies.of(SOLUTIONS).shownIn(dir.resolve("student"))).isEmpty();
        assertThat(ExpressionLeaks.of(SOLUTIONS).shownIn(dir.resolve("student"))).isEmpty();
        assertThat(PlaygroundBundles.fromTheReference(dir.resolve("student"))).isEmpty();
        assertThat(Files.readString(BUNDLE)).contains("vramlabReplay");
    }

    @Test
    @DisplayName("the release tells it from the instructor's bundle, whose minified bodies the expression check misses")
    void theReleaseTellsTheBundlesApart(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isRegularFile(BUNDLE) && Files.isRegularFile(REFERENCE), "no " + BUNDLE + " or " + REFERENCE
                + ": TeaVM writes them under -Psite (mvn -Psite -pl playground/student -am process-classes)");
        Path student = Files.createDirectories(dir.resolve("docs/playground"));
        Files.copy(BUNDLE, student.resolve("vramlab-playground.js"));
        Path reference = Files.createDirectories(dir.resolve("docs/instructor/playground"));
        Files.copy(REFERENCE, reference.resolve("vramlab-playground.js"));
        assertThat(PlaygroundBundles.fromTheReference(dir)).singleElement().asString()
                .startsWith("docs/instructor/playground/vramlab-playground.js: a playground bundle compiled from the reference");
    }
}
