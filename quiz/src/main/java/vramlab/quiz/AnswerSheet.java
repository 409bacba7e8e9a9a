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
    private final String where;
    private final Map<String, String> values;

    private AnswerSheet(String where, Map<String, String> values) {
        this.where = where;
        this.values = values;
    }

    /** An empty sheet: every blank unanswered. */
    public static AnswerSheet empty(String where) { return new AnswerSheet(where, Map.of()); }

    public static AnswerSheet read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /**
     * Reads a sheet's text; a line that is neither blank, a comment nor {@code key = value} is
     * an error naming the line.
     */
    public static AnswerSheet parse(String text, String where) {
        Map<String, String> values = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(where + ":" + (i + 1) + ": expected 'key = answer', found '"
                        + (line.length() > 60 ? line.substring(0, 60) + "..." : line) + "'");
            }
            values.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        return new AnswerSheet(where, values);
    }

    public String where() { return where; }

    /** The answer for {@code key}, or null when it is missing or blank. */
    public String get(String key) {
        String v = values.get(key);
        return v == null || v.isBlank() ? null : v;
    }

    /** The sheet a student fills in: the header, then each question's prompt and blanks. */
    public static String template(String chapter, Variant v, List<Question> questions) {
        return write(chapter, v, questions, false);
    }

    /** The same sheet with every blank filled from the key: the instructor's answer key. */
    public static String key(String chapter, Variant v, List<Question> questions) {
        return write(chapter, v, questions, true);
    }

    private static String write(String chapter, Variant v, List<Question> questions, boolean filled) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Quiz answer sheet. Write each answer after its '='; keep the keys as they are.\n");
        sb.append("# Check your answers without seeing the key: ./vramlab quiz ").append(chapter)
          .append(" --student <id> --check <this file>\n");
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
