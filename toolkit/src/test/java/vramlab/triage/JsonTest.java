package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Json writes what RFC 8259 allows")
class JsonTest {
    @ParameterizedTest(name = "code point {0}")
    @CsvSource({"0, \\u0000", "8, \\b", "9, \\t", "10, \\n", "12, \\f", "13, \\r", "27, \\u001b", "31, \\u001f"})
    @DisplayName("control characters are escaped, by name where JSON has one")
    void controls(int c, String escaped) {
        assertThat(Json.quote(String.valueOf((char) c))).isEqualTo("\"" + escaped + "\"");
    }

    @Test
    @DisplayName("quotes and backslashes are escaped; non-ASCII and the slash are kept")
    void quotes() {
        assertThat(Json.quote("say \"hi\" C:\\x a/b é 中")).isEqualTo("\"say \\\"hi\\\" C:\\\\x a/b é 中\"");
    }

    @Test
    @DisplayName("objects keep their order; null, longs and lists are written as JSON")
    void nested() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("b", 1L);
        m.put("a", null);
        m.put("l", Arrays.asList("x", 2L, null, List.of()));
        assertThat(Json.write(m)).isEqualTo("{\"b\":1,\"a\":null,\"l\":[\"x\",2,null,[]]}");
    }

    @Test
    @DisplayName("a value JSON cannot hold is refused by name")
    void refuses() {
        assertThatThrownBy(() -> Json.write(3.5)).hasMessageContaining("Double");
    }

    @Test
    @DisplayName("a triage of a message full of quotes and control characters is one valid object")
    void triageJson() {
        String nasty = "CUDA out of memory. Tried to allocate 2.00 MiB.\u0001 \"quoted\" \\ back\tslash";
        String json = Triage.of(nasty).json();
        assertThat(json).startsWith("{\"cause\":\"").endsWith("}").doesNotContain("\u0001").doesNotContain("\t");
        assertThat(MiniJsonReader.isValid(json)).as(json).isTrue();
    }

    @Test
    @DisplayName("a lone surrogate is escaped; a pair is kept as one character")
    void surrogates() {
        assertThat(Json.quote("a\uD83Db")).isEqualTo("\"a\\ud83db\"");
        assertThat(Json.quote("\uDE00")).isEqualTo("\"\\ude00\"");
        assertThat(Json.quote("\uD83D\uDE00")).isEqualTo("\"\uD83D\uDE00\"");
    }
}
