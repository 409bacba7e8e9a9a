package vramlab.quiz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A student's answers to one chapter's quiz: a text file of {@code key = value} lines, with
 * {@code #} comments. Three header keys say whose it is: {@code chapter}, {@code student} and
 * {@code variant} (the fingerprint of the numbers it was written for). A blank value is an
 * unanswered blank. {@link #template} writes the sheet a student fills in.
 *
 * <pre>
 * chapter = ch03
 * student = alice
 * variant = 3f9a0c11
 * # q3.1 (a) The block size of a 300000 B request, and its pool.
 * q3.1.a.size = 300032
 * q3.1.a.pool = SMALL
 * </pre>
 */
public final class AnswerSheet {
    /** The header keys that say whose sheet it is. */
    public static final List<String> HEADER = List.of("chapter", "student", "variant");

    private final String where;
    private final Map<String, String> values;
    private final Map<String, Integer> lines;

    private AnswerSheet(String where, Map<String, String> values, Map<String, Integer> lines) {
        this.where = where;
        this.values = values;
        this.lines = lines;
    }

    /** An empty sheet: every blank unanswered. */
    public static AnswerSheet empty(String where) { return new AnswerSheet(where, Map.of(), Map.of()); }

    /** The largest sheet read: 1 MiB (a filled sheet is some 10 KB). */
    public static final int MAX_BYTES = 1 << 20;

    /**
     * Reads a sheet file: at most {@link #MAX_BYTES}, UTF-8. A longer file, or bytes that are
     * not UTF-8, are an {@link IllegalArgumentException} naming the file and the line and byte.
     */
    public static AnswerSheet read(Path file) throws IOException {
        byte[] bytes;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException(file + ": larger than 1 MiB (" + MAX_BYTES + " bytes); an answer"
                    + " sheet is a text file of some 10 KB");
        }
        return parse(utf8(bytes, file.toString()), file.toString());
    }

    /** {@code bytes} as UTF-8 text, or an error at the first byte that is not. */
    private static String utf8(byte[] bytes, String where) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
        java.nio.charset.CoderResult r = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .decode(in, out, true);
        if (r.isError()) {
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at; i++) if (bytes[i] == '\n') line++;
            throw new IllegalArgumentException(where + ":" + line + ": byte " + at + " (0x"
                    + Integer.toHexString(bytes[at] & 0xff) + ") is not UTF-8 text; save the sheet as UTF-8");
        }
        return out.flip().toString();
    }

    /**
     * Reads a sheet's text; a line that is neither blank, a comment nor {@code key = value} is
     * an error naming the line.
     */
    public static AnswerSheet parse(String text, String where) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, Integer> at = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(where + ":" + (i + 1) + ": expected 'key = answer', found '"
                        + (line.length() > 60 ? line.substring(0, 60) + "..." : line) + "'");
            }
            String key = line.substring(0, eq).strip();
            values.put(key, line.substring(eq + 1).strip());
            at.put(key, i + 1);
        }
        return new AnswerSheet(where, values, at);
    }

    public String where() { return where; }

    /** The answer for {@code key}, or null when it is missing or blank. */
    public String get(String key) {
        String v = values.get(key);
        return v == null || v.isBlank() ? null : v;
    }

    /** Every key the sheet writes, header keys included, in the order of the file. */
    public List<String> keys() { return List.copyOf(values.keySet()); }

    /**
     * What the header says against whose sheet this is meant to be: {@code chapter} and the
     * variant {@code v} (its student and fingerprint). Empty when they agree. A sheet written for
     * another student (a copy), for other numbers (a practice sheet, or another salt) or with its
     * header removed is reported; it is still marked on {@code v}, so a copy earns only what is
     * right for {@code v} too.
     */
    public List<String> headerProblems(String chapter, Variant v) {
        List<String> out = new java.util.ArrayList<>();
        String ch = get("chapter"), student = get("student"), variant = get("variant");
        String expected = v.isSeed() ? null : v.student();
        if (ch != null && !ch.equals(chapter)) out.add(where + " says chapter = " + ch + ", not " + chapter);
        if (!values.containsKey("student") && !values.containsKey("variant")) {
            out.add(where + " has no student or variant line (its header was removed?)");
        } else if (student == null && expected != null) {
            out.add(where + " is a sheet for the practice numbers (no student line), not for '" + v.student() + "'");
        } else if (!java.util.Objects.equals(student, expected)) {
            out.add(where + " was written for student '" + student + "', not '" + v.student() + "' (a copied sheet?)");
        } else if (variant != null && !variant.equals(v.fingerprint())) {
            out.add(where + " was written for variant " + variant + ", not " + v.fingerprint() + " of student '"
                    + v.student() + "' (a practice sheet, or one printed with another salt?)");
        }
        return out;
    }

    /** True when some blank (a key outside the header) has an answer. */
    public boolean answered() {
        return values.entrySet().stream().anyMatch(e -> !HEADER.contains(e.getKey()) && !e.getValue().isBlank());
    }

    /** The line of the file that writes {@code key}; 0 when it does not. */
    public int lineOf(String key) { return lines.getOrDefault(key, 0); }

    /**
     * The keys that are neither a header key nor any blank of {@code questions} for {@code v}
     * (a misspelt key is an answer nobody marks), each as {@code where:line: unknown key K}, with
     * the nearest real key when one is close.
     */
    public List<String> unknownKeys(List<Question> questions, Variant v) {
        java.util.Set<String> known = new java.util.LinkedHashSet<>(HEADER);
        for (Question q : questions) for (Part p : q.parts(v)) for (Blank b : p.blanks()) known.add(b.key());
        List<String> out = new java.util.ArrayList<>();
        for (String k : values.keySet()) {
            if (known.contains(k)) continue;
            String near = nearest(k, known);
            out.add(where + ":" + lineOf(k) + ": unknown key '" + k + "'"
                    + (near == null ? " (no blank has this key)" : " (did you mean " + near + "?)"));
        }
        return out;
    }

    /** The known key at edit distance at most 2 from {@code k}, or null. */
    static String nearest(String k, java.util.Collection<String> known) {
        String best = null;
        int bestD = 3;
        String lower = k.toLowerCase(java.util.Locale.ROOT);
        for (String c : known) {
            String other = c.toLowerCase(java.util.Locale.ROOT);
            // the distance is at least the difference in length: a long key costs no table
            if (Math.abs(lower.length() - other.length()) >= bestD) continue;
            int d = distance(lower, other);
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** The sheet a student fills in: the header, then each question's prompt and blanks. */
    public static String template(String chapter, Variant v, List<Question> questions) {
        return write(chapter, v, questions, false, false);
    }

    /**
     * The sheet a student fills in; {@code graded}: its numbers come from an instructor's salt, so
     * its header says that only the instructor can mark it.
     */
    public static String template(String chapter, Variant v, List<Question> questions, boolean graded) {
        return write(chapter, v, questions, false, graded);
    }

    /** The same sheet with every blank filled from the key: the instructor's answer key. */
    public static String key(String chapter, Variant v, List<Question> questions) {
        return write(chapter, v, questions, true, true);
    }

    private static String write(String chapter, Variant v, List<Question> questions, boolean filled, boolean graded) {
        StringBuilder sb = new StringBuilder();
        if (filled) {
            sb.append("# Quiz answer key: every blank filled in from the reference. For the instructor; never hand it out.\n");
        } else {
            sb.append("# Quiz answer sheet. Write each answer after its '='; keep the keys as they are.\n");
        }
        if (filled) {
            sb.append(v.isSeed() ? "# The practice numbers' key.\n" : "# This student's numbers (your salt).\n");
        } else if (graded) {
            sb.append("# Its numbers are the course's own (your instructor's salt): only your instructor can mark it.\n");
        } else {
            sb.append("# Check your answers without seeing the key: ./vramlab quiz ").append(chapter)
              .append(" --check <this file>\n");
        }
        sb.append("chapter = ").append(chapter).append('\n');
        sb.append("student = ").append(v.isSeed() ? "" : v.student()).append('\n');
        sb.append("variant = ").append(v.fingerprint()).append('\n');
        for (Question q : questions) {
            sb.append("\n# ").append(q.id()).append(' ').append(q.title()).append('\n');
            for (String line : q.prompt(v).strip().split("\n")) sb.append("#   ").append(line).append('\n');
            for (Part p : q.parts(v)) {
                for (Blank b : p.blanks()) {
                    sb.append("# ").append(b.key()).append(": ").append(b.form()).append('\n');
                    sb.append(b.key()).append(" = ").append(filled ? b.solution() : "").append('\n');
                }
            }
        }
        return sb.toString();
    }
}
