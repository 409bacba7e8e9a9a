package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** The example snapshots in chapters/ch05-expandable-segments/examples are the kit's own output. */
@DisplayName("example snapshots")
class ExampleSnapshotsTest {
    @TempDir Path dir;

    static Path examples() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("chapters/ch05-expandable-segments/examples"))) p = p.getParent();
        assertThat(p).as("repository root above " + Path.of("").toAbsolutePath()).isNotNull();
        return p.resolve("chapters/ch05-expandable-segments/examples");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"three-allocators.pytorch.pickle, ''", "three-allocators.expandable.pickle, expandable_segments:True"})
    @DisplayName("re-exporting the example trace gives the committed pickle, byte for byte")
    void upToDate(String name, String conf) throws Exception {
        Path out = dir.resolve(name);
        ReplayPytorchTest.Run r = ReplayPytorchTest.run("", "replay", "--policy", "pytorch", "--alloc-conf", conf,
                "--device", "64MiB", "--csv", "--export", out.toString(),
                examples().resolve("three-allocators.trace").toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(Files.readAllBytes(out)).as("regenerate with ./vramlab replay ... --export (see examples/README.adoc)")
                .isEqualTo(Files.readAllBytes(examples().resolve(name)));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @CsvSource({"'', defaults, oom", "expandable_segments:True, expandable segments, ok"})
    @DisplayName("the request a recorded run lost (its oom entry) is retried under the replay's policy")
    void oomEntryIsRetried(String conf, String label, String result) {
        ReplayPytorchTest.Run r = ReplayPytorchTest.run("", "replay", "--policy", "pytorch", "--alloc-conf", conf,
                "--device", "64MiB", "--csv", examples().resolve("three-allocators.pytorch.pickle").toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out().lines().reduce((a, b) -> b).orElseThrow())
                .as(label).startsWith("4,alloc,oom@").contains(",48234496," + result + ",");
    }
}
