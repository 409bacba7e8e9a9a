package vramlab.site;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The notes' and decks' AsciiDoc as the site hands it to Asciidoctor, after two rewrites that
 * keep the text honest:
 * <ul>
 *   <li><b>Code spans are literal.</b> {@code `requested <= allocated`} would become
 *       {@code requested ⇐ allocated}, {@code `__free_one_page()`} would lose its underscores to
 *       italics, and an apostrophe in {@code `can't`} would turn curly. Each {@code `x`} outside
 *       listings becomes {@code `+x+`}, Asciidoctor's literal monospace, so the reader sees the
 *       characters of the source.</li>
 *   <li><b>Citations link to the source at a commit.</b> {@code src:cca[746-754,get_free_block]}
 *       becomes a link to the file on GitHub at the commit {@code site/src/site/sources.tsv}
 *       gives for {@code cca}, with the lines highlighted, reading "{@code get_free_block} in
 *       {@code c10/cuda/CUDACachingAllocator.cpp}, lines 746-754 (pytorch/pytorch@001074d)".</li>
 * </ul>
 * Lines inside listing, literal, passthrough and comment blocks, attribute entries, block
 * attribute lines and directives are left alone.
 */
public final class NotesSource {
    /** A constrained code span as Asciidoctor finds one; not one already literal ({@code `+x+`}). */
    private static final Pattern CODE = Pattern.compile("(?<![\\w;:\"'`}\\\\])`(?![+`])(\\S|\\S[^`]*?\\S)`(?![\\w\"'`])");
    /** {@code src:key[lines,function]}: both parts optional, in that order. */
    static final Pattern SRC = Pattern.compile("\\bsrc:([a-z0-9-]+)\\[([^\\]]*)]");
    private static final Pattern DELIMITER = Pattern.compile("-{4,}|\\.{4,}|\\+{4,}|/{4,}");

    /** One cited file: its repository, the commit it was read at, and its path. */
    public record Source(String key, String repo, String commit, String path) {
        public String url(String lines) {
            String anchor = "";
            if (lines != null && !lines.isBlank()) {
                String[] p = lines.split("-");
                anchor = "#L" + p[0].trim() + (p.length > 1 ? "-L" + p[1].trim() : "");
            }
            return "https://github.com/" + repo + "/blob/" + commit + "/" + path + anchor;
        }

        public String shortCommit() { return commit.length() > 7 ? commit.substring(0, 7) : commit; }
    }

    private NotesSource() {}

    /** The text to render; {@code sources} are the citable files by key. */
    public static String prepare(String text, Map<String, Source> sources, String where) {
        List<String> out = new ArrayList<>();
        String delimiter = null;
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (delimiter != null) {
                if (line.equals(delimiter)) delimiter = null;
                out.add(line);
                continue;
            }
            if (DELIMITER.matcher(line).matches()) {
                delimiter = line;
                out.add(line);
                continue;
            }
            if (isDirective(line)) {
                out.add(line);
                continue;
            }
            out.add(citations(literalCode(line), sources, where + ":" + n));
        }
        return String.join("\n", out);
    }

    static boolean isDirective(String line) {
        return line.startsWith(":") || line.matches("^\\[[^\\]]*]\\s*$") || line.matches("^[a-z]+::.*")
                || line.startsWith("//");
    }

    /** Every code span of one line made literal. */
    public static String literalCode(String line) {
        Matcher m = CODE.matcher(line);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String body = m.group(1);
            String rep = body.startsWith("+") || body.endsWith("+") ? m.group() : "`+" + body + "+`";
            m.appendReplacement(sb, Matcher.quoteReplacement(rep));
        }
        return m.appendTail(sb).toString();
    }

    /** The code spans of a text as written (outside listings), for the test that they survive. */
    public static List<String> codeSpans(String text) {
        List<String> out = new ArrayList<>();
        String delimiter = null;
        for (String line : text.split("\n", -1)) {
            if (delimiter != null) {
                if (line.equals(delimiter)) delimiter = null;
                continue;
            }
            if (DELIMITER.matcher(line).matches()) {
                delimiter = line;
                continue;
            }
            if (isDirective(line)) continue;
            Matcher m = CODE.matcher(line);
            while (m.find()) out.add(m.group(1));
        }
        return out;
    }

    static String citations(String line, Map<String, Source> sources, String where) {
        Matcher m = SRC.matcher(line);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            Source s = sources.get(m.group(1));
            if (s == null) {
                throw new IllegalArgumentException(where + ": src:" + m.group(1) + "[] names no source in "
                        + "site/src/site/sources.tsv (known: " + String.join(", ", sources.keySet()) + ")");
            }
            String[] args = m.group(2).isBlank() ? new String[0] : m.group(2).split(",", 2);
            String lines = args.length > 0 ? args[0].trim() : "";
            String fn = args.length > 1 ? args[1].trim() : "";
            if (!lines.isEmpty() && !lines.matches("\\d+(-\\d+)?")) {
                throw new IllegalArgumentException(where + ": src:" + m.group(1) + "[" + m.group(2)
                        + "]: expected src:key[FIRST-LAST,function] with line numbers, got '" + lines + "'");
            }
            String text = (fn.isEmpty() ? "" : "`+" + fn + "+` in ") + "`+" + s.path() + "+`"
                    + (lines.isEmpty() ? "" : (lines.contains("-") ? ", lines " : ", line ") + lines)
                    + " (" + s.repo() + "@" + s.shortCommit() + ")";
            m.appendReplacement(sb, Matcher.quoteReplacement("link:" + s.url(lines) + "[" + text
                    .replace("]", "\\]") + "]"));
        }
        return m.appendTail(sb).toString();
    }

    /** {@code sources.tsv}: {@code key, owner/repo, full commit, path}, tab-separated, # comments. */
    public static Map<String, Source> parseSources(String tsv, String where) {
        Map<String, Source> out = new java.util.TreeMap<>();
        int n = 0;
        for (String line : tsv.split("\n")) {
            n++;
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t");
            if (f.length != 4 || !f[2].matches("[0-9a-f]{40}") || !f[1].matches("[\\w.-]+/[\\w.-]+")) {
                throw new IllegalArgumentException(where + ":" + n + ": expected key<TAB>owner/repo<TAB>40-hex "
                        + "commit<TAB>path, got: " + line);
            }
            out.put(f[0], new Source(f[0], f[1], f[2], f[3]));
        }
        return out;
    }
}
