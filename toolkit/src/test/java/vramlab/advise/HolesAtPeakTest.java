package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.replay.PeakReserved;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;
import vramlab.trace.TraceEvent;

/**
 * advise's "holes at the peak" are the slack at the peak's fullest moment. Measured at the first
 * event that reached the peak, a replay that starts at its peak (a snapshot whose history begins
 * with its segments made) showed the rebuilt start's holes: on wedsonlin's training snapshot
 * {@code roundup_power2_divisions:4} read 6.98 GiB (59.5%) of holes while its peak reserved was
 * the lowest of the eight rows.
 */
@DisplayName("holes at the peak: reserved less the most that live blocks held while the peak was held")
class HolesAtPeakTest {
    static final long CARD = 1L << 30;

    @Test
    @DisplayName("a snapshot whose history starts with its 20 MiB segment made and empty, then fills 16 MiB of it:"
            + " 4 MiB of holes, not 20")
    void snapshotStartingAtItsPeak() {
        CachingAllocator a = new CachingAllocator(new Gpu(CARD).openToyProcess(), new PyTorchPolicy(""));
        a.free(a.alloc(2 * MiB, 0));                     // a 20 MiB segment, cached, before the history
        a.trace().record(true, Long.MAX_VALUE);
        a.alloc(8 * MiB, 0);
        a.alloc(8 * MiB, 0);
        Snapshot s = SnapshotReader.read(SnapshotWriter.pickle(MemorySnapshot.of(a)), "run.pickle");

        Outcome o = Advisor.replay(s, s.device(0), CARD, new Setting("", ""));
        assertThat(o.peakReserved()).isEqualTo(20 * MiB);
        assertThat(o.allocatedAtPeak()).isEqualTo(16 * MiB);
        assertThat(o.fragmentationAtPeak()).isEqualTo(4 * MiB);
        assertThat(o.whatIf().main().allocatedAtPeak()).isEqualTo(16 * MiB);
    }

    @Test
    @DisplayName("a trace whose first segment is made for 2 MiB and then filled to 18 MiB: 2 MiB of holes, not 18")
    void traceFillingItsFirstSegment() {
        List<TraceEvent> events = List.of(TraceEvent.alloc(1, "a", 2 * MiB), TraceEvent.alloc(2, "b", 8 * MiB),
                TraceEvent.alloc(3, "c", 8 * MiB));
        Outcome o = Advisor.replay(events, CARD, new Setting("", ""), "t");
        assertThat(o.peakReserved()).isEqualTo(20 * MiB);
        assertThat(o.fragmentationAtPeak()).isEqualTo(2 * MiB);
    }

    @Test
    @DisplayName("PeakReserved against a reference over seeded random figures: the peak, and the most allocated"
            + " at any event that held it")
    void againstTheReference() {
        Random rnd = new Random(38);
        for (int run = 0; run < 500; run++) {
            int n = 1 + rnd.nextInt(30);
            List<long[]> events = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long reserved = rnd.nextInt(6) * MiB;                      // few values: many ties with the peak
                events.add(new long[] {reserved, rnd.nextInt((int) (reserved / MiB) + 1) * MiB});
            }
            PeakReserved p = new PeakReserved();
            events.forEach(e -> p.see(e[0], e[1]));
            long peak = events.stream().mapToLong(e -> e[0]).max().orElseThrow();
            long most = events.stream().filter(e -> e[0] == peak).mapToLong(e -> e[1]).max().orElseThrow();
            assertThat(p.reserved()).as("run %d", run).isEqualTo(peak);
            assertThat(p.allocated()).as("run %d", run).isEqualTo(most);
        }
    }
}
