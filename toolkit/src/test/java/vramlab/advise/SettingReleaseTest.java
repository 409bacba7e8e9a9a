package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import vramlab.alloc.PyTorchRelease;
import vramlab.trace.TraceEvent;

/** advise suggests only strings the chosen release's parser accepts (vramlab.alloc.AllocConfKeys). */
class SettingReleaseTest {
    static final String GC_2_10 = "garbage_collection_threshold:0.8,per_process_memory_fraction:0.99";

    @ParameterizedTest(name = "{0}")
    @EnumSource(PyTorchRelease.class)
    @DisplayName("every row advise compares parses by that release's parser")
    void everyRowParses(PyTorchRelease r) {
        for (Setting s : Setting.standard(r)) {
            assertThatCode(() -> s.parsed(r)).as("%s under %s", s.conf(), r).doesNotThrowAnyException();
        }
    }

    @Test
    @DisplayName("the collection's limit: 2.10 sets it by per_process_memory_fraction; 2.9, which has no such key,"
            + " by the line of code")
    void collectionRow() {
        assertThat(Setting.standard(PyTorchRelease.V2_9)).extracting(Setting::conf)
                .noneMatch(c -> c.contains("per_process_memory_fraction"))
                .contains("garbage_collection_threshold:0.8");
        Setting older = collection(PyTorchRelease.V2_9);
        assertThat(older.code()).isEqualTo("torch.cuda.set_per_process_memory_fraction(0.99)");
        assertThat(older.name()).isEqualTo("garbage_collection_threshold:0.8 + set_per_process_memory_fraction(0.99)");
        assertThat(Setting.standard(PyTorchRelease.V2_10)).extracting(Setting::conf).contains(GC_2_10);
        assertThat(collection(PyTorchRelease.V2_10).code()).as("2.10's row is the string alone").isEmpty();
        assertThat(Setting.standard()).isEqualTo(Setting.standard(PyTorchRelease.DEFAULT));
    }

    @Test
    @DisplayName("2.9's collection row is replayed as 2.10's: the same threshold and limit, the same peak, holes and"
            + " end; without the line of code the collection would not run")
    void collectionReplayedAlike() {
        Setting older = collection(PyTorchRelease.V2_9), newer = collection(PyTorchRelease.V2_10);
        assertThat(older.policy(PyTorchRelease.V2_9).conf()).isEqualTo(newer.policy(PyTorchRelease.V2_10).conf());
        List<TraceEvent> events = growing();
        long card = 1024 * MiB;
        Outcome a = Advisor.replay(events, card, older, "t", PyTorchRelease.V2_9);
        Outcome b = Advisor.replay(events, card, newer, "t", PyTorchRelease.V2_10);
        assertThat(List.of(a.peakReserved(), a.fragmentationAtPeak(), a.ooms(), a.endReserved()))
                .isEqualTo(List.of(b.peakReserved(), b.fragmentationAtPeak(), b.ooms(), b.endReserved()));
        Outcome stringAlone = Advisor.replay(events, card, new Setting(older.conf(), ""), "t", PyTorchRelease.V2_9);
        Outcome defaults = Advisor.replay(events, card, new Setting("", ""), "t", PyTorchRelease.V2_9);
        assertThat(stringAlone.peakReserved()).as("no limit, no collection: the defaults' peak")
                .isEqualTo(defaults.peakReserved()).isGreaterThan(a.peakReserved());
    }

    /** The release's garbage-collection row. */
    static Setting collection(PyTorchRelease r) {
        return Setting.standard(r).stream().filter(s -> s.conf().startsWith("garbage_collection_threshold"))
                .findFirst().orElseThrow();
    }

    /**
     * Each activation 2 MiB larger than the last and freed before the next, so no cached block
     * serves the next one: on 1 GiB the defaults cache 972 MiB, the collection (threshold 0.8 of
     * 0.99 of the card) returns the oldest blocks once reserved passes 792 MiB.
     */
    static List<TraceEvent> growing() {
        List<TraceEvent> out = new ArrayList<>();
        for (int i = 0; i < 34; i++) {
            out.add(TraceEvent.alloc(2L * i + 1, "x" + i, (10 + 2L * i) * MiB));
            out.add(TraceEvent.free(2L * i + 2, "x" + i));
        }
        return out;
    }
}
