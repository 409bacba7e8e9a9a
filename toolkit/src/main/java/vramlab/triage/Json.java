package vramlab.triage;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

/**
 * The JSON of {@code triage --json}, written with Jackson: objects (in the map's order, so the
 * output is stable), arrays, strings, integers, booleans and null. Strings are escaped as
 * RFC 8259 requires (Jackson's escapes: the quote, the backslash and every control character,
 * {@code \b \f \n \r \t} by name, the rest as {@code \}{@code u00xx}); non-ASCII is written as
 * it is (the output is UTF-8), except a lone UTF-16 surrogate, which UTF-8 cannot carry and
 * JSON can escape.
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
            .addModule(new SimpleModule("vramlab-triage").addSerializer(String.class, new Text()))
            .build();

    private Json() {}

    /** A JSON string literal for {@code s}. */
    public static String quote(String s) { return write(s); }

    /**
     * Writes a value: {@code null}, a {@link String}, an {@link Integer} or {@link Long}, a
     * {@link Boolean}, a {@link List} or a {@link Map} with string keys, nested freely. Anything
     * else (a {@code double} above all: byte counts are exact) is refused by its type's name.
     */
    public static String write(Object value) {
        check(value);
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Json.write: " + e.getOriginalMessage(), e);
        }
    }

    private static void check(Object v) {
        if (v == null || v instanceof String || v instanceof Long || v instanceof Integer
                || v instanceof Boolean) {
            return;
        }
        if (v instanceof List<?> list) {
            list.forEach(Json::check);
        } else if (v instanceof Map<?, ?> map) {
            map.forEach((k, x) -> {
                if (!(k instanceof String)) {
                    throw new IllegalArgumentException("Json.write: a key must be a string, not " + k);
                }
                check(x);
            });
        } else {
            throw new IllegalArgumentException("Json.write: cannot write a " + v.getClass().getSimpleName());
        }
    }

    /** Jackson's string writing, with lone surrogates escaped for that one string. */
    private static final class Text extends StdSerializer<String> {
        private static final long serialVersionUID = 1L;

        Text() { super(String.class); }

        @Override
        public void serialize(String s, JsonGenerator g, SerializerProvider p) throws IOException {
            if (!hasLoneSurrogate(s)) {
                g.writeString(s);
                return;
            }
            CharacterEscapes before = g.getCharacterEscapes();
            g.setCharacterEscapes(Surrogates.ESCAPES);
            try {
                g.writeString(s);
            } finally {
                g.setCharacterEscapes(before);
            }
        }

        private static boolean hasLoneSurrogate(String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()
                        && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else if (Character.isSurrogate(c)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** JSON's standard escapes, and every UTF-16 surrogate as {@code \}{@code udxxx}. */
    private static final class Surrogates extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        static final Surrogates ESCAPES = new Surrogates();

        private final int[] ascii = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() { return ascii; }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (!Character.isSurrogate((char) ch)) return null;
            return new SerializedString("\\u" + Integer.toHexString(ch));
        }
    }
}
