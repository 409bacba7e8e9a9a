package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.SnapshotWriter;

@DisplayName("vramlab advise")
class AdviseCommandTest {
    private static final String FRAGMENTING = "alloc a 30MiB\nalloc b 1.5MiB\nfree a\nalloc c 46MiB\n";

    @Test
    @DisplayName("reads a trace from standard input and prints one table and the line to set")
    void stdin() {
        CliRun r = CliRun.withInput(FRAGMENTING, "advise", "--device", "64MiB", "-");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("card: 64.00 MiB (--device)")
                .containsPattern("(?m)^default +\\S+ \\S+ +\\S+ \\S+ \\([\\d.]+%\\) +1  step 4, line 4: alloc 46.00 MiB$")
                .contains("\n  PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n");
        assertThat(r.err()).isEmpty();
        // the row's "step 4" is the step replay names for the same OOM (it said "event 4" before)
        CliRun replay = CliRun.withInput(FRAGMENTING, "replay", "--policy", "pytorch", "--device", "64MiB", "-");
        assertThat(replay.out()).contains("OOM at step 4 (line 4, alloc c 46.00 MiB)");
    }

    @Test
    @DisplayName("reads a file, and says when a snapshot records nothing to replay (exit 0)")
    void file(@TempDir Path dir) throws Exception {
        Path t = dir.resolve("t.trace");
        Files.writeString(t, FRAGMENTING);
        assertThat(CliRun.of("advise", "--device", "64MiB", t.toString()).out()).contains("advise: " + t);
        Path s = dir.resolve("empty.json");
        Files.writeString(s, "{\"device_traces\": [[]], \"segments\": []}");
        CliRun r = CliRun.of("advise", s.toString());
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("Nothing to replay");
    }

    @Test
    @DisplayName("bad input exits 2 with one line naming the file, line or option")
    void errors(@TempDir Path dir) throws Exception {
        CliRun missing = CliRun.of("advise", "/no/such.pickle");
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("error: /no/such.pickle: no such file\n");
        CliRun device = CliRun.withInput(FRAGMENTING, "advise", "--device", "lots", "-");
        assertThat(device.status()).isEqualTo(2);
        assertThat(device.err()).startsWith("error: advise: --device 'lots'");
        CliRun trace = CliRun.withInput("alloc a 3MiB\nfree b\n", "advise", "-");
        assertThat(trace.status()).isEqualTo(2);
        assertThat(trace.err().lines()).singleElement().asString().startsWith("error: <stdin>:2:");
        assertThat(CliRun.of("advise").status()).isEqualTo(2);
    }

    @Test
    @DisplayName("is listed by the launcher and has --help")
    void listed() {
        assertThat(CliRun.of("--help").out()).contains("advise");
        assertThat(CliRun.of("advise", "--help").out()).contains("usage: vramlab advise");
    }

    /**
     * A snapshot of two GPUs, each with a history: device 0 the longer (advise's choice without
     * --device-index), device 1 a shorter one.
     */
    @SuppressWarnings("unchecked")
    static Path twoDevices(Path dir) throws Exception {
        Map<String, Object> zero = run(4);
        Map<String, Object> one = run(2);
        List<Object> segments = new ArrayList<>((List<?>) zero.get("segments"));
        for (Object o : (List<?>) one.get("segments")) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) o);
            copy.put("device", 1L);
            segments.add(copy);
        }
        Map<String, Object> s = new LinkedHashMap<>(zero);
        s.put("segments", segments);
        s.put("device_traces", List.of(((List<?>) zero.get("device_traces")).get(0),
                ((List<?>) one.get("device_traces")).get(0)));
        Path f = dir.resolve("two.pickle");
        Files.write(f, SnapshotWriter.pickle(s));
        return f;
    }

    /** A recorded run of {@code n} allocations of 2 MiB and more, each freed but the last. */
    private static Map<String, Object> run(int n) {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(512)).openToyProcess(), new PyTorchPolicy());
        a.trace().record(true, Long.MAX_VALUE);
        Block last = null;
        for (int i = 0; i < n; i++) {
            if (last != null) a.free(last);
            last = a.alloc(mib(2 + 3 * i));
        }
        return MemorySnapshot.of(a);
    }

    @Test
    @DisplayName("--device-index picks a snapshot's device as replay's does, with replay's errors")
    void deviceIndex(@TempDir Path dir) throws Exception {
        String f = twoDevices(dir).toString();
        assertThat(CliRun.of("advise", f).out()).startsWith("advise: " + f + ", device 0, ");
        CliRun one = CliRun.of("advise", "--device-index", "1", f);
        assertThat(one.status()).as(one.err()).isZero();
        assertThat(one.out()).startsWith("advise: " + f + ", device 1, ");
        assertThat(CliRun.of("advise", "--device-index=0", f).out()).startsWith("advise: " + f + ", device 0, ");

        for (String bad : new String[] {"3", "-1", "x", "99999999999"}) {
            CliRun advise = CliRun.of("advise", "--device-index", bad, f);
            CliRun replay = CliRun.of("replay", "--device-index", bad, f);
            assertThat(advise.status()).as(bad).isEqualTo(2);
            assertThat(advise.err()).as(bad).startsWith("error: advise: ")
                    .isEqualTo(replay.err().replaceFirst("^error: replay: ", "error: advise: "));
        }
        assertThat(CliRun.of("advise", "--device-index", "3", f).err())
                .isEqualTo("error: advise: " + f + ": device 3 has no segments and no history (devices with some: 0, 1)\n");

        CliRun trace = CliRun.withInput(FRAGMENTING, "advise", "--device-index", "0", "-");
        assertThat(trace.status()).isEqualTo(2);
        assertThat(trace.err()).isEqualTo("error: advise: --device-index applies to snapshots, not to text traces\n")
                .isEqualTo(CliRun.withInput(FRAGMENTING, "replay", "--device-index", "0", "-").err()
                        .replaceFirst("^error: replay: ", "error: advise: "));
        assertThat(CliRun.of("advise", "--help").out()).contains("--device-index=N");
    }
}
