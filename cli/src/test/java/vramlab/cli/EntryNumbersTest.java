package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * "trace entry 1118" is the 1118th entry, device_traces[0][1117] in Python: a practitioner who
 * opens the pickle to look at the entry advise names lands one entry late unless told. The
 * README's practitioner section says so, and this holds it to what replay prints: a snapshot
 * whose oom is its third entry (index 2) names entry 3.
 */
@DisplayName("Trace entry numbers: counted from 1, as README says")
class EntryNumbersTest {
    @TempDir
    Path dir;

    @Test
    @DisplayName("README says entry N is device_traces[d][N-1], and replay names the third entry 3")
    void countedFromOne() throws IOException {
        String readme = Files.readString(KitPaths.root().resolve("README.adoc"));
        assertThat(readme.replaceAll("\\s+", " ")).contains("Trace entries are counted from 1 in the order of the"
                + " snapshot's `device_traces[d]` list: entry N is `device_traces[d][N-1]` in Python");
        Path f = Files.writeString(dir.resolve("oom.json"), CardLineTest.OOM);   // its oom is device_traces[0][2]
        CliRun r = CliRun.of("replay", f.toString());
        assertThat(r.out()).contains("OOMs recorded at entry 3, replayed at entry 3");
        CliRun at = CliRun.of("replay", "--at", "0", f.toString());
        assertThat(at.status()).as(at.err()).isZero();
    }
}
