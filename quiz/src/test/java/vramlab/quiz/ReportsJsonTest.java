package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("results.json and the Classroom result, read back by a JSON library")
class ReportsJsonTest {
    static final ObjectMapper READER = new ObjectMapper();

    static ScoreRow failing(String name, String reason) {
        return new ScoreRow("3.2", name, 3, 1, "PARTIAL", reason);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"é 中 \uD83D\uDE00 (emoji)", "a \"quoted\" C:\\path, with a comma",
        "control \u0000 \u0001 \u001f \u007f", "two\nlines\r\nand\ttabs", "\u2028 line separators \u2029",
        "</script> <b>&amp;</b>"})
    @DisplayName("a test name and reason of any text come back exactly, in both reports")
    void text(String s) throws Exception {
        List<ScoreRow> rows = List.of(failing(s, "why: " + s));
        JsonNode gs = READER.readTree(Reports.gradescopeJson(rows, "visible", s));
        assertThat(gs.get("output").asText()).isEqualTo(s);
        assertThat(gs.get("tests").get(0).get("name").asText()).isEqualTo(s);
        assertThat(gs.get("tests").get(0).get("output").asText()).isEqualTo("PARTIAL: why: " + s);
        JsonNode cr = READER.readTree(Reports.classroomJson(rows));
        assertThat(cr.get("tests").get(0).get("message").asText()).isEqualTo("why: " + s);
    }

    @Test
    @DisplayName("scores are integers and the top score is their sum")
    void numbers() throws Exception {
        List<ScoreRow> rows = List.of(failing("a", "x"), new ScoreRow("3.3", "b", 2, 2, "PASSED", ""));
        JsonNode gs = READER.readTree(Reports.gradescopeJson(rows, "hidden", ""));
        assertThat(gs.get("score").isIntegralNumber()).isTrue();
        assertThat(gs.get("score").asInt()).isEqualTo(3);
        assertThat(gs.get("tests").get(1).get("max_score").asInt()).isEqualTo(2);
        JsonNode cr = READER.readTree(Reports.classroomJson(rows));
        assertThat(cr.get("max_score").asInt()).isEqualTo(5);
        assertThat(cr.get("status").asText()).isEqualTo("fail");
    }

    @Test
    @DisplayName("keys come in one fixed order, so two runs on the same rows write the same bytes")
    @SuppressWarnings("unchecked")
    void stable() throws Exception {
        List<ScoreRow> rows = List.of(failing("a", "x"));
        String once = Reports.gradescopeJson(rows, "visible", "o");
        assertThat(Reports.gradescopeJson(rows, "visible", "o")).isEqualTo(once);
        Map<String, Object> top = READER.readValue(once, Map.class);
        assertThat(List.copyOf(top.keySet()))
                .isEqualTo(List.of("score", "output", "visibility", "stdout_visibility", "tests"));
        Map<String, Object> test = ((List<Map<String, Object>>) top.get("tests")).get(0);
        assertThat(List.copyOf(test.keySet()))
                .isEqualTo(List.of("name", "number", "score", "max_score", "status", "output", "visibility"));
    }

    @Test
    @DisplayName("results.json puts each test on a line of its own; the Classroom result is one line")
    void layout() {
        List<ScoreRow> rows = List.of(failing("a", "x\ny"), failing("b", "z"));
        String gs = Reports.gradescopeJson(rows, "visible", "");
        assertThat(gs.lines().filter(l -> l.startsWith("    {\"name\": ")).count()).isEqualTo(2);
        assertThat(gs).startsWith("{\n  \"score\": 2,\n").endsWith("\n  ]\n}\n");
        assertThat(Reports.classroomJson(rows)).doesNotContain("\n").startsWith("{\"version\": 1, ");
    }
}
