package vramlab.triage;

import java.util.List;
import java.util.Map;

/**
 * Just enough JSON writing for {@code triage --json}: objects, arrays, strings, longs and null.
 * Strings are escaped as RFC 8259 requires: the quote, the backslash and every control
 * character below U+0020; {@code \b \f \n \r \t} by name, the rest as {@code \}{@code u00XX}.
 * A lone UTF-16 surrogate is escaped the same way, since UTF-8 cannot carry it. Everything
 * else, non-ASCII included, is written as it is (the output is UTF-8).
 */
public final class Json {
    private Json() {}

    /** A JSON string literal for {@code s}. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || isLoneSurrogate(s, i)) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }

    /** A UTF-16 half with no partner cannot be written as UTF-8; JSON can escape it. */
    private static boolean isLoneSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
    }

    /**
     * Writes a value: {@code null}, a {@link String}, a {@link Number} (integral), a
     * {@link Boolean}, a {@link List} or a {@link Map} with string keys, nested freely.
     */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb);
        return sb.toString();
    }

    private static void write(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            sb.append(quote(s));
        } else if (v instanceof Long || v instanceof Integer || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) sb.append(',');
                write(list.get(i), sb);
            }
            sb.append(']');
        } else if (v instanceof Map<?, ?> map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) sb.append(',');
                first = false;
                sb.append(quote(String.valueOf(e.getKey()))).append(':');
                write(e.getValue(), sb);
            }
            sb.append('}');
        } else {
            throw new IllegalArgumentException("Json.write: cannot write a "
                    + v.getClass().getSimpleName());
        }
    }
}
