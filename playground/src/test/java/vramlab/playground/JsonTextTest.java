package vramlab.playground;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The page's messages are written by {@link JsonText}, by hand, because the browser bundle cannot
 * carry Jackson (its databind needs reflection that TeaVM does not give); so what JsonText writes
 * is read back here by Jackson, the kit's JSON library, with every character that needs escaping.
 */
class JsonTextTest {
    static final String NASTY = "a \"quoted\" \\path\\\nnext\tline\r\u0001\u001f end, é ✓ \uD83D\uDE00";

    @Test
    @DisplayName("Jackson reads back what JsonText writes: strings with quotes, backslashes, controls and Unicode, numbers, lists")
    void readBack() throws Exception {
        String json = new JsonText().put("s", NASTY).put("n", Long.MIN_VALUE).put("big", Long.MAX_VALUE)
                .put("list", List.of(NASTY, "", "x")).put("empty", List.of()).toString();
        Map<String, Object> m = new ObjectMapper().readValue(json, new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {});
        assertThat(m.get("s")).isEqualTo(NASTY);
        assertThat(((Number) m.get("n")).longValue()).isEqualTo(Long.MIN_VALUE);
        assertThat(((Number) m.get("big")).longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(m.get("list")).isEqualTo(List.of(NASTY, "", "x"));
        assertThat(m.get("empty")).isEqualTo(List.of());
        assertThat(m.keySet()).containsExactly("s", "n", "big", "list", "empty");
    }
}
