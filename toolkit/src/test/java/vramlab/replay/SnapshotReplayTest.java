package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;
import vramlab.trace.TraceEvent;
import vramlab.units.Bytes;

/**
 * Snapshot replay as a specification: a run of the kit's own PyTorch allocator, recorded from
 * some point on (as {@code _record_memory_history} mid-run does) or through a ring buffer too
 * small for it, must replay from the rebuilt start state to its own end state.
 */
@DisplayName("snapshot replay")
class SnapshotReplayTest {
    /** A seeded run: allocs on two streams, frees, an empty_cache now and then; OOMs allowed. */
    static CachingAllocator run(long seed, String conf, long card, int steps, int recordFrom, long maxEntries) {
        Random r = new Random(seed);
        CachingAllocator a = new CachingAllocator(new Gpu(card).openToyProcess(), new PyTorchPolicy(conf));
        List<Block> live = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            if (i == recordFrom) a.trace().record(true, maxEntries);
            int op = r.nextInt(100);
            if (op < 2) {
                a.emptyCache();
            } else if (op < 58 || live.isEmpty()) {
                long size = Math.max(1, (long) Math.exp(r.nextDouble() * Math.log(mib(48))));
                try {
                    live.add(a.alloc(size, r.nextInt(5) == 0 ? 1 : 0));
                } catch (CudaOutOfMemoryError e) {
                    // the program would catch it and go on, as the recorded OOM runs did
                }
            } else {
                a.free(live.remove(r.nextInt(live.size())));
            }
        }
        return a;
    }

    static SnapshotReplay.Report replay(CachingAllocator recorded) {
        byte[] pickle = SnapshotWriter.pickle(MemorySnapshot.of(recorded));
        Snapshot s = SnapshotReader.read(pickle, "run.pickle");
        return SnapshotReplay.run(s, s.device(0), SnapshotReplay.Options.recorded(), (st, e, res, b, al) -> { }, false);
    }

    static void expectOwnEndState(SnapshotReplay.Report r, String what) {
        assertThat(r.addressesAgree()).as(what + ": segments and addresses").isTrue();
        assertThat(r.liveBlocksMatched()).as(what + ": live blocks").isEqualTo(r.liveBlocks());
        assertThat(r.segmentActionDifference()).as(what + ": segment actions").isNull();
        assertThat(r.oomsAgree()).as(what + ": OOMs " + r.recordedOoms() + " vs " + r.replayedOoms()).isTrue();
        assertThat(r.skippedFrees()).as(what + ": unmatched frees").isZero();
    }

    @Nested
    @DisplayName("a run recorded from its middle on")
    class MidRun {
        @ParameterizedTest(name = "seed {0}, \"{1}\"")
        @CsvSource({"1, ''", "2, ''", "3, expandable_segments:True", "4, expandable_segments:True",
            "5, roundup_power2_divisions:4", "6, ''", "7, expandable_segments:True", "8, ''"})
        @DisplayName("replays from the rebuilt start state to its own end state")
        void rebuilt(long seed, String conf) {
            CachingAllocator a = run(seed, conf, Bytes.gib(80), 1500, 700, Long.MAX_VALUE);
            SnapshotReplay.Report r = replay(a);
            assertThat(String.join(" ", r.start())).contains("incomplete");
            expectOwnEndState(r, "seed " + seed);
        }

        @ParameterizedTest(name = "seed {0}")
        @CsvSource({"11", "12", "13"})
        @DisplayName("through a ring buffer that kept only its last 300 entries")
        void ringBuffer(long seed) {
            CachingAllocator a = run(seed, "", Bytes.gib(80), 1500, 0, 300);
            SnapshotReplay.Report r = replay(a);
            expectOwnEndState(r, "seed " + seed);
        }
    }

    @Nested
    @DisplayName("a complete run on a small card")
    class SmallCard {
        @ParameterizedTest(name = "seed {0}, \"{1}\"")
        @CsvSource({"21, ''", "22, ''", "23, expandable_segments:True", "24, expandable_segments:True"})
        @DisplayName("infers the card from the first oom entry, and every OOM recurs at its entry")
        void oomsRecur(long seed, String conf) {
            CachingAllocator a = run(seed, conf, mib(256), 800, 0, Long.MAX_VALUE);
            assertThat(a.memoryStats().numOoms()).as("the run must OOM for this test to mean anything").isPositive();
            SnapshotReplay.Report r = replay(a);
            assertThat(r.card()).contains("inferred from the oom entry");
            expectOwnEndState(r, "seed " + seed);
        }
    }

    @Test
    @DisplayName("an OOM in the replay is a result, with no stack trace filled; the report's allocator throws as any other after")
    void oomsAsResults() {
        CachingAllocator a = run(21, "", mib(256), 800, 0, Long.MAX_VALUE);
        Snapshot s = SnapshotReader.read(SnapshotWriter.pickle(MemorySnapshot.of(a)), "run.pickle");
        List<CudaOutOfMemoryError> seen = new ArrayList<>();
        SnapshotReplay.Report r = SnapshotReplay.run(s, s.device(0), SnapshotReplay.Options.recorded(),
                new Replayer.Listener() {
                    @Override public void event(long step, TraceEvent e, Replayer.Result res, long b, CachingAllocator al) { }
                    @Override public void oom(long step, TraceEvent e, CudaOutOfMemoryError error) { seen.add(error); }
                }, false);
        assertThat(seen).as("the run must OOM for this test to mean anything").isNotEmpty()
                .hasSize(r.replayedOoms().size()).allMatch(e -> e.getStackTrace().length == 0);
        assertThat(r.oomMessages()).containsExactlyElementsOf(seen.stream().map(Throwable::getMessage).toList());

        CudaOutOfMemoryError after = catchThrowableOfType(() -> r.allocator().alloc(Bytes.gib(1)), CudaOutOfMemoryError.class);
        assertThat(after.getStackTrace()).isNotEmpty();
    }

    @Nested
    @DisplayName("the steps a history becomes")
    class Steps {
        static Snapshot.Entry e(int pos, String word, long addr, long size) {
            return new Snapshot.Entry(pos, word, vramlab.alloc.DeviceTrace.Action.of(word), addr, size, 0,
                    word.equals("oom") ? 0 : -1);
        }

        @Test
        @DisplayName("segment_free runs are an empty_cache, unless they end in an oom; frees happen once")
        void steps() {
            List<Snapshot.Entry> t = List.of(e(1, "segment_free", 100, 20), e(2, "segment_free", 200, 20),
                    e(3, "segment_alloc", 300, 20), e(4, "alloc", 300, 5), e(5, "free_requested", 300, 5),
                    e(6, "free_completed", 300, 5), e(7, "segment_free", 300, 20), e(8, "oom", 0, 40),
                    e(9, "free_completed", 400, 7), e(10, "snapshot", 0, 0), e(11, "segment_unmap", 500, 20));
            List<String> words = new ArrayList<>();
            for (SnapshotSteps.Step s : SnapshotSteps.of(t)) words.add(s.position() + " " + s.op());
            assertThat(words).containsExactly("1 EMPTY_CACHE", "4 ALLOC", "5 FREE", "8 ALLOC", "9 FREE", "11 EMPTY_CACHE");
        }
    }

    @Test
    @DisplayName("a snapshot with segments and no history replays to exactly those segments, and says so")
    void noHistory() {
        CachingAllocator a = run(31, "", Bytes.gib(80), 400, Integer.MAX_VALUE, Long.MAX_VALUE);
        Map<String, Object> dict = new LinkedHashMap<>(MemorySnapshot.of(a));
        dict.put("device_traces", List.of(List.of()));
        Snapshot s = SnapshotReader.read(SnapshotWriter.pickle(dict), "state.pickle");
        SnapshotReplay.Report r = SnapshotReplay.run(s, s.device(0), SnapshotReplay.Options.recorded(),
                (st, e, res, b, al) -> { }, false);
        assertThat(r.start()).anyMatch(n -> n.startsWith("no history"));
        assertThat(r.replayedReserved()).isEqualTo(a.reserved()).isPositive();
        expectOwnEndState(r, "no history");
    }
}
