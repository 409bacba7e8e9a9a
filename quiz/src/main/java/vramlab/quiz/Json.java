package vramlab.quiz;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The reports' JSON ({@code results.json}, the Classroom result), written with Jackson: maps in
 * their own order (the reports build {@code LinkedHashMap}s, so the output is stable), strings
 * escaped by Jackson as RFC 8259 requires, integers exact.
 */
final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    /**
     * {@code value} as JSON, {@code "key": value} throughout; the objects and arrays nested less
     * than {@code lineLevels} deep put each entry on a line of its own, two spaces an indent,
     * and deeper ones are written on one line with {@code ", "} between entries.
     */
    static String write(Object value, int lineLevels) {
        try {
            return MAPPER.writer(new Layout(lineLevels)).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads {@code json} as a {@code type} (records included). */
    static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Jackson's hook for where whitespace goes; one instance per document (it counts depth). */
    private static final class Layout implements PrettyPrinter {
        private final int lineLevels;
        private int depth;

        Layout(int lineLevels) { this.lineLevels = lineLevels; }

        private boolean broken() { return depth <= lineLevels; }

        private void newline(JsonGenerator g, int indent) throws IOException {
            g.writeRaw('\n');
            for (int i = 0; i < indent; i++) g.writeRaw("  ");
        }

        private void open(JsonGenerator g, char c) throws IOException {
            g.writeRaw(c);
            depth++;
        }

        private void close(JsonGenerator g, char c, int entries) throws IOException {
            boolean wasBroken = broken();
            depth--;
            if (wasBroken && entries > 0) newline(g, depth);
            g.writeRaw(c);
        }

        private void first(JsonGenerator g) throws IOException {
            if (broken()) newline(g, depth);
        }

        private void next(JsonGenerator g) throws IOException {
            g.writeRaw(',');
            if (broken()) newline(g, depth);
            else g.writeRaw(' ');
        }

        @Override public void writeRootValueSeparator(JsonGenerator g) {}
        @Override public void writeStartObject(JsonGenerator g) throws IOException { open(g, '{'); }
        @Override public void beforeObjectEntries(JsonGenerator g) throws IOException { first(g); }
        @Override public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }
        @Override public void writeObjectEntrySeparator(JsonGenerator g) throws IOException { next(g); }
        @Override public void writeEndObject(JsonGenerator g, int n) throws IOException { close(g, '}', n); }
        @Override public void writeStartArray(JsonGenerator g) throws IOException { open(g, '['); }
        @Override public void beforeArrayValues(JsonGenerator g) throws IOException { first(g); }
        @Override public void writeArrayValueSeparator(JsonGenerator g) throws IOException { next(g); }
        @Override public void writeEndArray(JsonGenerator g, int n) throws IOException { close(g, ']', n); }
    }
}
