package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import vramlab.alloc.PyTorchRelease;

/** advise suggests only strings the chosen release's parser accepts (vramlab.alloc.AllocConfKeys). */
class SettingReleaseTest {
    @ParameterizedTest(name = "{0}")
    @EnumSource(PyTorchRelease.class)
    @DisplayName("every row advise compares parses by that release's parser")
    void everyRowParses(PyTorchRelease r) {
        for (Setting s : Setting.standard(r)) {
            assertThatCode(() -> s.parsed(r)).as("%s under %s", s.conf(), r).doesNotThrowAnyException();
        }
    }

    @Test
    @DisplayName("2.9 has no key for the limit garbage collection needs: no such row; 2.10 sets it by per_process_memory_fraction")
    void collectionRow() {
        assertThat(Setting.standard(PyTorchRelease.V2_9)).extracting(Setting::conf)
                .noneMatch(c -> c.contains("per_process_memory_fraction") || c.contains("garbage_collection_threshold"));
        assertThat(Setting.standard(PyTorchRelease.V2_10)).extracting(Setting::conf)
                .contains("garbage_collection_threshold:0.8,per_process_memory_fraction:0.99");
        assertThat(Setting.standard()).isEqualTo(Setting.standard(PyTorchRelease.DEFAULT));
    }
}
