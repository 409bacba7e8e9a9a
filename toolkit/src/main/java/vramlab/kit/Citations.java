package vramlab.kit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The notes' source citations: {@code src:cca[746-754,get_free_block]} names a file of PyTorch,
 * NVIDIA's driver, Linux or vLLM by a key of the kit's one table, {@link #TABLE}, which pins it
 * at the commit whose line numbers the notes give. A citation becomes a plain AsciiDoc link to
 * the file on GitHub at that commit, lines highlighted, reading "{@code get_free_block} in
 * {@code c10/cuda/CUDACachingAllocator.cpp}, lines 746-754 (pytorch/pytorch@001074d)".
 *
 * <p>One set of rules for both writers of the notes: the site build ({@code vramlab.site.NotesSource})
 * and a release, whose notes are read without the site ({@code vramlab.cli.ReleaseNotes}).
 * Only prose is rewritten: lines inside listing, literal, passthrough and comment blocks,
 * attribute entries, block attribute lines and directives are left alone ({@link #eachProseLine}).
 */
public final class Citations {
    /** The table of citable files, from the top of the kit: key, owner/repository, full commit, path. */
    public static final String TABLE = "site/src/site/sources.tsv";
    /** {@code src:key[lines,function]}: both parts optional, in that order. */
    public static final Pattern SRC = Pattern.compile("\\bsrc:([a-z0-9-]+)\\[([^\\]]*)]");
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

    private Citations() {}

    /** The kit's table ({@link #TABLE} under {@code kitRoot}); none when the kit has no table. */
    public static Map<String, Source> read(Path kitRoot) throws IOException {
        Path tsv = kitRoot.resolve(TABLE);
        return Files.isRegularFile(tsv) ? parse(Files.readString(tsv, StandardCharsets.UTF_8), tsv.toString()) : Map.of();
    }

    /** {@code sources.tsv}: {@code key, owner/repo, full commit, path}, tab-separated, # comments. */
    public static Map<String, Source> parse(String tsv, String where) {
        Map<String, Source> out = new TreeMap<>();
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

    /**
     * {@code line} with each citation made a link. A key the table lacks, or lines that are not
     * {@code FIRST-LAST}, is an {@link IllegalArgumentException} naming {@code where}.
     */
    public static String link(String line, Map<String, Source> sources, String where) {
        Matcher m = SRC.matcher(line);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            Source s = sources.get(m.group(1));
            if (s == null) {
                throw new IllegalArgumentException(where + ": src:" + m.group(1) + "[] names no source in "
                        + TABLE + " (known: " + String.join(", ", sources.keySet()) + ")");
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

    /**
     * {@code text} with {@code edit} applied to each line of prose ({@code edit} gets the 1-based
     * line number and the line): lines inside listing, literal, passthrough and comment blocks,
     * the blocks' delimiters, attribute entries, block attribute lines and directives are kept as
     * they are.
     */
    public static String eachProseLine(String text, BiFunction<Integer, String, String> edit) {
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
            out.add(isDirective(line) ? line : edit.apply(n, line));
        }
        return String.join("\n", out);
    }

    /** An attribute entry, a block attribute line, a directive ({@code include::}, {@code ifdef::}) or a comment. */
    public static boolean isDirective(String line) {
        return line.startsWith(":") || line.matches("^\\[[^\\]]*]\\s*$") || line.matches("^[a-z]+::.*")
                || line.startsWith("//");
    }
}
