package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * triage --json gives each byte figure's error beside it, as the text report's "± 0.01 GiB":
 * PyTorch prints sizes with two decimals (format_size), so a GiB figure read back is within
 * ceil(1 GiB / 200) = 5368710 bytes of the truth, a difference of two such within twice that.
 */
class JsonErrorsTest {
    private static final long GIB_ERROR = (1024L * 1024 * 1024 + 199) / 200;

    /** TriageMessagesTest's "1.x reserved in total, fragmentation" row. */
    private static final String MESSAGE = "RuntimeError: CUDA out of memory. Tried to allocate 2.44 GiB (GPU 0; "
            + "31.75 GiB total capacity; 24.10 GiB already allocated; 1.37 GiB free; 29.02 GiB reserved in total by "
            + "PyTorch)";

    @Test
    @DisplayName("shortfallErrorBytes, numbersErrorBytes (a computed figure's error is its parts') and each row's"
            + " errorBytes come last, after finding")
    @SuppressWarnings("unchecked")
    void errors() {
        Diagnosis d = Triage.of(MESSAGE);
        assertThat(d.cause()).isEqualTo(Cause.FRAGMENTATION);
        String json = d.json();
        assertThat(json.indexOf("\"finding\":")).isLessThan(json.indexOf("\"shortfallErrorBytes\":"));
        // then shareOfBytes, what the shares measure against (here the shortfall; CapWhileShortTest holds the cap's excess)
        assertThat(json).endsWith(",\"reserved\":" + GIB_ERROR + ",\"allowed\":null},\"shareOfBytes\":" + d.shortfall() + "}");
        Map<String, Object> o = TriageFindingsTest.json(d);
        assertThat(((Number) o.get("shortfallErrorBytes")).longValue()).isEqualTo(2 * GIB_ERROR);
        Map<String, Object> errors = (Map<String, Object>) o.get("numbersErrorBytes");
        assertThat(errors.keySet()).containsExactlyElementsOf(((Map<String, Object>) o.get("numbers")).keySet());
        assertThat(((Number) errors.get("requested")).longValue()).isEqualTo(GIB_ERROR);
        assertThat(((Number) errors.get("reservedButUnallocated")).longValue()).as("reserved minus allocated")
                .isEqualTo(2 * GIB_ERROR);
        assertThat(errors.get("device")).isNull();
        assertThat(errors.get("privatePools")).as("absent from 1.x's wording").isNull();
        List<Map<String, Object>> rows = (List<Map<String, Object>>) o.get("ranked");
        assertThat(((Number) rows.get(0).get("errorBytes")).longValue()).isEqualTo(2 * GIB_ERROR);
        Map<String, Object> full = rows.stream().filter(r -> r.get("cause").equals("FULL_OR_DRIVER_RESERVE"))
                .findFirst().orElseThrow();
        assertThat(((Number) full.get("errorBytes")).longValue()).as("the live tensors, as printed").isEqualTo(GIB_ERROR);
        // each row ends with its errorBytes, then lead (whether the rounding alone could flip enoughAlone)
        assertThat(json).contains("\"errorBytes\":" + 2 * GIB_ERROR + ",\"lead\":false}");
        assertThat(rows).allSatisfy(r -> assertThat(List.copyOf(r.keySet()).subList(r.size() - 2, r.size()))
                .containsExactly("errorBytes", "lead"));
    }

    @Test
    @DisplayName("a cause named by words has no bytes and no error; a message without figures has no shortfall error")
    @SuppressWarnings("unchecked")
    void noFigures() {
        Map<String, Object> o = TriageFindingsTest.json(Triage.of("RuntimeError: CUDA error: out of memory"));
        assertThat(o).containsEntry("shortfallErrorBytes", null);
        assertThat(((Map<String, Object>) o.get("numbersErrorBytes")).values()).containsOnlyNulls();
        for (Map<String, Object> row : (List<Map<String, Object>>) o.get("ranked")) {
            if (row.get("bytes") == null) assertThat(row).containsEntry("errorBytes", null);
        }
    }
}
