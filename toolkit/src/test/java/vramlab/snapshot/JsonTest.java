package vramlab.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.trace.TraceException;

@DisplayName("snapshot JSON is read exactly, and bad JSON is pointed at")
class JsonTest {
    static Object read(String json) {
        return Json.read(json.getBytes(StandardCharsets.UTF_8), "snap.json");
    }

    @Nested
    @DisplayName("numbers")
    class Numbers {
        @ParameterizedTest(name = "{0}")
        @CsvSource({
            "9007199254740993",       // 2^53 + 1: a double would read 2^53
            "9007199254740995",
            "140737488355327",        // the top of a 47-bit user address space
            "9223372036854775807",    // Long.MAX_VALUE
            "-9223372036854775808",
            "0"})
        @DisplayName("an integer up to 64 bits keeps every digit (an Integer or Long by size, as from the pickle)")
        void longs(String digits) {
            Object n = ((List<?>) read("[" + digits + "]")).get(0);
            assertThat(n).isInstanceOfAny(Integer.class, Long.class);
            assertThat(((Number) n).longValue()).isEqualTo(Long.parseLong(digits));
        }

        @Test
        @DisplayName("past 2^63 (a device address with the top bit set) it is a BigInteger, as from the pickle")
        void beyondLong() {
            String top = "18446744073709551615";
            assertThat(read("[" + top + "]")).isEqualTo(List.of(new BigInteger(top)));
        }

        @Test
        @DisplayName("fractions and exponents are doubles; integers are never doubles")
        void fractions() {
            assertThat(read("[0.8, 1e3, 7, 4294967296]")).isEqualTo(List.of(0.8, 1000.0, 7, 4294967296L));
        }

        @Test
        @DisplayName("NaN and Infinity, as Python's json.dump writes them, are read")
        void python() {
            assertThat(read("[NaN, Infinity, -Infinity]"))
                    .isEqualTo(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        }
    }

    @Nested
    @DisplayName("strings and objects")
    class Strings {
        @Test
        @DisplayName("escapes are decoded: quote, backslash, slash, controls and \\u, a surrogate pair to one character")
        void escapes() {
            String json = "[\"a\\\"b\\\\c\\/d\\n\\t\\b\\f\\r\\u00e9\\u4e2d\\ud83d\\ude00\\u0001\"]";
            assertThat(read(json)).isEqualTo(List.of("a\"b\\c/d\n\t\b\f\ré中\uD83D\uDE00\u0001"));
        }

        @Test
        @DisplayName("UTF-8 text is read as it is, outside the Basic Multilingual Plane too")
        void utf8() {
            assertThat(read("{\"frame\": \"Schrödinger 中 \uD83D\uDE00\"}"))
                    .isEqualTo(Map.of("frame", "Schrödinger 中 \uD83D\uDE00"));
        }

        @Test
        @DisplayName("keys keep the file's order")
        void order() {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) read("{\"z\": 1, \"a\": 2, \"m\": {\"y\": 3, \"b\": 4}}");
            assertThat(m.keySet()).containsExactly("z", "a", "m");
            assertThat(((Map<String, Object>) m.get("m")).keySet()).containsExactly("y", "b");
        }
    }

    @Nested
    @DisplayName("bad JSON")
    class Bad {
        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', value = {
            "{\"segments\": [}                    | 1",
            "{\"a\": 1,\\n \"b\": tru}            | 2",
            "{\"a\": 1}\\n\\n  x                  | 3",
            "[1, 2                                | 1"})
        @DisplayName("is a TraceException at FILE:LINE:COLUMN, with Jackson's words for what is wrong")
        void located(String json, long line) {
            String text = json.strip().replace("\\n", "\n");
            assertThatThrownBy(() -> read(text))
                    .isInstanceOf(TraceException.class)
                    .hasMessageStartingWith("snap.json:" + line + ":")
                    .hasMessageContaining("bad JSON: ")
                    .satisfies(e -> assertThat(((TraceException) e).line()).isEqualTo(line));
        }

        @Test
        @DisplayName("the column is the character the parser stopped at, counted from 1")
        void column() {
            // line 2 is '  "a": [1, 2,, 3]': the second comma is its 14th character
            assertThatThrownBy(() -> read("{\n  \"a\": [1, 2,, 3]\n}"))
                    .hasMessageStartingWith("snap.json:2:14: bad JSON: Unexpected character (',' ");
        }

        @Test
        @DisplayName("a file cut short inside a bracket names where the bracket opened, in words, not Jackson's"
                + " [Source: REDACTED (`StreamReadFeature...` disabled); ...]")
        void cutShort() {
            assertThatThrownBy(() -> read("{\"segments\": [{\"total_size\": 2"))
                    .hasMessageStartingWith("snap.json:1:")
                    .hasMessageContaining("expected close marker for Object (start marker at line 1, column 15)")
                    .hasMessageNotContaining("Source").hasMessageNotContaining("REDACTED")
                    .hasMessageNotContaining("StreamReadFeature");
        }

        @Test
        @DisplayName("SnapshotReader passes the place on unchanged")
        void throughTheReader() {
            byte[] bytes = "{\"device_traces\": [[]],\n \"segments\": [,]}".getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> SnapshotReader.load(bytes, "x.json"))
                    .isInstanceOf(TraceException.class)
                    .hasMessageStartingWith("x.json:2:");
        }
    }
}
