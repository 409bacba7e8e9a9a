package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * PyTorch built for ROCm prints its caching allocator's message with "HIP" for "CUDA" (the
 * allocator is c10/cuda/CUDACachingAllocator.cpp, hipified): the triage reads it like CUDA's, and
 * its fixes say which variable a ROCm build reads (see {@link Rocm} for the source). The inputs
 * are real messages, quoted from the issue named above each.
 */
@DisplayName("The triage on PyTorch's ROCm (HIP) messages")
class RocmTriageTest {
    /** https://github.com/pytorch/pytorch/issues/138002 (ComfyUI on ROCm, 2024). */
    static final String PYTORCH_138002 = "!!! Exception during processing !!! HIP out of memory. Tried to "
            + "allocate 6.64 GiB. GPU 0 has a total capacity of 19.92 GiB of which 6.22 GiB is free. Of the "
            + "allocated memory 5.34 GiB is allocated by PyTorch, and 7.10 GiB is reserved by PyTorch but "
            + "unallocated. If reserved but unallocated memory is large try setting "
            + "PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
            + "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

    /** https://github.com/ROCm/TheRock/issues/2118 (PyTorch 2.9's tests on ROCm, November 2025). */
    static final String THEROCK_2118 = "FAILED [0.0005s] external-builds/pytorch/pytorch/test/test_autograd.py::"
            + "TestAutogradDeviceTypeCUDA::test_inplace_on_view_multi_output_safe_cuda - torch.OutOfMemoryError: "
            + "HIP out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 255.98 GiB of which "
            + "244.65 GiB is free. 1.05 GiB allowed; Of the allocated memory 1017.01 MiB is allocated by PyTorch, "
            + "with 17.00 MiB allocated in private pools (e.g., HIP Graphs), and 54.99 MiB is reserved by PyTorch "
            + "but unallocated. If reserved but unallocated memory is large try setting "
            + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
            + "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

    /** The same figures as {@link #PYTORCH_138002}, as a CUDA build prints them. */
    static final String SAME_ON_CUDA = PYTORCH_138002.replace("HIP out of memory", "CUDA out of memory")
            .replace("PYTORCH_HIP_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF");

    @Test
    @DisplayName("a HIP message is a PyTorch OOM: the same figures, the same cause as on CUDA")
    void sameAnalysis() {
        Diagnosis hip = Triage.of(PYTORCH_138002), cuda = Triage.of(SAME_ON_CUDA);
        assertThat(hip.cause()).as(hip.text()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(hip.reading().backend()).isEqualTo("HIP");
        assertThat(hip.reading().figures()).isEqualTo(cuda.reading().figures());
        assertThat(hip.cause()).isEqualTo(cuda.cause());
        assertThat(hip.evidence()).isEqualTo(cuda.evidence());
        assertThat(hip.ranked()).isEqualTo(cuda.ranked());
        assertThat(hip.reading().get(Figure.REQUESTED)).isEqualTo(Math.round(6.64 * (1L << 30)));
    }

    @Test
    @DisplayName("its fixes say which variable a ROCm build reads, and which releases have expandable segments")
    void variableForRocm() {
        Diagnosis d = Triage.of(PYTORCH_138002);
        assertThat(d.fixes()).anySatisfy(f -> assertThat(f).startsWith("Set PYTORCH_CUDA_ALLOC_CONF="
                + "expandable_segments:True").endsWith(". On ROCm set the same PYTORCH_CUDA_ALLOC_CONF: a ROCm "
                + "build reads it first, and PYTORCH_HIP_ALLOC_CONF (the name some ROCm messages print) only "
                + "while PYTORCH_CUDA_ALLOC_CONF is unset; releases that know PYTORCH_ALLOC_CONF read that "
                + "before both. Expandable segments came to ROCm only in 2026 (pytorch/pytorch#177974, ROCm 7 "
                + "and later): an older ROCm build warns 'expandable_segments not supported on this platform' "
                + "and ignores the setting, so max_split_size_mb is the rung to try there."));
        assertThat(d.fixes()).anySatisfy(f -> assertThat(f).startsWith("Set max_split_size_mb")
                .endsWith("On ROCm it is also the rung for a build without expandable segments."));
        assertThat(d.fixes()).hasSameSizeAs(Cause.FRAGMENTATION.fixes());
        // the check that tells fragmentation apart names the variable the same way
        assertThat(d.tellApart()).contains(Rocm.VARIABLE);
        assertThat(d.text()).contains("Its hint names PYTORCH_HIP_ALLOC_CONF")
                .contains("'HIP out of memory' is PyTorch built for ROCm");
    }

    @Test
    @DisplayName("an entry that sets another option gets the variable's sentence only; other entries are kept")
    void textRules() {
        Reading hip = Triage.of(PYTORCH_138002).reading();
        Fix split = new Fix("Set PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128.", Fix.Sets.ALLOC_CONF);
        assertThat(Rocm.text(hip, split)).isEqualTo("Set PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128. " + Rocm.VARIABLE);
        assertThat(Rocm.text(hip, Fix.plain("Lower the batch size."))).isEqualTo("Lower the batch size.");
        Reading cuda = Triage.of(SAME_ON_CUDA).reading();
        assertThat(Rocm.text(cuda, split)).isEqualTo("Set PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128.");
    }

    @Test
    @DisplayName("the sentence follows what an entry sets, not its words: a quoted variable gets none, a setting"
            + " worded without the variable's name gets it")
    void bySettingNotByWords() {
        Reading hip = Triage.of(PYTORCH_138002).reading();
        String quoted = "The message's hint (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True) does not apply: "
                + "the holes lie inside pages.";
        assertThat(Rocm.text(hip, Fix.plain(quoted))).isEqualTo(quoted);
        String worded = "Turn on expandable segments in the allocator's configuration.";
        assertThat(Rocm.text(hip, new Fix(worded, Fix.Sets.EXPANDABLE_SEGMENTS)))
                .isEqualTo(worded + " " + Rocm.VARIABLE + " " + Rocm.EXPANDABLE);
        assertThat(Rocm.text(hip, new Fix("Cap the split size.", Fix.Sets.MAX_SPLIT_SIZE_MB)))
                .isEqualTo("Cap the split size. " + Rocm.SPLIT);
    }

    /** What Rocm.text did before the entries said what they set: a match on the prose. */
    private static String byProse(Reading r, String s) {
        if (!Rocm.is(r)) return s;
        if (s.contains("PYTORCH_CUDA_ALLOC_CONF=")) {
            return s + " " + Rocm.VARIABLE + (s.contains("expandable_segments") ? " " + Rocm.EXPANDABLE : "");
        }
        if (s.startsWith("Set max_split_size_mb")) return s + " " + Rocm.SPLIT;
        return s;
    }

    @Test
    @DisplayName("every fix and check the kit prints reads on ROCm (and on CUDA) exactly as the old match on its"
            + " prose made it, and the four that set something say so")
    void everyEntryAsBefore() {
        java.util.List<Fix> all = new java.util.ArrayList<>();
        for (Cause c : Cause.values()) {
            all.add(c.checkEntry());
            all.addAll(c.fixEntries());
        }
        for (Finding f : Finding.values()) {
            all.add(f.checkEntry());
            all.addAll(f.fixEntries());
        }
        all.addAll(FixLadder.entries(FixLadder.FRAGMENTATION_FIXES));
        Reading hip = Triage.of(PYTORCH_138002).reading(), cuda = Triage.of(SAME_ON_CUDA).reading();
        for (Fix f : all) {
            assertThat(Rocm.text(hip, f)).as(f.text()).isEqualTo(byProse(hip, f.text()));
            assertThat(Rocm.text(cuda, f)).as(f.text()).isEqualTo(f.text());
        }
        // the fragmentation check, its two rungs and the fraction's fragmentation fix; and the
        // check and fix of ROOM_ON_CARD that look for a memory fraction (Release's, not ROCm's)
        assertThat(new java.util.LinkedHashSet<>(all)).filteredOn(f -> f.sets() != Fix.Sets.NOTHING).hasSize(6);
    }

    @Test
    @DisplayName("every message of the corpus, as ROCm prints it: fixes and check as the old match on the prose made"
            + " them from the CUDA message's")
    void corpusAsBefore() throws java.io.IOException {
        int rocm = 0;
        for (TriageCorpusTest.Entry e : TriageCorpusTest.corpus()) {
            String cudaText = e.text().replace("HIP out of memory", "CUDA out of memory");
            Diagnosis cuda = Triage.of(cudaText), hip = Triage.of(cudaText.replace("CUDA out of memory", "HIP out of memory"));
            if (!Rocm.is(hip.reading())) continue;
            rocm++;
            java.util.List<String> expected = new java.util.ArrayList<>();
            for (String f : cuda.fixes()) expected.add(byProse(hip.reading(), f));
            assertThat(hip.fixes()).as(e.file()).isEqualTo(expected);
            assertThat(hip.tellApart()).as(e.file()).isEqualTo(byProse(hip.reading(), cuda.tellApart()));
        }
        assertThat(rocm).isGreaterThan(20);
    }

    @Test
    @DisplayName("a CUDA message's fixes are unchanged")
    void cudaUnchanged() {
        Diagnosis d = Triage.of(SAME_ON_CUDA);
        assertThat(d.fixes()).isEqualTo(Cause.FRAGMENTATION.fixes());
        assertThat(d.tellApart()).doesNotContain("ROCm");
        assertThat(d.text()).doesNotContain("ROCm");
    }

    @Test
    @DisplayName("a ROCm message with a memory fraction and HIP graphs: MEMORY_FRACTION, its fix said for ROCm")
    void fractionOnRocm() {
        Diagnosis d = Triage.of(THEROCK_2118);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(d.finding()).as(d.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(d.reading().get(Figure.PRIVATE_POOLS)).isEqualTo(17L << 20);
        assertThat(d.reading().get(Figure.ALLOWED)).isEqualTo(Math.round(1.05 * (1L << 30)));
        assertThat(String.join("\n", d.fixes())).contains(Rocm.VARIABLE);
    }

    @Test
    @DisplayName("--json keeps its keys: cause, backend HIP, the ROCm fixes, and it parses")
    void json() {
        String json = Triage.of(PYTORCH_138002).json();
        assertThat(MiniJsonReader.isValid(json)).isTrue();
        assertThat(json).startsWith("{\"cause\":\"FRAGMENTATION\",\"step\":1,\"family\":\"SENTENCE\","
                + "\"backend\":\"HIP\"").contains("On ROCm set the same PYTORCH_CUDA_ALLOC_CONF");
    }

    @Test
    @DisplayName("other devices and a raw HIP error stay outside the ladder")
    void othersStayOut() {
        assertThat(Triage.of("torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has "
                + "a total capacity of 15.11 GiB of which 1.00 GiB is free.").cause()).isEqualTo(Cause.NOT_PYTORCH_OOM);
        assertThat(Triage.of("RuntimeError: HIP error: out of memory").cause()).isEqualTo(Cause.NOT_PYTORCH_OOM);
    }
}
