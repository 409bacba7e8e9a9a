package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.alloc.AllocConf.Rules;
import vramlab.driver.Gpu;

/**
 * The rows of {@link PyTorchRelease}: each release's parser rules, OOM hint and memory fraction,
 * through the policy that follows it.
 */
@DisplayName("PyTorch's rules by release")
class PyTorchReleaseTest {
    static CachingAllocator allocator(String conf, PyTorchRelease r, long card) {
        return new CachingAllocator(new Gpu(card).openToyProcess(), PyTorchPolicy.of(conf, r));
    }

    /**
     * A string with {@code per_process_memory_fraction} under {@code r}'s rules: 2.10 reads the
     * key; 2.9 has none (AllocConfKeysTest), so there the fraction stands for
     * {@code torch.cuda.set_per_process_memory_fraction} called from code ({@link CodeFraction}).
     */
    static CachingAllocator withFraction(String conf, PyTorchRelease r, long card) {
        return new CachingAllocator(new Gpu(card).openToyProcess(), CodeFraction.policy(conf, r));
    }

    @Test
    @DisplayName("the kit models 2.9 (the default) and 2.10, by the parser each ships")
    void releases() {
        assertThat(PyTorchRelease.versions()).containsExactly("2.9", "2.10");
        assertThat(PyTorchRelease.DEFAULT).isEqualTo(PyTorchRelease.V2_9);
        assertThat(PyTorchRelease.V2_9.rules()).isEqualTo(Rules.CUDA_ALLOCATOR_CONFIG);
        assertThat(PyTorchRelease.V2_10.rules()).isEqualTo(Rules.ACCELERATOR_CONFIG_0AC7166);
        assertThat(new PyTorchPolicy().release()).isEqualTo(PyTorchRelease.DEFAULT);
        for (PyTorchRelease r : PyTorchRelease.values()) assertThat(PyTorchRelease.named(r.version())).isSameAs(r);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"2.9x", "2.8", "2.11", "", "2.1O", "v2.9"})
    @DisplayName("any other version is refused, naming the ones the kit models")
    void otherVersions(String v) {
        assertThatThrownBy(() -> PyTorchRelease.named(v)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + v + "' is not a release the kit models; expected one of 2.9, 2.10");
    }

    @Test
    @DisplayName("max_split_size_mb:20: refused by 2.9's parser, read as 20 MiB by 2.10's")
    void twenty() {
        assertThatThrownBy(() -> PyTorchPolicy.of("max_split_size_mb:20", PyTorchRelease.V2_9))
                .hasMessageContaining("must be > 20");
        assertThat(PyTorchPolicy.of("max_split_size_mb:20", PyTorchRelease.V2_10).maxSplitSize()).isEqualTo(mib(20));
    }

    @Test
    @DisplayName("the docs' [256:1,512:2,1024:4,>:8]: 1024 MB rounds to 8 divisions under 2.9 and to 4 under 2.10")
    void docsDivisions() {
        String conf = "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]";
        long size = mib(1024) + mib(100);              // in [1024, 2048) MB
        long step8 = mib(1024) / 8, step4 = mib(1024) / 4;
        assertThat(PyTorchPolicy.of(conf, PyTorchRelease.V2_9).roundSize(size)).isEqualTo(mib(1024) + step8);
        assertThat(PyTorchPolicy.of(conf, PyTorchRelease.V2_10).roundSize(size)).isEqualTo(mib(1024) + step4);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(PyTorchRelease.class)
    @DisplayName("the OOM message's hint names the release's variable, the rest of the text the same")
    void hint(PyTorchRelease r) {
        CachingAllocator a = allocator("", r, 64 * MiB);
        assertThatThrownBy(() -> a.alloc(100 * MiB)).isInstanceOf(CudaOutOfMemoryError.class)
                .hasMessageContaining("try setting " + r.hintVariable() + "=expandable_segments:True to avoid fragmentation.")
                .hasMessageEndingWith(PyTorchOomMessage.TAIL.replace("PYTORCH_CUDA_ALLOC_CONF=", r.hintVariable() + "="));
        assertThat(r.hintVariable()).isEqualTo(r == PyTorchRelease.V2_9 ? "PYTORCH_CUDA_ALLOC_CONF" : "PYTORCH_ALLOC_CONF");
    }

    /**
     * A fraction of 1.0 under each release, both ways of setting it: 2.9 keeps a limit of the whole
     * card (so the OOM message says "allowed" and garbage collection runs), 2.10 keeps none.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(PyTorchRelease.class)
    @DisplayName("a fraction of 1.0: a whole-card limit under 2.9, no limit under 2.10; below 1.0 a limit under both")
    void wholeCard(PyTorchRelease r) {
        long card = GiB;
        CachingAllocator byConf = withFraction("per_process_memory_fraction:1.0", r, card);
        CachingAllocator byCall = allocator("", r, card);
        byCall.setMemoryFraction(1.0);
        long expected = r.wholeCardIsNoLimit() ? -1 : card;
        assertThat(byConf.allowedMemory()).isEqualTo(expected);
        assertThat(byCall.allowedMemory()).isEqualTo(expected);
        assertThat(byConf.memoryFraction()).as("get_per_process_memory_fraction reads 1.0 either way").isEqualTo(1.0);
        assertThatThrownBy(() -> byConf.alloc(2 * card)).isInstanceOf(CudaOutOfMemoryError.class)
                .satisfies(e -> assertThat(e.getMessage().contains(" allowed; ")).isEqualTo(!r.wholeCardIsNoLimit()));
        CachingAllocator half = withFraction("per_process_memory_fraction:0.5", r, card);
        assertThat(half.allowedMemory()).isEqualTo(card / 2);
    }

    /**
     * Garbage collection runs only under a limit (CUDACachingAllocator.cpp's malloc): with a
     * threshold and a fraction of 1.0 it frees an old cached block under 2.9 and nothing under 2.10.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(PyTorchRelease.class)
    @DisplayName("garbage_collection_threshold with a fraction of 1.0 collects under 2.9 only")
    void collectionNeedsALimit(PyTorchRelease r) {
        CachingAllocator a = withFraction("garbage_collection_threshold:0.5,per_process_memory_fraction:1.0", r, mib(128));
        Block x = a.alloc(mib(40));
        a.alloc(mib(30));
        a.free(x);                                     // 40 MiB cached; reserved 70 MiB > 0.5 * 128
        a.alloc(mib(50));                              // the cached block cannot serve it: collect, then cudaMalloc
        boolean collected = a.freeBlocks(PoolKind.LARGE).stream().noneMatch(b -> b.size == mib(40));
        assertThat(collected).isEqualTo(!r.wholeCardIsNoLimit());
        a.checkInvariants();
    }
}
