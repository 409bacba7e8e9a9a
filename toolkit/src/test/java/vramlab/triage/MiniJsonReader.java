package vramlab.triage;

/**
 * A strict JSON recognizer for tests (RFC 8259 grammar, no values built): it says whether a
 * text is exactly one JSON value. Written separately from {@link Json} so that the writer is
 * checked against the grammar, not against itself.
 */
final class MiniJsonReader {
    private final String s;
    private int i;

    private MiniJsonReader(String s) { this.s = s; }

    static boolean isValid(String text) {
        MiniJsonReader r = new MiniJsonReader(text);
        try {
            r.ws();
            r.value();
            r.ws();
            return r.i == text.length();
        } catch (IllegalStateException | StringIndexOutOfBoundsException e) {
            return false;
        }
    }

    private void value() {
        char c = s.charAt(i);
        switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 'n' -> word("null");
            case 't' -> word("true");
            case 'f' -> word("false");
            default -> number();
        }
    }

    private void object() {
        i++;
        ws();
        if (s.charAt(i) == '}') { i++; return; }
        while (true) {
            ws();
            string();
            ws();
            expect(':');
            ws();
            value();
            ws();
            if (s.charAt(i) == ',') { i++; continue; }
            expect('}');
            return;
        }
    }

    private void array() {
        i++;
        ws();
        if (s.charAt(i) == ']') { i++; return; }
        while (true) {
            ws();
            value();
            ws();
            if (s.charAt(i) == ',') { i++; continue; }
            expect(']');
            return;
        }
    }

    private void string() {
        expect('"');
        while (true) {
            char c = s.charAt(i++);
            if (c == '"') return;
            if (c < 0x20) throw new IllegalStateException("raw control character");
            if (c == '\\') {
                char e = s.charAt(i++);
                if (e == 'u') {
                    for (int k = 0; k < 4; k++) {
                        if (Character.digit(s.charAt(i++), 16) < 0) throw new IllegalStateException("bad \\u");
                    }
                } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                    throw new IllegalStateException("bad escape");
                }
            }
        }
    }

    private void number() {
        int start = i;
        if (s.charAt(i) == '-') i++;
        while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
        if (i == start || (s.charAt(start) == '-' && i == start + 1)) throw new IllegalStateException("number");
    }

    private void word(String w) {
        if (!s.startsWith(w, i)) throw new IllegalStateException(w);
        i += w.length();
    }

    private void expect(char c) {
        if (s.charAt(i) != c) throw new IllegalStateException("expected " + c);
        i++;
    }

    private void ws() {
        while (i < s.length() && " \t\n\r".indexOf(s.charAt(i)) >= 0) i++;
    }
}
