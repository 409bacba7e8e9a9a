package vramlab.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static vramlab.units.Bytes.mib;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.SegmentMap;
import vramlab.driver.Gpu;
import vramlab.replay.Replayer;
import vramlab.replay.SnapshotReplay;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceException;

/** Snapshots out (pickle) and in (pickle or JSON), and what Python's pickle makes of them. */
@DisplayName("memory snapshots in and out")
class SnapshotRoundTripTest {
    @TempDir Path dir;

    /** A seeded random trace of allocs and frees on two streams. */
    static List<TraceEvent> workload(long seed) {
        Random r = new Random(seed);
        List<TraceEvent> out = new ArrayList<>();
        List<String> live = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            if (live.isEmpty() || r.nextInt(10) < 6) {
                String h = "h" + i;
                long size = Math.max(1, (long) Math.exp(r.nextDouble() * Math.log(mib(30))));
                out.add(new TraceEvent(i + 1, TraceEvent.Op.ALLOC, h, size, r.nextInt(4) == 0 ? 1 : 0));
                live.add(h);
            } else {
                out.add(TraceEvent.free(i + 1, live.remove(r.nextInt(live.size()))));
            }
        }
        return out;
    }

    static CachingAllocator replay(List<TraceEvent> events, String conf, boolean record) {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(512)).openToyProcess(), new PyTorchPolicy(conf));
        if (record) a.trace().record(true, Long.MAX_VALUE);
        new Replayer(a, (step, e, result, bytes, al) -> { }, "test", true).replay(events.iterator());
        return a;
    }

    /** Replays device 0 of a snapshot under the settings it recorded. */
    static SnapshotReplay.Report replaySnapshot(byte[] bytes, String file) {
        Snapshot s = SnapshotReader.read(bytes, file);
        return SnapshotReplay.run(s, s.devices().get(0), SnapshotReplay.Options.recorded(),
                (step, e, result, b, a) -> { }, false);
    }

    @Test
    @DisplayName("an exported pickle read back and replayed gives the same final segment map and statistics"
            + " (seed 7)")
    void pickleRoundTrip() throws IOException {
        for (String conf : List.of("", "expandable_segments:True")) {
            CachingAllocator first = replay(workload(7), conf, true);
            Path file = dir.resolve("run.pickle");
            SnapshotWriter.write(first, file);
            byte[] bytes = Files.readAllBytes(file);
            assertThat(SnapshotReader.isSnapshot(bytes)).isTrue();
            SnapshotReplay.Report r = replaySnapshot(bytes, "run.pickle");
            CachingAllocator second = r.allocator();
            assertThat(r.policy()).as(conf).contains("recorded allocator_settings");
            assertThat(r.addressesAgree() && r.segmentActionDifference() == null).as(conf).isTrue();
            assertThat(SegmentMap.text(second)).as(conf).isEqualTo(SegmentMap.text(first));
            assertThat(second.memoryStats().asMap()).isEqualTo(first.memoryStats().asMap());
        }
    }

    @Test
    @DisplayName("the same dict as JSON replays the same way")
    void json() {
        String json = """
                {"segments": [], "device_traces": [[
                  {"action": "segment_alloc", "addr": 139000000000000, "size": 20971520, "stream": 0, "time_us": 1},
                  {"action": "alloc", "addr": 139000000000000, "size": 3145729, "stream": 0, "time_us": 2},
                  {"action": "alloc", "addr": 139000003146240, "size": 5242881, "stream": 0, "time_us": 3},
                  {"action": "free_requested", "addr": 139000000000000, "size": 3145729, "stream": 0, "time_us": 4},
                  {"action": "free_completed", "addr": 139000000000000, "size": 3145729, "stream": 0, "time_us": 5},
                  {"action": "free_requested", "addr": 139000099999744, "size": 1000, "stream": 0, "time_us": 6}
                ]], "allocator_settings": {}}
                """;
        SnapshotReplay.Report r = replaySnapshot(json.getBytes(StandardCharsets.UTF_8), "x.json");
        long live = (5242881 + 511) / 512 * 512;   // the live 5 MiB + 1 B block, in 512 B steps
        assertThat(r.allocator().allocated()).isEqualTo(live).isEqualTo(5243392);
        assertThat(r.skippedFrees()).as("the free of a block no segment of the snapshot holds").isEqualTo(1);
        assertThat(r.start()).anyMatch(n -> n.contains("lie in no segment"));
        assertThat(r.segmentsAgree()).as("its segments list is empty, the history made one").isFalse();
    }

    @Test
    @DisplayName("a file that is not a snapshot is an error naming the file")
    void notASnapshot() {
        assertThatThrownBy(() -> SnapshotReader.load("{\"segments\": []}".getBytes(StandardCharsets.UTF_8), "bad.json"))
                .isInstanceOf(TraceException.class).hasMessageStartingWith("bad.json: not a memory snapshot");
        assertThatThrownBy(() -> SnapshotReader.load(new byte[] {(byte) 0x80, 2, 0}, "bad.pickle"))
                .isInstanceOf(TraceException.class).hasMessageContaining("bad.pickle");
    }

    @Test
    @DisplayName("Python's standard pickle loads the export into the structure _memory_viz expects")
    void pythonLoads() throws Exception {
        requirePython();
        CachingAllocator a = replay(workload(3), "", true);
        a.recordStream(a.alloc(mib(1)), 1);
        Path file = dir.resolve("sim.pickle");
        SnapshotWriter.write(a, file);
        String script = """
                import pickle, sys
                s = pickle.load(open(sys.argv[1], 'rb'))
                assert set(s) == {'segments', 'device_traces', 'allocator_settings'}, s.keys()
                states = set()
                for seg in s['segments']:
                    assert seg['segment_type'] in ('small', 'large')
                    assert seg['total_size'] == sum(b['size'] for b in seg['blocks'])
                    assert isinstance(seg['segment_pool_id'], tuple)
                    addr = seg['address']
                    for b in seg['blocks']:
                        assert b['address'] == addr; addr += b['size']
                        states.add(b['state'])
                actions = {e['action'] for e in s['device_traces'][0]}
                assert all(isinstance(e['addr'], int) for e in s['device_traces'][0] if e['action'] != 'oom')
                assert all(e['frames'] == [] for e in s['device_traces'][0] if e['action'] != 'snapshot')
                assert s['allocator_settings']['PYTORCH_CUDA_ALLOC_CONF'] == '', s['allocator_settings']
                print(len(s['segments']), sorted(states), sorted(actions))
                """;
        String out = runPython(script, file);
        assertThat(out).contains("active_allocated").contains("inactive")
                .contains("'alloc'").contains("'free_requested'").contains("'free_completed'")
                .contains("'segment_alloc'");
    }

    @Test
    @DisplayName("a PyTorch-format pickle written by Python replays to the same map as the same ops in Java")
    void pythonWrittenSnapshot() throws Exception {
        requirePython();
        // What torch.cuda.memory._dump_snapshot writes: stream pointers, frames, segment entries.
        String script = """
                import pickle, sys
                S = 94251235196416  # a CUDA stream pointer, as PyTorch records it
                base = 139637976727552
                ops = [('alloc', 0, 3145729, 0), ('alloc', 4194304, 5242881, S), ('alloc', 10485760, 100, 0),
                       ('free_requested', 0, 3145729, 0), ('free_completed', 0, 3145729, 0),
                       ('alloc', 20971520, 26214400, 0), ('free_requested', 10485760, 100, 0)]
                tr = [{'action': 'segment_alloc', 'addr': base, 'size': 20971520, 'stream': 0, 'time_us': 0,
                       'frames': []}]
                for i, (a, off, size, stream) in enumerate(ops):
                    tr.append({'action': a, 'addr': base + off, 'size': size, 'stream': stream,
                               'time_us': i + 1, 'frames': [{'filename': 'train.py', 'line': 10, 'name': 'step'}]})
                snap = {'segments': [], 'device_traces': [tr], 'allocator_settings': {}}
                pickle.dump(snap, open(sys.argv[1], 'wb'))
                """;
        Path file = dir.resolve("torch.pickle");
        runPython(script, file);
        CachingAllocator fromPython = replaySnapshot(Files.readAllBytes(file), "torch.pickle").allocator();
        List<TraceEvent> same = List.of(
                new TraceEvent(1, TraceEvent.Op.ALLOC, "a", 3145729, 0),
                new TraceEvent(2, TraceEvent.Op.ALLOC, "b", 5242881, 1),
                new TraceEvent(3, TraceEvent.Op.ALLOC, "c", 100, 0),
                TraceEvent.free(4, "a"),
                new TraceEvent(5, TraceEvent.Op.ALLOC, "d", 26214400, 0),
                TraceEvent.free(6, "c"));
        assertThat(SegmentMap.text(fromPython)).isEqualTo(SegmentMap.text(replay(same, "", false)));
        assertThat(fromPython.segments()).anySatisfy(s -> assertThat(s.stream()).isEqualTo(1));
    }

    @Test
    @DisplayName("the snapshot dict has PyTorch's keys")
    void keys() {
        CachingAllocator a = replay(workload(5), "", true);
        Map<String, Object> s = MemorySnapshot.of(a);
        assertThat(s).containsOnlyKeys("segments", "device_traces", "allocator_settings");
        Map<?, ?> seg = (Map<?, ?>) ((List<?>) s.get("segments")).get(0);
        assertThat(new ArrayList<Object>(seg.keySet())).containsExactly("device", "address", "total_size", "allocated_size",
                "active_size", "requested_size", "stream", "segment_type", "segment_pool_id", "is_expandable",
                "frames", "blocks");
    }

    /**
     * These two tests check the export against Python's own pickle, so they need python3. Where
     * it is missing they skip, saying so in one line ({@code .ci/skipped-tests} lists it): the kit
     * itself needs only a JDK and Maven. Where python3 is required ({@code VRAMLAB_REQUIRE_PYTHON=1},
     * as {@code .ci/run} sets, or {@code -Dvramlab.requirePython=true}) a missing one fails instead.
     */
    static void requirePython() {
        if (python() != null) return;
        String why = "python3 (or python) not found on PATH: this test loads the export with Python's pickle";
        String env = System.getenv("VRAMLAB_REQUIRE_PYTHON");
        boolean required = Boolean.getBoolean("vramlab.requirePython") || (env != null && !env.isBlank() && !"0".equals(env));
        if (required) fail(why + ", and python3 is required here (VRAMLAB_REQUIRE_PYTHON)");
        org.junit.jupiter.api.Assumptions.abort("skipped: " + why + "; install python3 to run it");
    }

    private static String python() {
        for (String p : List.of("python3", "python")) {
            try {
                Process pr = new ProcessBuilder(p, "--version").redirectErrorStream(true).start();
                if (pr.waitFor(20, TimeUnit.SECONDS) && pr.exitValue() == 0) return p;
            } catch (IOException | InterruptedException e) {
                // not there
            }
        }
        return null;
    }

    private String runPython(String script, Path file) throws Exception {
        Path py = dir.resolve("check.py");
        Files.writeString(py, script);
        Process pr = new ProcessBuilder(python(), py.toString(), file.toString()).redirectErrorStream(true).start();
        String out = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(pr.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(pr.exitValue()).as(out).isZero();
        return out;
    }
}
