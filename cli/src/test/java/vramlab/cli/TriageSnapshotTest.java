package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("vramlab triage on a real snapshot: who holds the memory, and the peak when nothing failed")
class TriageSnapshotTest {
    static Path real(String name) {
        Path dir = AdviseMatchesReplayTest.folder();
        assumeTrue(dir != null, vramlab.kit.RealSnapshotsFolder.MISSING);
        Path f = dir.resolve(name + ".gz");
        assumeTrue(Files.isRegularFile(f), "no real snapshot " + f.getFileName() + " in the set");
        return f;
    }

    @Test
    @DisplayName("a recorded OOM: the diagnosis, then who held the memory at that entry")
    void recordedOom() throws Exception {
        Path f = real("nesta-discrete-diffusion.oom.pickle");
        CliRun r = CliRun.of("triage", f.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("Format: a PyTorch memory snapshot")
                .contains("who holds the memory at the recorded OOM (trace entry 1118)")
                .contains("vision_transformer.py:93 forward");
        CliRun j = CliRun.of("triage", "--json", f.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> o = new ObjectMapper().readValue(j.out(), Map.class);
        assertThat(o).containsKeys("cause", "whoHolds");
        assertThat(((Map<?, ?>) o.get("whoHolds")).get("entry")).isEqualTo(1118);
    }

    @Test
    @DisplayName("no oom entry: the peak and who held it, the recipe that records the next failure, and on a"
            + " smaller card (--device) what fails first, at which entry, held by whom")
    void noOom() {
        Path f = real("silmont2000.mem_snapshot.pickle");          // a complete history, no OOM, peak 3.52 GiB
        CliRun r = CliRun.of("triage", f.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("No OOM: the recorded run did not run out of memory")
                .contains("who holds the memory at the peak")
                .contains("torch._C._cuda_attach_out_of_memory_observer(oom_observer)")
                .contains("Pass --device SIZE");
        CliRun small = CliRun.of("triage", "--device", "3GiB", f.toString());
        assertThat(small.status()).as(small.err()).isZero();
        assertThat(small.out()).containsPattern("On a card of 3\\.00 GiB \\(--device\\), with the recorded settings: "
                + "it would not have fitted: fails by [\\d.]+ [KMG]iB at entry \\d+")
                .containsPattern("who holds the memory at the OOM at entry \\d+");
    }

    @Test
    @DisplayName("--device as replay and advise take it (PyTorch's share: reserved + free at the OOM, the card advise"
            + " infers) is said to look like that share, not the card's total triage takes; a total is not")
    void shareGivenForTotal() {
        Path f = real("nesta-discrete-diffusion.oom.pickle");
        CliRun advise = CliRun.of("advise", f.toString());
        assertThat(advise.out()).contains("card: 21.94 GiB for PyTorch, inferred from the oom entry (21.70 GiB reserved"
                + " then + 252.38 MiB device_free, rounded down to whole 2 MiB pages");
        CliRun share = CliRun.of("triage", "--device", "21.94GiB", f.toString());
        assertThat(share.status()).as(share.err()).isZero();
        assertThat(share.out()).contains("--device 21.94 GiB is no more than what PyTorch reserved and what was free at"
                + " the OOM (21.70 GiB + 252.38 MiB = 21.94 GiB), which leaves nothing for the CUDA context: it looks"
                + " like PyTorch's share of the card, what replay's and advise's --device take.");
        CliRun total = CliRun.of("triage", "--device", "23.5GiB", f.toString());
        assertThat(total.status()).as(total.err()).isZero();
        assertThat(total.out()).contains("total capacity").doesNotContain("PyTorch's share of the card");
    }
}
