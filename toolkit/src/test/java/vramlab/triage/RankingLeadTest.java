package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Where the rounding of the printed figures alone could flip a cause's "enough alone", the ladder
 * says so in its sentence, and the ranking's table and its JSON row say it too, from the same
 * decision ({@link Candidate#lead}). The messages are RoundingLeadsTest's.
 */
class RankingLeadTest {
    private static final String LEAD = "a lead, not a finding";

    private static String message(String tried, String cap, String free, String self, String alloc,
                                  String pools, String unalloc) {
        return RoundingLeadsTest.message(tried, cap, free, self, alloc, pools, unalloc);
    }

    @Test
    @DisplayName("live tensors enough alone within the rounding: the table's row and the JSON row say it is a lead")
    void liveTensors() {
        Diagnosis d = Triage.of(message("12.00 GiB", "23.65 GiB", "1.50 GiB", "22.13 GiB", "10.50 GiB", null,
                "11.20 GiB"));
        assertThat(d.text()).containsPattern("\n  FULL_OR_DRIVER_RESERVE +\\d+% +10\\.50 GiB +enough alone: " + LEAD + "\n");
        assertThat(d.json()).contains("\"cause\":\"FULL_OR_DRIVER_RESERVE\"").containsPattern(
                "\\{\"cause\":\"FULL_OR_DRIVER_RESERVE\",[^{}]*\"enoughAlone\":true,[^{}]*\"errorBytes\":\\d+,\"lead\":true}");
        Diagnosis clear = Triage.of(message("12.00 GiB", "23.65 GiB", "1.50 GiB", "22.13 GiB", "10.45 GiB", null,
                "11.20 GiB"));
        assertThat(clear.text()).containsPattern("\n  FULL_OR_DRIVER_RESERVE +\\d+% +10\\.45 GiB +not enough alone\n")
                .doesNotContain(LEAD);
        assertThat(clear.json()).doesNotContain("\"lead\":true");
    }

    @Test
    @DisplayName("graph pools within the rounding of the request: decided, and marked a lead in the table, the JSON and the decision")
    void graphPools() {
        Diagnosis d = Triage.of(message("1.00 GiB", "20.00 GiB", "1.00 MiB", "19.99 GiB", "18.50 GiB",
                "1019.00 MiB", "10.00 MiB"));
        assertThat(d.cause()).isEqualTo(Cause.CUDA_GRAPH_POOLS);
        assertThat(d.ranked().get(0)).satisfies(c -> assertThat(c.lead()).isTrue())
                .satisfies(c -> assertThat(c.verdict()).isEqualTo("enough alone: " + LEAD));
        assertThat(d.text()).containsPattern("\n  CUDA_GRAPH_POOLS +\\d+% +1019\\.00 MiB +enough alone: " + LEAD + "\n");
        assertThat(d.json()).containsPattern("\\{\"cause\":\"CUDA_GRAPH_POOLS\",[^{}]*\"lead\":true}");
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("Decision: CUDA_GRAPH_POOLS")
                .endsWith("Its rung is within the rounding of the message's figures: check it before acting on it."));
        Diagnosis clear = Triage.of(message("1.00 GiB", "20.00 GiB", "1.00 MiB", "19.99 GiB", "18.50 GiB",
                "1010.00 MiB", "10.00 MiB"));
        assertThat(clear.ranked()).noneSatisfy(c -> assertThat(c.lead()).isTrue());
        assertThat(clear.text()).doesNotContain(LEAD);
    }
}
