package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.cli.EditionOption;
import vramlab.cli.ReleaseCommand;

/**
 * Two builds of the playground bundles, as {@code ./vramlab release} and {@code ./vramlab site} run
 * Maven for the site ({@link ReleaseCommand#maven}: TeaVM in a JVM whose identity hash codes do not
 * vary), are the same bytes, so two releases of one commit with the site are too. Without it TeaVM 0.16.0 emitted the
 * student bundle's classes and initialisers in another order from one build to the next. Two TeaVM
 * builds of both bundles take minutes: grading-fixtures. {@code VRAMLAB_OFFLINE=1} builds offline,
 * as the launcher does ({@link EditionOption#offline}).
 */
@Tag("grading-fixtures")
class PlaygroundBundleRepeatableTest {
    static final List<String> BUNDLES = List.of("playground/target/classes/vramlab/playground/web/vramlab-playground.js",
            "playground/student/target/web/vramlab-playground.js");

    @Test
    @DisplayName("two builds of the playground bundles (instructor and student), as release and site run Maven, are the same bytes")
    void twoBuildsSameBytes(@TempDir Path tmp) throws Exception {
        Path root = Repo.root();
        List<String> cmd = new ArrayList<>(List.of(ReleaseCommand.mvn(), "-q", "-B"));
        if (EditionOption.offline(System.getenv())) cmd.add("-o");
        cmd.addAll(List.of("-Psite", "-DskipTests", "-pl", "playground/student", "-am", "process-classes"));
        for (int build = 1; build <= 2; build++) {
            Path log = tmp.resolve("mvn-" + build + ".log");
            Process p = ReleaseCommand.maven(root, cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertThat(p.waitFor()).as("%s:%n%s", String.join(" ", cmd), Files.readString(log)).isZero();
            for (String b : BUNDLES) {
                Path to = tmp.resolve(String.valueOf(build)).resolve(b);
                Files.createDirectories(to.getParent());
                Files.copy(root.resolve(b), to);
            }
        }
        for (String b : BUNDLES) {
            assertThat(Files.size(tmp.resolve("1").resolve(b))).as(b).isGreaterThan(100_000L);
            assertThat(Files.mismatch(tmp.resolve("1").resolve(b), tmp.resolve("2").resolve(b))).as("%s: first byte that differs", b)
                    .isEqualTo(-1L);
        }
    }
}
