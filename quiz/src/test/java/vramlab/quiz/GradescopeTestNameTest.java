package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Gradescope shows each test as "number) name". The quiz rows' names start with their id
 * ("q8.2: The performance index") and a few lab tests' with their step ("3.2 on its own: ...",
 * "6.1: a size rounds up"), so a student read "q8.2) q8.2: The performance index".
 */
class GradescopeTestNameTest {

    @SuppressWarnings("unchecked")
    private static List<String> names(ScoreRow... rows) {
        Map<String, Object> gs = (Map<String, Object>) MiniJson.parse(Reports.gradescopeJson(List.of(rows), "visible", ""));
        return ((List<Map<String, Object>>) (List<?>) gs.get("tests")).stream().map(t -> (String) t.get("name")).toList();
    }

    @Test
    @DisplayName("results.json's test name does not repeat its number; a name that is only the number stays")
    void numberSaidOnce() {
        assertThat(names(
                new ScoreRow("q8.2", "q8.2: The performance index", 2, 0, "FAILED", "q8.2: 0/2: not answered"),
                new ScoreRow("3.2", "3.2 on its own: the smallest free block that fits", 2, 2, "PASSED", ""),
                new ScoreRow("6.1", "6.1: a size rounds up to a power of two", 2, 2, "PASSED", ""),
                new ScoreRow("2.1", "a call pays its fixed cost plus its pages", 2, 2, "PASSED", ""),
                new ScoreRow("3.10", "3.1 is not 3.10", 1, 1, "PASSED", ""),
                new ScoreRow("4.1", "4.1", 1, 1, "PASSED", "")))
                .containsExactly("The performance index", "on its own: the smallest free block that fits",
                        "a size rounds up to a power of two", "a call pays its fixed cost plus its pages",
                        "3.1 is not 3.10", "4.1");
    }
}
