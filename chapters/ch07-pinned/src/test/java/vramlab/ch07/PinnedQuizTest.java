package vramlab.ch07;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.driver.DeviceBuffer;
import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;
import vramlab.quiz.Graded;

/** Each quiz answer, checked against the simulator. */
@DisplayName("Chapter 7 quiz")
class PinnedQuizTest {
    final Map<String, String> key = PinnedQuiz.questions().stream()
            .collect(Collectors.toMap(PinnedQuiz.Question::id, PinnedQuiz.Question::answer));
    final PinnedSim sim = new PinnedSim();

    @Test
    @Graded(step = "q7.1")
    @Timeout(10)
    @DisplayName("q7.1 100 GB pinned through the allocator owns 128 GiB")
    void q1() {
        sim.pin(100_000_000_000L);
        assertThat(key.get("q7.1")).startsWith(sim.hostMemoryStats().allocatedBytes() + " ");
    }

    @Test
    @Graded(step = "q7.2")
    @Timeout(10)
    @DisplayName("q7.2 a freed 3 MiB block serves 2.5 MiB and 4 MiB, not 1 MiB")
    void q2() {
        Function<Long, Boolean> reuses = size -> {
            PinnedSim s = new PinnedSim();
            HostBlock b = s.pin(3 * MiB);
            s.del(b);
            return s.pin(size) == b;
        };
        String answer = (reuses.apply(5 * MiB / 2) ? "2.5 MiB" : "")
                + (reuses.apply(MiB) ? " and 1 MiB" : "") + (reuses.apply(4 * MiB) ? " and 4 MiB" : "");
        assertThat(answer).isEqualTo(key.get("q7.2"));
    }

    @Test
    @Graded(step = "q7.3")
    @Timeout(10)
    @DisplayName("q7.3 after del and synchronize: owned 256 MiB, checked out 0")
    void q3() {
        sim.del(sim.pin(256 * MiB));
        sim.synchronize();
        var s = sim.hostMemoryStats();
        assertThat(key.get("q7.3")).isEqualTo("owned " + s.allocatedBytes() / MiB + " MiB, checked out "
                + s.activeBytes() / MiB);
    }

    @Test
    @Graded(step = "q7.4")
    @Timeout(10)
    @DisplayName("q7.4 the reserve segment stays pinned after empty_host_cache")
    void q4() {
        PinnedSim r = new PinnedSim("pinned_reserve_segment_size_mb:64");
        r.del(r.pin(MiB));
        r.emptyHostCache();
        assertThat(key.get("q7.4")).startsWith(r.host().pinnedBytes() + " ");
    }

    @Test
    @Graded(step = "q7.5")
    @Timeout(10)
    @DisplayName("q7.5 a captured staging buffer stays pinned after empty_host_cache")
    void q5() {
        DeviceBuffer loss = sim.cuda(4096);
        HostBlock[] staging = new HostBlock[1];
        sim.capture(() -> { staging[0] = sim.pin(4096); sim.copyToHost(staging[0], loss); });
        sim.del(staging[0]);
        sim.synchronize();
        sim.emptyHostCache();
        boolean pinned = sim.allocator().blocks().contains(staging[0]);
        assertThat(key.get("q7.5")).isEqualTo(pinned ? "yes" : "no");
    }

    @Test
    @Graded(step = "q7.6")
    @Timeout(10)
    @DisplayName("q7.6 a block freed with a queued copy is not reused until its event retires")
    void q6() {
        DeviceBuffer d = sim.cuda(MiB);
        sim.kernel("busy", 20_000_000);
        HostBlock a = sim.pin(MiB);
        sim.copyToDevice(d, a);
        sim.del(a);
        boolean reusedEarly = sim.pin(MiB) == a;
        sim.synchronize();
        boolean reusedLater = sim.pin(MiB) == a;
        assertThat(key.get("q7.6")).startsWith(!reusedEarly && reusedLater ? "no, " : "yes");
    }
}
