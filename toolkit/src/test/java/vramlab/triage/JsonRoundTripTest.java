package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("what triage --json writes, a JSON reader reads back unchanged")
class JsonRoundTripTest {
    static final ObjectMapper READER = new ObjectMapper().enable(DeserializationFeature.USE_LONG_FOR_INTS);

    static Object back(String json) throws Exception { return READER.readValue(json, Object.class); }

    @ParameterizedTest(name = "{0}")
    @ValueSource(longs = {9007199254740993L, 9007199254740995L, 85899345920L * 1024 + 1,
        Long.MAX_VALUE, Long.MIN_VALUE, -1})
    @DisplayName("a byte count past 2^53 keeps every digit")
    void exact(long bytes) throws Exception {
        String json = Json.write(Map.of("bytes", bytes));
        assertThat(json).isEqualTo("{\"bytes\":" + bytes + "}");
        assertThat(back(json)).isEqualTo(Map.of("bytes", bytes));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"é 中 \uD83D\uDE00", "tab\tnew\nline\r\u0000\u001f\u007f", "\"\\/",
        "\u2028 \u2029", "a\uD83D\uDE00\uDE00b"})
    @DisplayName("any text, Unicode and controls included, comes back as it went in")
    void text(String s) throws Exception {
        assertThat(back(Json.quote(s))).isEqualTo(s);
    }

    @Test
    @DisplayName("a lone surrogate is written as a valid escape, so the document still parses")
    void lone() throws Exception {
        String json = Json.write(List.of("x\uD83D", "ok"));
        assertThat(json).isEqualTo("[\"x\\ud83d\",\"ok\"]");
        assertThat(back(json)).isEqualTo(List.of("x\uD83D", "ok"));
    }

    @Test
    @DisplayName("nested maps keep their insertion order, so the same triage writes the same bytes")
    void order() throws Exception {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("z", true);
        inner.put("a", Arrays.asList(1, null, "s"));
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("y", inner);
        outer.put("b", 2L);
        String json = Json.write(outer);
        assertThat(json).isEqualTo("{\"y\":{\"z\":true,\"a\":[1,null,\"s\"]},\"b\":2}");
        assertThat(List.copyOf(((Map<?, ?>) back(json)).keySet())).isEqualTo(List.of("y", "b"));
    }

    @Test
    @DisplayName("a real triage's JSON is one object that reads back with every field")
    void triage() throws Exception {
        String msg = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                + "total capacity of 79.15 GiB of which 1.50 GiB is free. Of the allocated memory 70.00 GiB "
                + "is allocated by PyTorch, and 5.00 GiB is reserved by PyTorch but unallocated.";
        Map<?, ?> m = (Map<?, ?>) back(Triage.of(msg).json());
        assertThat(m.keySet()).isNotEmpty();
        assertThat(m.get("cause")).isInstanceOf(String.class);
        assertThat(m.get("ranked")).isInstanceOf(List.class);
    }
}
