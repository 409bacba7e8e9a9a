package vramlab.site;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.kit.TaggedRegions;

/**
 * What a tagged region of a Java file looks like in a listing of the notes or a deck:
 * <ol>
 *   <li>only the lines of the requested tags' regions, as Asciidoctor and a release's notes take
 *       them ({@link TaggedRegions}), without any line holding a {@code tag::x[]} or
 *       {@code end::x[]} directive (of any tag, also when the whole file is shown);</li>
 *   <li>no {@code // lab:begin} or {@code // lab:end} marker; in the student edition a graded
 *       step's body is replaced by one line at its indentation,
 *       {@code // step 3.1 "Round a request": you write this (graded by ...)}, and in the
 *       instructor edition it is shown as the reference has it;</li>
 *   <li>no {@code // lab:shortcut begin} or {@code end} marker: the student edition shows a
 *       reference-only region as {@code labs/} has it (its {@code // labs: } lines, uncommented,
 *       the lab generator's rule), the instructor edition as the reference has it, without its
 *       {@code // labs: } lines;</li>
 *   <li>Javadoc rendered as plain text: {@code {@code x}} and {@code {@literal x}} become
 *       {@code x}, {@code {@link A#b}} becomes {@code A.b} (or its label), HTML tags are
 *       dropped and entities decoded;</li>
 *   <li>dedented: the least indented line starts at column 0 (then {@code indent=N} if asked);
 *       blank lines at either end are dropped.</li>
 * </ol>
 */
public final class JavaListing {
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(code|literal|link|linkplain|value)\\s*");
    private static final Pattern HTML_TAG = Pattern.compile("</?(p|em|i|b|strong|ul|ol|li|pre|code|tt|br|blockquote)\\b[^>]*>");

    private JavaListing() {}

    /**
     * @param source      the Java file's text
     * @param where       the file, for error messages
     * @param tags        the tags to show (their union, in file order); empty shows the whole file
     * @param indent      the indentation to give the dedented listing, or -1 for none
     * @param edition     whose listing this is
     * @param placeholder the line that stands for a step's body, from its id, in the student edition
     */
    public static String render(String source, String where, List<String> tags, int indent, Edition edition,
            Function<String, String> placeholder) {
        List<String> lines = source.lines().toList();
        boolean[] selected = select(lines, where, tags);
        List<String> out = new ArrayList<>();
        String inStep = null;
        boolean placed = false;
        boolean inShortcut = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (GradedSteps.SHORTCUT_BEGIN.matcher(line).matches() || GradedSteps.SHORTCUT_END.matcher(line).matches()) {
                inShortcut = GradedSteps.SHORTCUT_BEGIN.matcher(line).matches();
                continue;
            }
            if (inShortcut) {
                if (!selected[i] || TaggedRegions.isDirective(line)) continue;
                Matcher labs = GradedSteps.LABS_LINE.matcher(line);
                if (edition == Edition.STUDENT && labs.matches()) out.add(labs.group(1) + labs.group(2));
                if (edition == Edition.INSTRUCTOR && !labs.matches()) out.add(line);
                continue;
            }
            Matcher begin = GradedSteps.BEGIN.matcher(line);
            if (begin.matches()) {
                inStep = begin.group(2);
                placed = false;
                if (selected[i] && edition == Edition.STUDENT) {
                    out.add(begin.group(1) + placeholder.apply(inStep));
                    placed = true;
                }
                continue;
            }
            if (GradedSteps.END.matcher(line).matches()) {
                inStep = null;
                continue;
            }
            if (!selected[i] || TaggedRegions.isDirective(line)) continue;
            if (inStep != null && edition == Edition.STUDENT) {
                // A tag that opens inside a step's body still shows only the step's line.
                if (!placed) out.add(indentOf(line) + placeholder.apply(inStep));
                placed = true;
                continue;
            }
            out.add(line);
        }
        return String.join("\n", dedent(renderJavadoc(out), indent));
    }

    /**
     * Which lines the listing shows: those of the requested tags' regions, taken as a release's
     * notes take them ({@link TaggedRegions}: an unknown tag, a region left open or ended out of
     * order is an error naming the file, the tag and the line); every line when none is requested.
     */
    static boolean[] select(List<String> lines, String where, List<String> tags) {
        if (!tags.isEmpty()) return TaggedRegions.select(lines, tags, where);
        boolean[] all = new boolean[lines.size()];
        java.util.Arrays.fill(all, true);
        return all;
    }

    /** Javadoc comments as plain text: inline tags unwrapped, HTML dropped, entities decoded. */
    static List<String> renderJavadoc(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean inDoc = false;
        for (String line : lines) {
            String t = line.trim();
            if (!inDoc && t.startsWith("/**")) inDoc = true;
            if (inDoc) {
                String r = plain(line);
                // A line that held only <p> is now a bare "*": keep one as the paragraph break.
                out.add(r);
                if (t.endsWith("*/")) inDoc = false;
            } else {
                out.add(line);
            }
        }
        return out;
    }

    /** One Javadoc line in plain text. */
    static String plain(String line) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < line.length()) {
            Matcher m = INLINE_TAG.matcher(line);
            if (!m.find(i)) {
                sb.append(line, i, line.length());
                break;
            }
            sb.append(line, i, m.start());
            int close = matchingBrace(line, m.start() + 1);
            if (close < 0) {               // an inline tag that goes on to the next line: leave it
                sb.append(line, m.start(), line.length());
                break;
            }
            String body = line.substring(m.end(), close).trim();
            sb.append(m.group(1).startsWith("link") ? linkText(body) : body);
            i = close + 1;
        }
        String s = HTML_TAG.matcher(sb.toString()).replaceAll("");
        s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&#64;", "@").replace("&nbsp;", " ")
             .replace("&amp;", "&");
        return s.replaceAll("\\s+$", "");
    }

    /** {@code A#b(int) label} -> {@code label}; {@code A#b(int)} -> {@code A.b}; {@code #b} -> {@code b}. */
    static String linkText(String body) {
        int paren = body.indexOf('(');
        int space = body.indexOf(' ', paren < 0 ? 0 : body.indexOf(')', paren) + 1);
        if (space > 0 && space < body.length() - 1) return body.substring(space + 1).trim();
        String ref = paren >= 0 ? body.substring(0, paren) : body;
        if (ref.startsWith("#")) return ref.substring(1);
        return ref.replace('#', '.');
    }

    private static int matchingBrace(String s, int openAt) {
        int depth = 0;
        for (int i = openAt - 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{') depth++;
            if (c == '}' && --depth == 0) return i;
        }
        return -1;
    }

    /** Strips the common indentation, then adds {@code indent} spaces; trims blank ends. */
    static List<String> dedent(List<String> lines, int indent) {
        int from = 0;
        int to = lines.size();
        while (from < to && lines.get(from).isBlank()) from++;
        while (to > from && lines.get(to - 1).isBlank()) to--;
        List<String> body = lines.subList(from, to);
        int min = Integer.MAX_VALUE;
        for (String l : body) if (!l.isBlank()) min = Math.min(min, indentOf(l).length());
        String pad = " ".repeat(Math.max(0, indent));
        List<String> out = new ArrayList<>();
        for (String l : body) out.add(l.isBlank() ? "" : pad + l.substring(Math.min(min, l.length())));
        return out;
    }

    static String indentOf(String line) {
        int i = 0;
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) i++;
        return line.substring(0, i);
    }
}
