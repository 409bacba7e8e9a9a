package vramlab.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds every place a page would load something from the network: a script, stylesheet,
 * font, image, frame or media source whose address is {@code http:}, {@code https:} or
 * protocol-relative ({@code //host}). Plain hyperlinks ({@code <a href>}) are fine: a reader
 * may follow them, the page does not load them. SVG namespaces are names, not requests.
 */
public final class OfflineCheck {
    private static final String REMOTE = "\\s*[\"']?\\s*(?:https?:)?//";
    private static final List<Pattern> RESOURCES = List.of(
            Pattern.compile("<(?:script|img|iframe|frame|audio|video|source|track|embed|input)\\b[^>]*?\\bsrc="
                    + REMOTE, Pattern.CASE_INSENSITIVE),
            Pattern.compile("<link\\b[^>]*?\\bhref=" + REMOTE, Pattern.CASE_INSENSITIVE),
            Pattern.compile("<object\\b[^>]*?\\bdata=" + REMOTE, Pattern.CASE_INSENSITIVE),
            Pattern.compile("<image\\b[^>]*?\\b(?:xlink:)?href=" + REMOTE, Pattern.CASE_INSENSITIVE),
            Pattern.compile("<use\\b[^>]*?\\b(?:xlink:)?href=" + REMOTE, Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\bsrcset=\"[^\"]*(?:https?:)?//", Pattern.CASE_INSENSITIVE),
            Pattern.compile("url\\(" + REMOTE, Pattern.CASE_INSENSITIVE),
            Pattern.compile("@import\\s+(?:url\\()?" + REMOTE, Pattern.CASE_INSENSITIVE));

    /** One remote load: where, and the text around it. */
    public record Finding(Path file, int line, String excerpt) {
        @Override public String toString() { return file + ":" + line + ": loads from the network: " + excerpt; }
    }

    private OfflineCheck() {}

    /** Every remote load in one page's or stylesheet's text. */
    public static List<Finding> scan(Path file, String original) {
        List<Finding> out = new ArrayList<>();
        String text = blankComments(original);
        for (Pattern p : RESOURCES) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                int line = 1;
                for (int i = 0; i < m.start(); i++) if (text.charAt(i) == '\n') line++;
                int end = Math.min(text.length(), m.end() + 60);
                out.add(new Finding(file, line, text.substring(m.start(), end).replaceAll("\\s+", " ")));
            }
        }
        return out;
    }

    /**
     * Comments load nothing (Asciidoctor's stylesheet keeps a commented-out Google Fonts
     * import): blank them, keeping line breaks so line numbers still point at the source.
     */
    static String blankComments(String text) {
        StringBuilder sb = new StringBuilder(text);
        blank(sb, "/*", "*/");
        blank(sb, "<!--", "-->");
        return sb.toString();
    }

    private static void blank(StringBuilder sb, String open, String close) {
        int from = 0;
        while ((from = sb.indexOf(open, from)) >= 0) {
            int end = sb.indexOf(close, from + open.length());
            end = end < 0 ? sb.length() : end + close.length();
            for (int i = from; i < end; i++) if (sb.charAt(i) != '\n') sb.setCharAt(i, ' ');
            from = end;
        }
    }

    /** Every {@code .html}, {@code .css} and {@code .svg} file under {@code dir}. */
    public static List<Finding> scanTree(Path dir) {
        List<Finding> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)
                    .filter(OfflineCheck::isChecked).sorted()::iterator) {
                out.addAll(scan(f, Files.readString(f)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static boolean isChecked(Path f) {
        String n = f.getFileName().toString();
        return n.endsWith(".html") || n.endsWith(".css") || n.endsWith(".svg");
    }
}
