package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The generated outputs still show what the notes' prose says they show. */
class Ch03OutputsTest {
    @Test
    @DisplayName("a freed block stays reserved until emptyCache, which then releases it")
    void freeKeepsReserved() {
        String[] rows = Ch03Outputs.outputFreeKeepsReserved().split("\n");
        assertThat(rows[1]).startsWith("free(a)").contains("reserved=30M allocated=0M");
        assertThat(rows[2]).contains("no cudaMalloc");
        assertThat(rows[3]).contains("reserved=0M");
    }

    @Test
    @DisplayName("a 900 KiB request makes a small segment beside a wholly free large one")
    void poolsNeverMix() {
        String out = Ch03Outputs.outputPoolsNeverMix();
        assertThat(out).contains("pool small, served from segment 1").contains("seg0[0..20)M 20M FREE");
    }

    @Test
    @DisplayName("under PyTorch's rules a 5 MiB hole serves 4 MiB whole, 1 MiB over")
    void wholeBlockHandedOver() {
        assertThat(Ch03Outputs.outputWholeBlockHandedOver()).contains("block of 5 MiB (not split)")
                .contains("allocated - requested=1 MiB");
    }

    @Test
    @DisplayName("one live block keeps its segment; only the wholly free segment is released")
    void oneLiveBlockPins() {
        String out = Ch03Outputs.outputOneLiveBlockPins();
        String after = out.substring(out.indexOf("emptyCache() released"));
        assertThat(after).contains("seg0[0..2)M 2M LIVE").doesNotContain("segment 1");
    }

    @Test
    @DisplayName("the ladder shows 1 MiB small and PyTorch's 10 MiB segment without a 20 MiB floor")
    void ladder() {
        String out = Ch03Outputs.outputLadderBothPolicies();
        assertThat(out).contains("1 MiB, small, 2 MiB").contains("10 MiB, large, 10 MiB");
    }

    @Test
    @DisplayName("the three-numbers run and the summary keep requested <= allocated <= reserved")
    void threeNumbers() {
        for (String row : Ch03Outputs.outputThreeNumbers().split("\n")) {
            String[] f = row.trim().split("\\s+");
            if (f.length < 3 || !f[f.length - 1].matches("[0-9,]+")) continue;
            long req = Long.parseLong(f[f.length - 3].replace(",", ""));
            long alloc = Long.parseLong(f[f.length - 2].replace(",", ""));
            long res = Long.parseLong(f[f.length - 1].replace(",", ""));
            assertThat(req).isLessThanOrEqualTo(alloc);
            assertThat(alloc).isLessThanOrEqualTo(res);
        }
        assertThat(Ch03Outputs.outputMemorySummary()).contains("Non-releasable memory", "Requested memory");
    }

    @Test
    @DisplayName("the rules by release: 21 and 20 MB, 8 and 4 divisions, the hint's two names, a limit and none, the fraction key refused and accepted")
    void rulesByRelease() {
        String[] rows = Ch03Outputs.outputRulesByRelease().split("\n");
        assertThat(rows[0]).contains("2.9").contains("2.10");
        assertThat(rows[1].split("\\s{2,}")).endsWith("21 MB", "20 MB");
        assertThat(rows[2].trim().split("\\s+")).endsWith("8", "4");
        assertThat(rows[3]).containsSubsequence("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF");
        assertThat(rows[4].strip()).contains("(the card)").endsWith("none");
        assertThat(rows[5]).containsSubsequence("the old 40 MiB block", "nothing");
        assertThat(rows[6]).containsSubsequence("refused (unknown key)", "accepted");
    }
}
