package vramlab.snapshot;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import vramlab.trace.TraceException;

/**
 * Snapshots saved as JSON (the same dict as the pickle), read with Jackson: objects become
 * {@code Map} (keys in file order), arrays {@code List}, integers {@code Integer}, {@code Long}
 * or {@code BigInteger} by size, as the pickle reader gives them (exact, never a {@code double}:
 * 2^53 + 1 stays odd; past 2^63 a device address keeps its bits), other numbers {@code Double}. Python's {@code json.dump} writes
 * {@code NaN} and {@code Infinity} for such floats, so those are read too. Bad JSON is a
 * {@link TraceException} at the file, line and column Jackson stopped at.
 */
final class Json {
    /**
     * Nesting at most {@link Shape#MAX_DEPTH} deep and a document of at most
     * {@link SnapshotInput#MAX_INPUT} bytes; strings and numbers keep Jackson's own caps (20 M
     * characters, 1000 digits), so no declared or runaway size is ever allocated.
     */
    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(Shape.MAX_DEPTH)
            .maxDocumentLength(SnapshotInput.MAX_INPUT)
            .build();

    private static final ObjectMapper MAPPER = JsonMapper.builder(
                    JsonFactory.builder().streamReadConstraints(LIMITS).build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private Json() {}

    /** The value of a JSON text; bad JSON is an {@link IllegalArgumentException} with its place. */
    static Object parse(String text) {
        try {
            return MAPPER.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where(e) + ": " + e.getOriginalMessage(), e);
        }
    }

    /** The value of the JSON file {@code file} holding {@code bytes} (UTF-8, -16 or -32). */
    static Object read(byte[] bytes, String file) {
        JsonParser parser = null;
        try {
            parser = MAPPER.createParser(bytes);
            return MAPPER.readValue(parser, Object.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            if ((at == null || at.getLineNr() <= 0) && parser != null) {
                at = parser.currentLocation();     // a limit exceeded carries no place of its own
            }
            long line = at == null ? 0 : Math.max(at.getLineNr(), 0);
            long column = at == null ? 0 : Math.max(at.getColumnNr(), 0);
            throw new TraceException(file, line, column, "bad JSON: " + plain(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new TraceException(file, 0, "bad JSON: " + e.getMessage());
        } finally {
            if (parser != null) {
                try {
                    parser.close();
                } catch (IOException ignored) {
                    // a parser over bytes in memory has nothing to release
                }
            }
        }
    }

    /** A place in a JSON text: line and column, both from 1, as Jackson counts them. */
    record Place(long line, long column) {}

    /**
     * The line and column (from 1) where the value at {@code pointer} (a JSON Pointer, RFC 6901:
     * {@code /segments/3/blocks/2}) starts in {@code bytes}, or null when there is no such value.
     * Containers off the path are skipped unread, so it costs one pass over the text at most.
     */
    static Place locate(byte[] bytes, String pointer) {
        try (JsonParser p = MAPPER.createParser(bytes)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.FIELD_NAME || t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) continue;
                boolean container = t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY;
                JsonStreamContext here = container ? p.getParsingContext().getParent() : p.getParsingContext();
                String at = here == null ? "" : here.pathAsPointer().toString();
                if (at.equals(pointer)) {
                    JsonLocation l = p.currentTokenLocation();
                    return new Place(l.getLineNr(), l.getColumnNr());
                }
                if (container && !pointer.startsWith(at + "/")) p.skipChildren();
            }
        } catch (IOException e) {
            return null;      // the text was parsed whole before: only a limit could stop it here
        }
        return null;
    }

    /**
     * Jackson's message without the name of the Java setting behind a limit, and with a place it
     * names inside the message (an unclosed bracket's "start marker at [Source: REDACTED
     * (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 14]") said as
     * "line 1, column 14": the Java setting meant nothing to the person whose file was cut short.
     */
    static String plain(String message) {
        if (message == null) return "(no message)";
        return message.replaceAll("\\[Source: [^\\]]*; line: (\\d+), column: (\\d+)\\]", "line $1, column $2")
                .replaceAll(",? from `[^`]*`", "");
    }

    private static String where(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return at == null ? "JSON" : "JSON at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }
}
