package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

@DisplayName("vramlab replay --at and --json")
class ReplayAtTest {
    static Path nesta() {
        Path dir = AdviseMatchesReplayTest.folder();
        assumeTrue(dir != null, vramlab.kit.RealSnapshotsFolder.MISSING);
        Path f = dir.resolve("nesta-discrete-diffusion.oom.pickle.gz");
        assumeTrue(Files.isRegularFile(f), "no real snapshot " + f.getFileName() + " in the set");
        return f;
    }

    @Test
    @DisplayName("--at peak names the sites that hold the memory, largest first, with the holes beside them")
    void atPeak() {
        CliRun r = CliRun.of("replay", "--at", "peak", "--stacks", nesta().toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("who holds the memory at the peak \\(21\\.79 GiB reserved, entry \\d+\\)")
                .contains("vision_transformer.py:93 forward")
                .contains("holes beside them (largest free block): small pool");
    }

    @Test
    @SuppressWarnings("unchecked")
    @DisplayName("--json carries the verdict, its margin, the placement and --at's table as numbers")
    void json() throws Exception {
        CliRun r = CliRun.of("replay", "--json", "--at", "oom", "--alloc-conf", "expandable_segments:True",
                nesta().toString());
        assertThat(r.status()).as(r.err()).isZero();
        Map<String, Object> root = new ObjectMapper().readValue(r.out(), Map.class);
        Map<String, Object> d = ((List<Map<String, Object>>) root.get("devices")).get(0);
        assertThat(d.get("placement")).isEqualTo("driver");
        assertThat(d.get("outcome")).isIn("fails", "too close to call");
        assertThat(((Map<String, Object>) d.get("card")).get("known")).isEqualTo(true);
        Map<String, Object> at = (Map<String, Object>) d.get("at");
        long sum = 0;
        for (Map<String, Object> site : (List<Map<String, Object>>) at.get("sites")) sum += ((Number) site.get("bytes")).longValue();
        assertThat(sum).isEqualTo(((Number) at.get("live")).longValue());
        assertThat(((Number) at.get("entry")).longValue()).isEqualTo(((Number) d.get("failsAtEntry")).longValue());
    }

    @Test
    @DisplayName("bad --at values and snapshot-only options on a text trace exit 2 with one line")
    void errors() {
        CliRun bad = CliRun.of("replay", "--at", "top", nesta().toString());
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).startsWith("error: replay: --at 'top': expected peak, oom or a trace entry number");
        CliRun text = CliRun.withInput("alloc a 1MiB\n", "replay", "--json", "-");
        assertThat(text.status()).isEqualTo(2);
        assertThat(text.err()).isEqualTo("error: replay: --json applies to snapshots, not to text traces\n");
    }

    @Test
    @DisplayName("a bad --at is refused before the report starts: nothing on standard output (it printed the"
            + " snapshot: and layout: lines, then replayed the whole device, before saying so)")
    void badAtBeforeAnyOutput() {
        String example = vramlab.quiz.KitPaths.root()
                .resolve("chapters/ch05-expandable-segments/examples/three-allocators.pytorch.pickle").toString();
        CliRun far = CliRun.of("replay", "--at", "99", example);
        assertThat(far.status()).isEqualTo(2);
        assertThat(far.err()).isEqualTo("error: replay: --at 99: device 0 has trace entries 1 to 8 (0: before the"
                + " history)\n");
        assertThat(far.out()).isEmpty();
        CliRun word = CliRun.of("replay", "--at", "top", example);
        assertThat(word.status()).isEqualTo(2);
        assertThat(word.out()).isEmpty();
    }
}
