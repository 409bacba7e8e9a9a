package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemoryStats;
import vramlab.alloc.PyTorchRelease;
import vramlab.driver.Gpu;
import vramlab.replay.Replayer;
import vramlab.trace.TraceEvent;

@DisplayName("advise")
class AdvisorTest {
    /** A 30 MiB block freed beside a live small one, then 46 MiB on a 64 MiB card. */
    static List<TraceEvent> fragmenting() {
        return List.of(TraceEvent.alloc(1, "a", 30 * MiB), TraceEvent.alloc(2, "b", 3 * MiB / 2),
                TraceEvent.free(3, "a"), TraceEvent.alloc(4, "c", 46 * MiB));
    }

    static Advice advise(List<TraceEvent> events, long card) {
        return new Advice("t", card, "--device", null, "line",
                Advisor.compare(events, card, Setting.standard(), "t", null));
    }

    @Nested
    @DisplayName("the table")
    class Table {
        @Test
        @DisplayName("has one row per setting, the defaults first, and every setting parses as PyTorch's config")
        void rows() {
            Advice a = advise(fragmenting(), 64 * MiB);
            assertThat(a.outcomes()).hasSize(Setting.standard().size());
            assertThat(a.outcomes().get(0).setting().name()).isEqualTo("default");
            assertThat(a.text()).contains("expandable_segments:True", "max_split_size_mb:128",
                    "roundup_power2_divisions:4", "garbage_collection_threshold:0.8 + set_per_process_memory_fraction(0.99)")
                    .as("2.9, the default, has no key for the collection's limit").doesNotContain("per_process_memory_fraction:");
        }

        @Test
        @DisplayName("peak reserved and the OOM count agree with the allocator's own memory stats (seeded random traces)")
        void agreesWithStats() {
            Random rnd = new Random(15);
            for (int t = 0; t < 15; t++) {
                List<TraceEvent> events = randomTrace(rnd, 300);
                long card = (64 + rnd.nextInt(192)) * MiB;
                for (Setting s : Setting.standard()) {
                    Outcome o = Advisor.replay(events, card, s, "t");
                    CachingAllocator a = new CachingAllocator(new Gpu(card).openToyProcess(),
                            s.policy(PyTorchRelease.DEFAULT));
                    new Replayer(a, (step, e, r, bytes, al) -> { }, "t", false).replay(events.iterator());
                    MemoryStats.Stat reserved = a.memoryStats().stat("reserved_bytes", "all");
                    assertThat(o.peakReserved()).as("trace %d, %s", t, s.name()).isEqualTo(reserved.peak());
                    assertThat(o.ooms()).isEqualTo(a.memoryStats().numOoms());
                    assertThat(o.endReserved()).isEqualTo(a.reserved());
                    assertThat(o.fragmentationAtPeak()).isBetween(0L, o.peakReserved());
                    assertThat(o.firstOom() == null).isEqualTo(o.ooms() == 0);
                }
            }
        }
    }

    @Nested
    @DisplayName("the recommendation")
    class Recommendation {
        @Test
        @DisplayName("names expandable segments, with the exact line, when only they make the workload fit")
        void expandable() {
            Advice a = advise(fragmenting(), 64 * MiB);
            assertThat(a.outcomes().get(0).ooms()).isEqualTo(1);
            assertThat(a.outcomes().get(0).firstOom().handle()).isEqualTo("c");
            assertThat(a.best().setting().conf()).isEqualTo("expandable_segments:True");
            assertThat(a.line()).isEqualTo("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
            assertThat(a.text()).contains("replays the whole workload without an OOM (the defaults: 1 OOM)")
                    .contains("  PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n")
                    .contains("PYTORCH_ALLOC_CONF=expandable_segments:True");
            // the newer name alone would not work on 2.9.1 (pytorch/pytorch#183387): the line says so,
            // and names the first release that reads it for CUDA (PR #165135, after the 2.9 branch cut)
            assertThat(a.text()).contains("\n  (2.10 and later also read it as PYTORCH_ALLOC_CONF=expandable_segments:True;"
                    + " 2.9 warns that PYTORCH_CUDA_ALLOC_CONF is deprecated, yet its CUDA allocator reads its keys"
                    + " only from that name, pytorch/pytorch#183387: keep the name above)\n");
        }

        @Test
        @DisplayName("under 2.9, the collection: the string to set and the line of code for its limit, never"
                + " 2.10's key for it")
        void collectionUnder29() {
            Setting gc = SettingReleaseTest.collection(PyTorchRelease.V2_9);
            long card = 1024 * MiB;
            Advice a = new Advice("t", card, "--device", null, "line", Advisor.compare(SettingReleaseTest.growing(),
                    card, List.of(new Setting("", ""), gc), "t", null, PyTorchRelease.V2_9));
            assertThat(a.best().setting()).isEqualTo(gc);
            assertThat(a.line()).isEqualTo("PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.8");
            assertThat(a.text()).contains("Recommendation: garbage_collection_threshold:0.8 +"
                            + " set_per_process_memory_fraction(0.99) peaks at 850.00 MiB reserved")
                    .contains("  PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.8\n"
                            + "  (2.10 and later also read it as PYTORCH_ALLOC_CONF=garbage_collection_threshold:0.8;"
                            + " 2.9 warns that PYTORCH_CUDA_ALLOC_CONF is deprecated, yet its CUDA allocator reads its"
                            + " keys only from that name, pytorch/pytorch#183387: keep the name above)\n"
                            + "and in the code, before its first CUDA allocation:\n"
                            + "  torch.cuda.set_per_process_memory_fraction(0.99)\n"
                            + "  (the collection runs only under a memory limit, which PyTorch 2.9's parser has no key for")
                    .doesNotContain("per_process_memory_fraction:");
        }

        @Test
        @DisplayName("keeps the defaults when nothing does better, and sets no line")
        void defaults() {
            Advice a = advise(List.of(TraceEvent.alloc(1, "a", 40 * MiB), TraceEvent.free(2, "a")), 1024 * MiB);
            assertThat(a.best().setting().conf()).isEmpty();
            assertThat(a.line()).isEmpty();
            assertThat(a.text()).contains("Recommendation: keep the defaults");
        }

        @Test
        @DisplayName("says that nothing fits when every setting fails, and sets no line")
        void nothingFits() {
            Advice a = advise(List.of(TraceEvent.alloc(1, "a", 100 * MiB)), 64 * MiB);
            assertThat(a.outcomes()).allMatch(o -> o.ooms() == 1);
            assertThat(a.line()).isEmpty();
            assertThat(a.text()).contains("no setting makes this workload fit");
        }
    }

    @Test
    @DisplayName("prints one progress line per setting for long inputs, none for short ones")
    void progress() {
        List<String> lines = new ArrayList<>();
        Advisor.compare(fragmenting(), 64 * MiB, Setting.standard(), "t", lines::add);
        assertThat(lines).isEmpty();
        List<TraceEvent> many = new ArrayList<>();
        for (int i = 0; i <= Advisor.PROGRESS_ABOVE / 2; i++) {
            many.add(TraceEvent.alloc(2L * i, "h" + i, MiB));
            many.add(TraceEvent.free(2L * i + 1, "h" + i));
        }
        Advisor.compare(many, 64 * MiB, Setting.standard(), "t", lines::add);
        assertThat(lines).hasSize(Setting.standard().size()).allMatch(l -> l.startsWith("advise: ["));
    }

    static List<TraceEvent> randomTrace(Random rnd, int n) {
        List<TraceEvent> out = new ArrayList<>();
        List<String> live = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!live.isEmpty() && rnd.nextInt(3) == 0) {
                out.add(TraceEvent.free(i + 1, live.remove(rnd.nextInt(live.size()))));
            } else {
                long size = rnd.nextBoolean() ? 1 + rnd.nextInt(1 << 20) : (1 + rnd.nextInt(40)) * MiB + rnd.nextInt(4096);
                String h = "h" + i;
                out.add(TraceEvent.alloc(i + 1, h, size));
                live.add(h);
            }
        }
        return out;
    }
}
