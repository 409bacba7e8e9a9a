package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.advise.Advice;
import vramlab.advise.Setting;
import vramlab.advise.Workload;
import vramlab.kit.RealSnapshotsFolder;

/**
 * The outputs chapter 4's notes show are the kit's own, never pasted: this test writes them
 * (run with {@code -Dvramlab.regenerate=true}) and otherwise fails when a file differs from
 * what the triage and advise print now. The real snapshot lives outside the project, in
 * ../shared/real-snapshots; without it the advise example is skipped, not faked.
 */
@DisplayName("The examples in chapter 4's notes")
class NotesExamplesTest {
    static final boolean REGENERATE = Boolean.getBoolean("vramlab.regenerate");

    static Path examples() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("chapters/ch04-real-oom"))) p = p.getParent();
        assertThat(p).as("repository root").isNotNull();
        return p.resolve("chapters/ch04-real-oom/src/docs/asciidoc/examples");
    }

    static void check(String name, String now) throws Exception {
        Path f = examples().resolve(name);
        if (REGENERATE) {
            Files.createDirectories(f.getParent());
            Files.writeString(f, now, StandardCharsets.UTF_8);
            return;
        }
        assertThat(f).as("regenerate with: mvn -pl toolkit -am test -Dtest=NotesExamplesTest "
                + "-Dsurefire.failIfNoSpecifiedTests=false -Dvramlab.regenerate=true").exists();
        assertThat(Files.readString(f, StandardCharsets.UTF_8)).as(name + " is stale; regenerate it "
                + "(-Dvramlab.regenerate=true)").isEqualTo(now);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({"003-echomimic-v2.txt, FRAGMENTATION", "017-fastmri.txt, OTHER_PROCESSES",
        "024-nccl-1235.txt, NCCL_BUFFERS", "019-worker-vllm.txt, CUDA_GRAPH_POOLS",
        "028-relationprediction.txt, CUDNN_WORKSPACE", "004-generateu.txt, FULL_OR_DRIVER_RESERVE"})
    @DisplayName("one worked real message per cause: the triage's brief report")
    void worked(String file, Cause cause) throws Exception {
        String text = Files.readString(corpus().resolve(file), StandardCharsets.UTF_8);
        Diagnosis d = Triage.of(text);
        assertThat(d.cause()).isEqualTo(cause);
        check("triage-" + file, d.brief());
    }

    @Test
    @DisplayName("the triage's score on the corpus of real messages")
    void score() throws Exception {
        long[] all = new long[2], settled = new long[2], held = new long[2], lookAlikes = new long[2];
        for (TriageCorpusTest.Entry e : TriageCorpusTest.corpus()) {
            boolean right = Triage.of(e.text()).cause() == e.label();
            if (e.lookAlike()) {
                tally(lookAlikes, right);
                continue;
            }
            tally(all, right);
            if (e.settled()) tally(settled, right);
            if (e.heldOut()) tally(held, right);
        }
        String now = "real messages, label given:             " + score(all) + "\n"
                + "  of them, the thread settles the cause: " + score(settled) + "\n"
                + "  of them, held out before tuning:       " + score(held) + "\n"
                + "look-alikes rejected:                   " + score(lookAlikes) + "\n";
        check("triage-corpus-score.txt", now);
    }

    private static void tally(long[] t, boolean right) {
        t[1]++;
        if (right) t[0]++;
    }

    private static String score(long[] t) {
        return t[0] + " of " + t[1] + String.format(" (%.0f%%)", t[1] == 0 ? 0.0 : 100.0 * t[0] / t[1]);
    }

    @Test
    @DisplayName("advise on the real snapshot that recorded an OOM")
    void advise() throws Exception {
        Path dir = Snapshots.realDir();
        assumeTrue(dir != null, RealSnapshotsFolder.MISSING);
        String name = "nesta-discrete-diffusion.oom.pickle.gz";
        Workload w = Workload.read(Files.readAllBytes(dir.resolve(name)), name, -1);
        Advice a = Advice.of(w, name, Setting.standard(), null);
        // the first row is the run as recorded: on the card it had, it fails where it failed
        assertThat(a.outcomes().get(0).firstOom().line()).isEqualTo(1118);
        check("advise-nesta.txt", a.text());
    }

    static Path corpus() {
        return examples().getParent().getParent().getParent().getParent().getParent().getParent()
                .resolve("toolkit/src/test/resources/triage-corpus");
    }
}
