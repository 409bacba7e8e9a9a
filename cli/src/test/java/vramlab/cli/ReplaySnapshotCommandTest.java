package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.SnapshotWriter;

/** {@code vramlab replay SNAPSHOT}: every device, the rebuilt start, the card and the verdict. */
@DisplayName("replay of a snapshot")
class ReplaySnapshotCommandTest {
    @TempDir Path dir;
    Path twoDevices, segmentList;

    /** A run on device 0, recorded from its middle on; device 1 the same segments with no history. */
    @BeforeEach
    void write() throws Exception {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(512)).openToyProcess(), new PyTorchPolicy());
        Block early = a.alloc(mib(30));
        a.alloc(mib(3));
        a.trace().record(true, Long.MAX_VALUE);
        a.free(early);
        Block b = a.alloc(mib(12));
        a.alloc(mib(1) + 1);
        a.free(b);
        a.emptyCache();
        Map<String, Object> s = new LinkedHashMap<>(MemorySnapshot.of(a));
        List<Object> segments = new ArrayList<>((List<?>) s.get("segments"));
        for (Object o : (List<?>) s.get("segments")) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) o);
            copy.put("device", 1L);
            segments.add(copy);
        }
        s.put("segments", segments);
        s.put("device_traces", List.of(((List<?>) s.get("device_traces")).get(0), List.of()));
        twoDevices = dir.resolve("two.pickle");
        Files.write(twoDevices, SnapshotWriter.pickle(s));
        segmentList = dir.resolve("list.pickle");
        Files.write(segmentList, new net.razorvine.pickle.Pickler(false).dumps(s.get("segments")));
    }

    @Test
    @DisplayName("replays every device under the recorded settings and says what it rebuilt and assumed")
    void everyDevice() {
        CliRun r = CliRun.of("replay", twoDevices.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("device 0", "device 1")
                .contains("policy:  pytorch with the recorded allocator_settings (PYTORCH_CUDA_ALLOC_CONF='';"
                        + " PyTorch 2.9's rules (implied: it records allocator_settings and no user_metadata,"
                        + " so 2.9 or earlier))")
                .contains("card:    80 GiB assumed")
                .contains("the history is incomplete", "rebuilt the state at its start")
                .contains("start:   no history")
                .contains("segment actions: the replay made the recorded")
                .contains("agreement: the final segments equal the snapshot's own");
        assertThat(r.out().lines().filter(l -> l.contains("agreement: the final segments equal"))).hasSize(2);
    }

    @Test
    @DisplayName("--device-index picks one device; one that holds nothing is an error naming the ones that do")
    void deviceIndex() {
        CliRun one = CliRun.of("replay", "--device-index", "1", twoDevices.toString());
        assertThat(one.out()).contains("device 1").doesNotContain("device 0");
        CliRun none = CliRun.of("replay", "--device-index", "3", twoDevices.toString());
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).startsWith("error: replay: ").contains("device 3 has no segments and no history")
                .contains("devices with some: 0, 1");
    }

    @Test
    @DisplayName("--csv and --export need one device")
    void csvNeedsOneDevice() {
        CliRun r = CliRun.of("replay", "--csv", twoDevices.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().lines()).singleElement().asString().contains("choose one with --device-index N");
        CliRun csv = CliRun.of("replay", "--csv", "--device-index", "0", twoDevices.toString());
        assertThat(csv.out().lines().findFirst()).contains("step,op,handle,bytes,result,requested,allocated,reserved");
        assertThat(csv.out()).contains(",empty_cache,");
    }

    @Test
    @DisplayName("--alloc-conf answers \"would it have fitted\" instead of checking agreement")
    void whatIf() {
        CliRun r = CliRun.of("replay", "--alloc-conf", "expandable_segments:True", "--device-index", "0",
                twoDevices.toString());
        assertThat(r.out()).contains("(not the recording settings; PyTorch 2.9's rules (implied:")
                .contains("placement: the simulated driver's addresses")
                .contains("card unknown (no --device, no oom entry): whether it would have fitted cannot be said")
                .doesNotContain("agreement:");
        CliRun sized = CliRun.of("replay", "--alloc-conf", "expandable_segments:True", "--device", "1GiB",
                "--device-index", "0", twoDevices.toString());
        assertThat(sized.out()).containsPattern("it would have fitted: fits with [\\d.]+ MiB to spare \\(peak reserved");
    }

    @Test
    @DisplayName("the recording's own settings given explicitly are the recording: recorded addresses, the same end state")
    void explicitRecording() {
        String plain = CliRun.of("replay", "--device-index", "0", twoDevices.toString()).out();
        CliRun r = CliRun.of("replay", "--alloc-conf", "", "--device-index", "0", twoDevices.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("placement: the recorded addresses").contains("agreement:")
                .isEqualTo(plain);
    }

    @Test
    @DisplayName("a gzipped snapshot is unzipped first and replays as the plain file does")
    void gzipped() throws Exception {
        Path gz = dir.resolve("two.pickle.gz");
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(twoDevices));
        }
        CliRun zipped = CliRun.of("replay", "--device-index", "0", gz.toString());
        assertThat(zipped.status()).as(zipped.err()).isZero();
        String plain = CliRun.of("replay", "--device-index", "0", twoDevices.toString()).out();
        assertThat(zipped.out().replace(gz.toString(), "F")).isEqualTo(plain.replace(twoDevices.toString(), "F"))
                .contains("agreement: the final segments equal the snapshot's own");
    }

    @Test
    @DisplayName("torch.cuda.memory_snapshot()'s bare list of segments is read, not refused")
    void segmentList() {
        CliRun r = CliRun.of("replay", segmentList.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("the bare list of segments").contains("start:   no history")
                .contains("device 1");
    }
}
