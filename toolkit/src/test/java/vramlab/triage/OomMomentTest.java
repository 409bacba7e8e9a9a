package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static vramlab.units.Bytes.MiB;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.kit.RealSnapshotsFolder;
import vramlab.snapshot.SnapshotFile;

@DisplayName("The allocator's state at a recorded OOM, rebuilt backwards from the dump")
class OomMomentTest {
    @Test
    @DisplayName("undoing every entry after the OOM gives the segments, live blocks and holes of that moment")
    void story() {
        List<OomMoment> all = OomMoment.all(Snapshots.holes(), "holes");
        assertThat(all).hasSize(1);
        OomMoment m = all.get(0);
        assertThat(m.entry()).isEqualTo(6);
        assertThat(m.requested()).isEqualTo(12 * MiB);
        assertThat(m.deviceFree()).isEqualTo(5 * MiB);
        assertThat(m.reserved()).isEqualTo(22 * MiB);
        assertThat(m.allocated()).isEqualTo(8 * MiB);
        assertThat(m.unallocated()).isEqualTo(14 * MiB);
        assertThat(m.largestFree()).isEqualTo(8 * MiB);
        assertThat(m.segments()).isEqualTo(2);
        assertThat(m.frames()).containsExactly("forward (model.py)");
    }

    @Test
    @DisplayName("an expandable segment shrinks by a map that came later and grows back by a later unmap")
    void expandable() {
        Map<String, Object> mapped = new Snapshots().segment(400, 12, true, new long[] {400, 12, 0})
                .oom(4, 0).entry("segment_map", 408, 4).build();
        assertThat(OomMoment.all(mapped, "m").get(0).reserved()).isEqualTo(8 * MiB);
        Map<String, Object> unmapped = new Snapshots().segment(400, 12, true, new long[] {400, 12, 0})
                .oom(4, 0).entry("segment_unmap", 412, 4).build();
        OomMoment u = OomMoment.all(unmapped, "u").get(0);
        assertThat(u.reserved()).isEqualTo(16 * MiB);
        assertThat(u.segments()).isEqualTo(1);
        assertThat(u.largestFree()).isEqualTo(16 * MiB);
    }

    @Test
    @DisplayName("a snapshot without an oom entry has no moment, and triage says so by name")
    void none() {
        Map<String, Object> s = new Snapshots().segment(100, 2, false, new long[] {100, 2, 1}).build();
        assertThat(OomMoment.all(s, "x")).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SnapshotTriage.of(s, "x.pickle", -1))
                .hasMessageContaining("x.pickle").hasMessageContaining("no 'oom' entry");
    }

    @Nested
    @DisplayName("on the real snapshots that recorded an OOM with a complete history")
    class Real {
        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"nesta-discrete-diffusion.oom.pickle.gz", "constructor-sun.device1-as-0.derived.pickle.gz"})
        @DisplayName("reserved equals the sum of segment entries up to the OOM, and allocated the live entries "
                + "to within the tails of blocks freed after it")
        void forwardAgrees(String name) throws Exception {
            Path dir = Snapshots.realDir();
            assumeTrue(dir != null, RealSnapshotsFolder.MISSING);
            Map<?, ?> snap = SnapshotFile.dict(Files.readAllBytes(dir.resolve(name)), name);
            OomMoment m = OomMoment.all(snap, name).get(0);
            long reserved = 0, allocated = 0;
            List<?> trace = (List<?>) ((List<?>) snap.get("device_traces")).get(m.device());
            for (int i = 0; i < m.entry() - 1; i++) {
                Map<?, ?> e = (Map<?, ?>) trace.get(i);
                long size = ((Number) e.get("size")).longValue();
                switch ((String) e.get("action")) {
                    case "segment_alloc", "segment_map" -> reserved += size;
                    case "segment_free", "segment_unmap" -> reserved -= size;
                    case "alloc" -> allocated += size;
                    case "free_completed" -> allocated -= size;
                    default -> { }
                }
            }
            assertThat(m.reserved()).isEqualTo(reserved);
            assertThat(m.allocated()).isBetween(allocated, allocated + 64 * MiB);
            assertThat(m.largestFree()).isLessThan(m.requested());
        }
    }
}
