package vramlab.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.kit.AttributeList;
import vramlab.kit.IncludeTags;
import vramlab.kit.TaggedRegions;

/**
 * The rules a chapter's notes obey before they are rendered, checked without Asciidoctor so
 * plain {@code mvn test} runs them in a blink:
 * <ol>
 *   <li>A listing is never pasted in: a delimited listing or literal block, or an indented
 *       (literal) paragraph, holds only {@code include::} lines. Only shell commands may be typed,
 *       in a block marked {@code [source,shell]} (or {@code console}, {@code bash}, {@code sh}),
 *       so they are highlighted as shell: a command is not code under test.</li>
 *   <li>Every include names a file that exists inside the repository; the tags it asks for,
 *       read as Asciidoctor reads them ({@link IncludeTags}: by name, no wildcard or negation,
 *       no positional attribute), are in that file, each region closed and nested as
 *       {@link TaggedRegions} (the site's and a release's rule) wants them; a Java include always
 *       asks for a tag and comes from {@code src/main/java} or {@code src/test/java}.</li>
 *   <li>Nothing in the notes asks for the network: no remote image, stylesheet or reveal.js,
 *       no font icons, web fonts or math (they load from a CDN).</li>
 * </ol>
 * Include targets may use attributes defined above them ({@code :sol: ../../../../../solutions}).
 * Includes of {@code {generated}/...} (also spelled {@code {labout}} or {@code {lab-output}})
 * are made by the site build (the lab's real output) and are checked there, when they exist.
 */
public final class NotesLint {
    /** One broken rule, as {@code file:line: what}. */
    public record Problem(Path file, int line, String what) {
        @Override public String toString() { return file + ":" + line + ": " + what; }
    }

    static final Set<String> TYPED_LANGUAGES = Set.of("shell", "console", "bash", "sh");
    private static final Pattern INCLUDE = Pattern.compile("^include::([^\\[]+)\\[(.*)]\\s*$");
    private static final Pattern BLOCK_ATTRS = Pattern.compile("^\\[([^\\]]*)]\\s*$");
    private static final Pattern REMOTE_IMAGE = Pattern.compile("image::?\\s*(https?:)?//");
    /** An image macro, block or inline, and its attribute list: {@code image::figures/x.svg[...]}. */
    private static final Pattern IMAGE_MACRO = Pattern.compile("image::?([^\\[\\s]+)\\[([^\\]]*)]");
    private static final Pattern ATTRIBUTE_ENTRY = Pattern.compile("^:([\\w-]+!?):\\s*(.*)$");
    private static final Pattern ATTRIBUTE_REF = Pattern.compile("\\{([\\w-]+)}");
    /** A command a reader types may stand in any listing: the launcher or Maven, never code. */
    private static final Pattern PLACEHOLDER = Pattern.compile("(?<=\\s)([A-Z][A-Z_]{2,})(?=\\s|$)");
    private static final Pattern COMMAND = Pattern.compile("^(\\$ )?(.*\\| *)?(\\./vramlab|vramlab|mvn)( .*)?$");
    /** Attributes the site build sets to the folder of the chapter's generated lab output. */
    static final Set<String> BUILD_OUTPUT = Set.of("generated", "labout", "lab-output");
    private static final Set<String> NETWORK_ATTRIBUTES = Set.of("stylesheet", "revealjsdir",
            "revealjs_customtheme", "highlightjsdir", "iconfont-cdn", "iconfont-remote", "webfonts",
            "stem", "asciimath", "latexmath");

    private NotesLint() {}

    public static List<Problem> check(Path adoc, Path repoRoot) {
        List<String> lines;
        try {
            lines = Files.readAllLines(adoc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Scan scan = new Scan(adoc, repoRoot.toAbsolutePath().normalize());
        for (int i = 0; i < lines.size(); i++) scan.line(i + 1, lines.get(i));
        return scan.finish();
    }

    /** One pass over a document, line by line, remembering which block it is in. */
    private static final class Scan {
        final Path adoc;
        final Path root;
        final List<Problem> out = new ArrayList<>();
        final Map<String, String> attributes = new HashMap<>();
        String delimiter;       // the open listing, literal or comment block's delimiter, or null
        String language;        // that block's language ("" when none)
        int opened;             // the line it opened on
        String pendingAttrs;    // the block attribute line just read, e.g. "source,java"
        boolean inTable;        // between |=== lines, where indentation means nothing
        boolean afterBlank = true;
        boolean inLiteral;      // inside an indented (literal) paragraph

        Scan(Path adoc, Path root) {
            this.adoc = adoc;
            this.root = root;
        }

        void line(int n, String line) {
            if (delimiter != null) {
                inBlock(n, line);
            } else {
                outside(n, line);
            }
            afterBlank = line.isBlank();
        }

        void inBlock(int n, String line) {
            if (line.equals(delimiter)) {
                delimiter = null;
            } else if (delimiter.startsWith("////")) {
                return;
            } else if (line.startsWith("include::")) {
                include(adoc, root, n, line, attributes, out);
            } else if (TYPED_LANGUAGES.contains(language) && isCommand(line) && placeholder(line) != null) {
                out.add(new Problem(adoc, n, "'" + placeholder(line) + "' stands for a file in a command the student "
                        + "copies, which fails as printed: name a file the copy has (a chapter's examples/), or say "
                        + "in the prose what to put there and leave the command out of the listing"));
            } else if (!line.isBlank() && !TYPED_LANGUAGES.contains(language) && isCommand(line)) {
                out.add(new Problem(adoc, n, "a command in a block not marked as shell (block opened on line "
                        + opened + "): write [source,shell] above it, so it is highlighted as shell"));
            } else if (!line.isBlank() && !TYPED_LANGUAGES.contains(language)) {
                out.add(new Problem(adoc, n, "a listing is pasted in (block opened on line " + opened
                        + "); include it by tag from tested source instead: include::<path>[tag=<name>]"));
            }
        }

        void outside(int n, String line) {
            if (line.matches("-{4,}|\\.{4,}|/{4,}")) {
                delimiter = line;
                language = languageOf(pendingAttrs, line);
                opened = n;
                pendingAttrs = null;
                return;
            }
            if (line.startsWith("|===")) inTable = !inTable;
            literal(n, line);
            Matcher attrs = BLOCK_ATTRS.matcher(line);
            if (attrs.matches()) {
                pendingAttrs = attrs.group(1);
                return;
            }
            oneLineListing(n, line);
            if (!line.startsWith(".")) pendingAttrs = null;
            if (line.startsWith("include::")) include(adoc, root, n, line, attributes, out);
            network(adoc, n, line, out);
            imageAttributes(adoc, n, line, out);
            Matcher entry = ATTRIBUTE_ENTRY.matcher(line);
            if (entry.matches()) attributes.put(entry.group(1), entry.group(2).trim());
        }

        /** {@code [source,java]} directly followed by a line of code, no delimiters. */
        void oneLineListing(int n, String line) {
            String lang = languageOf(pendingAttrs, "");
            boolean source = pendingAttrs != null && (pendingAttrs.startsWith("source") || !lang.isEmpty());
            if (source && !TYPED_LANGUAGES.contains(lang) && !line.isBlank()
                    && !line.startsWith("include::") && !line.startsWith(".")) {
                out.add(new Problem(adoc, n, "a one-line listing is pasted in; include it by tag instead"));
            }
        }

        /** An indented paragraph is a literal block: it may hold commands, not code or output. */
        void literal(int n, String line) {
            if (line.isBlank()) {
                inLiteral = false;
                return;
            }
            boolean indented = Character.isWhitespace(line.charAt(0));
            if (afterBlank && indented && !inTable) inLiteral = true;
            if (inLiteral && !isCommand(line)) {
                out.add(new Problem(adoc, n, "an indented (literal) paragraph is pasted in; include code by tag, "
                        + "and lab output from {generated}/lab-output.txt"));
            }
        }

        List<Problem> finish() {
            if (delimiter != null) out.add(new Problem(adoc, opened, "block '" + delimiter + "' is never closed"));
            return out;
        }
    }

    /** The document title ({@code = Title}, its first line that starts so) must be {@code expected}. */
    public static List<Problem> title(Path adoc, String expected) {
        List<String> lines;
        try {
            lines = Files.readAllLines(adoc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("= ")) {
                if (l.substring(2).trim().equals(expected)) return List.of();
                return List.of(new Problem(adoc, i + 1, "the title is the chapter's, as the index, the decks and the "
                        + "quiz show it: '= " + expected + "' (ChapterLab.title() and site course.tsv), not '" + l + "'"));
            }
            if (!l.isBlank() && !l.startsWith("//")) break;
        }
        return List.of(new Problem(adoc, 1, "no title: the first line is '= " + expected + "'"));
    }

    static boolean isCommand(String line) { return COMMAND.matcher(line.trim()).matches(); }

    /**
     * A word of capitals standing for an argument ({@code TRACE}, {@code FILE}) in a command line,
     * before any {@code #} comment, or null: copied as printed the command fails ("TRACE: no such
     * file"). An environment variable set in front of the command ({@code VRAMLAB_OFFLINE=1}) is not one.
     */
    static String placeholder(String line) {
        int hash = line.indexOf(" #");
        Matcher m = PLACEHOLDER.matcher(hash < 0 ? line : line.substring(0, hash));
        return m.find() ? m.group(1) : null;
    }

    /** The language of a block: {@code [source,java]} -> java; a bare listing -> "". */
    static String languageOf(String attrs, String delimiter) {
        if (attrs == null) return "";
        String[] parts = attrs.split(",");
        if (parts.length >= 2 && (parts[0].trim().equals("source") || parts[0].trim().isEmpty())) {
            return parts[1].trim().toLowerCase();
        }
        return "";
    }

    private static void include(Path adoc, Path root, int n, String line, Map<String, String> attributes,
            List<Problem> out) {
        Matcher m = INCLUDE.matcher(line.trim());
        if (!m.matches()) {
            out.add(new Problem(adoc, n, "cannot read this include line: " + line));
            return;
        }
        String written = m.group(1);
        Matcher first = ATTRIBUTE_REF.matcher(written);
        if (first.lookingAt() && BUILD_OUTPUT.contains(first.group(1))) return;
        String target = substitute(written, attributes);
        if (target == null) {
            out.add(new Problem(adoc, n, "include target uses an attribute not defined above it: " + written
                    + " (define it with :name: value, or use {generated}/ for build output)"));
            return;
        }
        Path file = adoc.toAbsolutePath().getParent().resolve(target).normalize();
        if (!file.startsWith(root)) {
            out.add(new Problem(adoc, n, "include leaves the repository: " + target));
            return;
        }
        if (!Files.isRegularFile(file)) {
            out.add(new Problem(adoc, n, "include target does not exist: " + target + " (resolved to " + file + ")"));
            return;
        }
        List<String> tags = tags(adoc, n, written, substitute(m.group(2), attributes), out);
        if (tags == null) return;
        String rel = root.relativize(file).toString().replace('\\', '/');
        if (rel.endsWith(".java")) {
            if (tags.isEmpty()) {
                out.add(new Problem(adoc, n, "a Java include must name a tag (tag=...): " + target));
            }
            if (!rel.contains("src/main/java/") && !rel.contains("src/test/java/")) {
                out.add(new Problem(adoc, n, "include of Java that is not compiled and tested source: " + target));
            }
        }
        if (tags.isEmpty()) return;
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            TaggedRegions.select(text.lines().toList(), tags, rel);
        } catch (TaggedRegions.TagException e) {
            out.add(new Problem(adoc, n, e.getMessage()));
        }
    }

    /** {@code {sol}/alloc/X.java} with {@code :sol: ../../x} -> {@code ../../x/alloc/X.java}; null if undefined. */
    static String substitute(String target, Map<String, String> attributes) {
        StringBuilder sb = new StringBuilder();
        Matcher m = ATTRIBUTE_REF.matcher(target);
        while (m.find()) {
            String value = attributes.get(m.group(1));
            if (value == null) return null;
            m.appendReplacement(sb, Matcher.quoteReplacement(value));
        }
        return m.appendTail(sb).toString();
    }

    /**
     * The tags an include asks for, read as Asciidoctor reads them ({@link IncludeTags}); null,
     * with the problem added, for an undefined attribute in the list, tags the kit does not take
     * (a wildcard, a negation, {@code lines=}) or a positional attribute, which an include
     * ignores: {@code tags=a,b} is read as {@code tags=a} and a positional {@code b}.
     */
    static List<String> tags(Path adoc, int n, String target, String attrlist, List<Problem> out) {
        if (attrlist == null) {
            out.add(new Problem(adoc, n, "include::" + target + "[...]: its attribute list uses an attribute not"
                    + " defined above it"));
            return null;
        }
        Map<String, String> attributes = AttributeList.parse(attrlist);
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            if (!e.getKey().matches("\\d+")) continue;
            out.add(new Problem(adoc, n, "include::" + target + "[" + attrlist + "]: '" + e.getValue() + "' is a"
                    + " positional attribute, which Asciidoctor reads after a comma and an include ignores: ask for"
                    + " several tags as tags=x;y or tags=\"x,y\""));
            return null;
        }
        try {
            return IncludeTags.of(attributes).named(target);
        } catch (IncludeTags.Unsupported e) {
            out.add(new Problem(adoc, n, "include::" + e.getMessage()));
            return null;
        }
    }

    /**
     * An image's alt text with a comma is quoted. Asciidoctor reads {@code image::x.svg[A, B, C]}
     * as alt text A, width B and height C (positional attributes of the image macro): the site
     * rendered {@code alt="The walk of 0x7f0a00200040: PDE3" width="PDE2" height="PDE1"}, a
     * figure's description cut at its first comma for whoever reads the alt text, and 39 such
     * width and height values that are not numbers (walk of a fresh clone, issue 52). A second
     * attribute that is a number, or a named one ({@code width=300}), is meant.
     */
    static void imageAttributes(Path adoc, int n, String line, List<Problem> out) {
        Matcher m = IMAGE_MACRO.matcher(line);
        while (m.find()) {
            String attrs = m.group(2).trim();
            if (attrs.startsWith("\"")) continue;
            String[] parts = attrs.split(",", -1);
            if (parts.length < 2) continue;
            String second = parts[1].trim();
            if (second.contains("=") || second.matches("\\d+(%|px)?")) continue;
            out.add(new Problem(adoc, n, "the image's alt text has a comma, and Asciidoctor reads what follows it as"
                    + " the width ('" + second + "'): quote the alt text, image::" + m.group(1) + "[\"" + parts[0].trim()
                    + ", ...\"]"));
        }
    }

    private static void network(Path adoc, int n, String line, List<Problem> out) {
        if (REMOTE_IMAGE.matcher(line).find()) {
            out.add(new Problem(adoc, n, "a remote image; draw it with a figure method instead"));
        }
        Matcher a = ATTRIBUTE_ENTRY.matcher(line);
        if (!a.matches()) return;
        String name = a.group(1);
        String value = a.group(2).trim();
        boolean unset = name.endsWith("!");
        name = unset ? name.substring(0, name.length() - 1) : name;
        if (name.equals("imagesdir") && !unset) {
            out.add(new Problem(adoc, n, ":imagesdir: moves the figures away from the page; leave it unset and "
                    + "write image::figures/<name>.svg[]"));
        } else if (name.equals("icons") && value.equals("font")) {
            out.add(new Problem(adoc, n, ":icons: font loads Font Awesome from a CDN; leave icons unset"));
        } else if (!unset && NETWORK_ATTRIBUTES.contains(name)) {
            out.add(new Problem(adoc, n, ":" + name + ": would load from the network; the site build sets it"));
        }
    }
}
