package vramlab.playground;

import java.util.List;

/** The little JSON the page reads: objects of strings, numbers and lists of strings. */
final class JsonText {
    private final StringBuilder sb = new StringBuilder("{");

    JsonText put(String key, String value) {
        return key(key).string(value);
    }

    JsonText put(String key, long value) {
        key(key).sb.append(value);
        return this;
    }

    JsonText put(String key, List<String> values) {
        key(key).sb.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) sb.append(',');
            string(values.get(i));
        }
        sb.append(']');
        return this;
    }

    private JsonText key(String key) {
        if (sb.length() > 1) sb.append(',');
        string(key).sb.append(':');
        return this;
    }

    private JsonText string(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
        return this;
    }

    /** {@code s} as one JSON string, quotes included. */
    static String quoted(String s) {
        JsonText t = new JsonText().string(s);
        return t.sb.substring(1);
    }

    @Override
    public String toString() { return sb + "}"; }
}
