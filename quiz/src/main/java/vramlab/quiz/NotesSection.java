package vramlab.quiz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A section of a chapter's notes, named by its heading ({@link Question#notesSection}), as
 * {@code quiz --check} sends a student to reread it: the chapter, the heading in quotes, and the
 * section's anchor in the rendered notes, the site's page of the chapter ({@code docs/} in a
 * student release): {@code reread ch03 "Rule 4: split only into a legal remainder"
 * (ch03-caching-allocator/notes.html#_rule_4_split_only_into_a_legal_remainder)}.
 *
 * <p>The anchor is the one the notes give the section: an explicit {@code [[id]]} or
 * {@code [#id]} on the lines above its heading, else the id Asciidoctor generates (Asciidoctor
 * 2.x, {@code Section.generate_id} in {@code lib/asciidoctor/section.rb}, with the default
 * {@code idprefix} {@code _} and {@code idseparator} {@code _}): the title lower-cased; markup,
 * character references and every character but letters, digits, {@code _}, space, {@code -} and
 * {@code .} dropped; each run of spaces, hyphens and periods one {@code _}; a trailing {@code _}
 * dropped; {@code _} in front; a heading the page has had already gets {@code _2}, then
 * {@code _3}. (Checked against Asciidoctor's own ids for every heading of the eight chapters once;
 * the test that checks each question's heading exists also checks it is its page's only one.)
 *
 * <p>Where the line sends the student is a file of the copy they run {@code ./vramlab} in,
 * named from the copy's root, where they stand: the chapter's rendered page in a student release
 * ({@code docs/ch03-caching-allocator/notes.html#_rule_2_pools_never_mix}); in the kit, the
 * student edition {@code ./vramlab site} renders ({@code site/target/site/...}), else its
 * instructor edition; and where the copy has no rendered page (a release written with
 * {@code release --no-site}, a kit whose site was never rendered), the chapter's AsciiDoc notes
 * and the heading's line, {@code reread ch03 "Rule 2: pools never mix"
 * (chapters/ch03-caching-allocator/src/docs/asciidoc/ch03-caching-allocator.adoc:162)}, a
 * {@code path:line} that editors and terminals open at the heading ({@link #inCopy}). On a
 * terminal ({@link #reread(Path, Path)}, {@code quiz --check}) a page is a {@code file:} address
 * with its anchor, which a click or a browser's address bar opens at the section (a path with
 * {@code #anchor} opens nowhere: {@code xdg-open} and {@code open} look for a file of that name).
 *
 * @param chapter the chapter's short name, {@code ch03}
 * @param page    the chapter's folder and page name, {@code ch03-caching-allocator}
 * @param heading the section's heading, word for word
 * @param anchor  its id in the rendered notes; null when the notes were not found to read it from
 * @param source  the file the line names, from the copy's root with {@code /} between names: the
 *                rendered page ({@code .html}, named with the anchor) or the notes' AsciiDoc (with
 *                the heading's line); null when no copy is known ({@link #of}): then
 *                {@code page/notes.html#anchor}, the page's name in the site
 * @param line    the heading's line in an AsciiDoc {@code source} (from 1); 0 when not known or a page
 */
public record NotesSection(String chapter, String page, String heading, String anchor, String source, int line) {
    /**
     * One heading of a chapter's notes: its text, its level (2 for {@code ==}), its anchor, and
     * its line in the notes file read (from 1; a heading of an included file has the line of
     * the {@code include::} that brings it in).
     */
    public record Heading(String title, int level, String anchor, int line) {}

    /** The section as the rendered notes show it: the line names {@code page/notes.html#anchor}. */
    public NotesSection(String chapter, String page, String heading, String anchor) {
        this(chapter, page, heading, anchor, null, 0);
    }

    private static final Pattern HEADING = Pattern.compile("^(={2,6}) (\\S.*?)\\s*$");
    private static final Pattern EXPLICIT_ID = Pattern.compile("^\\[(?:\\[([\\w:.-]+)(?:,[^\\]]*)?\\]|#([\\w:-]+)[^\\]]*)\\]$");
    private static final Pattern LOCAL_INCLUDE = Pattern.compile("^include::([\\w.-]+\\.adoc)\\[\\]$");

    /**
     * The line from the copy's root, as {@code grade} prints it and results.json carries it:
     * {@code reread ch03 "heading" (docs/ch03-caching-allocator/notes.html#anchor)} (the kit's
     * {@code site/target/site/...}); without the anchor when it is not known. Where the copy has no
     * rendered notes, {@code reread ch03 "heading" (chapters/.../ch03-....adoc:162)},
     * without {@code :162} when the heading's line is not known. A heading already in quotes (a misconception the notes
     * quote, {@code === "Free neighbours merge"}) keeps its own quotes rather than gaining a second pair.
     */
    public String reread() {
        return "reread " + named();
    }

    /**
     * The section and where it is, from the copy's root, without the word {@code reread}:
     * {@code ch03 "heading" (docs/ch03-caching-allocator/notes.html#anchor)}, as {@link #reread()}
     * says it after that word (a graded step's {@code Reread:} line in {@code grade}'s reports).
     */
    public String named() {
        String where = isPage() ? " (" + source + (anchor == null ? "" : "#" + anchor) + ")"
                : source != null ? " (" + source + (line > 0 ? ":" + line : "") + ")"
                : anchor == null ? "" : " (" + page + "/notes.html#" + anchor + ")";
        return title() + where;
    }

    /**
     * The line as a terminal shows it to someone standing in {@code cwd}, in the copy at
     * {@code root}: a rendered page as a {@code file:} address with its anchor (terminals make it a
     * link; a browser opens it at the section), the AsciiDoc's {@code path:line} from {@code cwd}
     * (the copy's root: {@code chapters/...}; a folder below it: {@code ../chapters/...};
     * {@link KitPaths#fromCwd}).
     */
    public String reread(Path root, Path cwd) {
        return "reread " + named(root, cwd);
    }

    /**
     * {@link #reread(Path, Path)} without the word {@code reread}: {@code ch03 "heading" (file:///...#anchor)},
     * as {@code check} says it after {@code Reread:} under a failed step.
     */
    public String named(Path root, Path cwd) {
        if (source == null) return named();
        Path file = root.toAbsolutePath().normalize().resolve(source);
        if (isPage()) return title() + " (" + file.toUri() + (anchor == null ? "" : "#" + anchor) + ")";
        return title() + " (" + KitPaths.fromCwd(file, cwd) + (line > 0 ? ":" + line : "") + ")";
    }

    /** {@code ch03 "heading"}; a heading already in quotes keeps its own. */
    private String title() {
        boolean quoted = heading.length() > 1 && heading.startsWith("\"") && heading.endsWith("\"");
        return chapter + " " + (quoted ? heading : "\"" + heading + "\"");
    }

    /** Does the line name a rendered page (else the AsciiDoc's line, or no copy)? */
    private boolean isPage() { return source != null && source.endsWith(".html"); }

    /**
     * The section {@code heading} of chapter {@code page} ({@code ch03-caching-allocator}) whose
     * notes are {@code notes} (its main {@code .adoc}); the anchor is null when the notes cannot be
     * read or have no such heading.
     */
    public static NotesSection of(String chapter, String page, String heading, Path notes) {
        return new NotesSection(chapter, page, heading, anchorIn(readable(notes), heading));
    }

    /** The headings of {@code notes}; none when they cannot be read (the heading alone still says where to look). */
    private static List<Heading> readable(Path notes) {
        try {
            return Files.isRegularFile(notes) ? headings(notes) : List.of();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The anchor of the section titled {@code heading} among {@code headings}, or null. */
    private static String anchorIn(List<Heading> headings, String heading) {
        Heading h = find(headings, heading);
        return h == null ? null : h.anchor();
    }

    /** The heading titled {@code heading} among {@code headings}, or null. */
    private static Heading find(List<Heading> headings, String heading) {
        for (Heading h : headings) if (plain(h.title()).equals(plain(heading))) return h;
        return null;
    }

    /**
     * The section of the notes each of {@code questions} names ({@link Question#notesSection}), by
     * question id, its anchor read from its chapter's notes in the kit at {@code root}
     * ({@code chapters/ch03-caching-allocator/src/docs/asciidoc/ch03-caching-allocator.adoc}):
     * what {@code quiz --check} and {@code grade} both print, as {@link #reread}, under a question
     * that lost points. A question that names no section has none here.
     */
    public static java.util.Map<String, NotesSection> ofQuestions(Path root, java.util.Collection<Question> questions) {
        java.util.Map<String, NotesSection> out = new java.util.TreeMap<>();
        java.util.Map<String, List<Heading>> read = new java.util.HashMap<>();      // each chapter's notes read once
        for (Question q : questions) {
            if (q.notesSection() != null) out.put(q.id(), inCopy(root, q.chapter(), q.notesSection(), read));
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * The section {@code heading} of chapter {@code chapter} ({@code ch03}) as the copy of the kit
     * at {@code root} can show it: its anchor in the chapter's rendered page ({@link #SITES}:
     * {@code docs/ch03-caching-allocator/notes.html} in a release), or, in a copy that has none (a
     * release written with {@code release --no-site}, a kit whose site is not rendered), its line
     * in the chapter's AsciiDoc notes, which every copy has.
     */
    public static NotesSection inCopy(Path root, String chapter, String heading) {
        return inCopy(root, chapter, heading, new java.util.HashMap<>());
    }

    /** {@link #inCopy}, each chapter's notes read once into {@code read}. */
    private static NotesSection inCopy(Path root, String chapter, String heading, java.util.Map<String, List<Heading>> read) {
        String page = page(root.resolve("chapters"), chapter);
        String source = "chapters/" + page + "/src/docs/asciidoc/" + page + ".adoc";
        Path notes = root.resolve(source);
        Heading h = find(read.computeIfAbsent(page, p -> readable(notes)), heading);
        String anchor = h == null ? null : h.anchor();
        String rendered = rendered(root, page);
        if (rendered != null) return new NotesSection(chapter, page, heading, anchor, rendered, 0);
        if (!Files.isRegularFile(notes)) return new NotesSection(chapter, page, heading, anchor);
        return new NotesSection(chapter, page, heading, anchor, source, h == null ? 0 : h.line());
    }

    /** Where the copy's sites put a chapter's page: a release's docs/; the kit's student edition, then its instructor's. */
    static final List<String> SITES = List.of("docs", "site/target/site", "site/target/site-instructor");

    /** The chapter's rendered page in the copy at {@code root}, from its root ({@code docs/ch03-.../notes.html}); null when none. */
    private static String rendered(Path root, String page) {
        for (String site : SITES) {
            if (site.equals("docs") != KitPaths.isRelease(root)) continue;
            String p = site + "/" + page + "/notes.html";
            if (Files.isRegularFile(root.resolve(p))) return p;
        }
        return null;
    }

    /** Chapter {@code ch03}'s folder under {@code chapters}, {@code ch03-caching-allocator}; the short name when there is none. */
    private static String page(Path chapters, String chapter) {
        try (var s = Files.list(chapters)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(chapter + "-")).sorted()
                    .findFirst().orElse(chapter);
        } catch (IOException | RuntimeException e) {
            return chapter;                       // no chapters here: the heading alone, with no anchor
        }
    }

    /**
     * The section headings of {@code notes} in order, with those of the local {@code .adoc} files
     * it includes (they render on its page), each with its anchor; headings inside listings and
     * comment blocks are not sections and are skipped.
     */
    public static List<Heading> headings(Path notes) throws IOException {
        List<Heading> out = new ArrayList<>();
        read(notes, new java.util.HashSet<>(), out, 0);
        return out;
    }

    /**
     * {@link #headings}: {@code used}, the page's anchors so far, makes a repeated heading's {@code _2};
     * {@code at}, when not 0, is the line of the {@code include::} in the top file, every heading's line here.
     */
    private static void read(Path notes, java.util.Set<String> used, List<Heading> out, int at) throws IOException {
        String explicit = null;
        String block = null;                          // the delimiter of the listing or comment we are in
        int number = 0;
        for (String line : Files.readAllLines(notes, StandardCharsets.UTF_8)) {
            number++;
            String s = line.strip();
            if (block != null) {
                if (s.equals(block)) block = null;
                continue;
            }
            if (s.matches("-{4,}|\\.{4,}|/{4,}")) {       // a listing, a literal or a comment block: to the same delimiter
                block = s;
                explicit = null;
                continue;
            }
            Matcher inc = LOCAL_INCLUDE.matcher(s);
            if (inc.matches() && Files.isRegularFile(notes.resolveSibling(inc.group(1)))) {
                read(notes.resolveSibling(inc.group(1)), used, out, at != 0 ? at : number);
                explicit = null;
                continue;
            }
            Matcher id = EXPLICIT_ID.matcher(s);
            if (id.matches()) {
                explicit = id.group(1) != null ? id.group(1) : id.group(2);
                continue;
            }
            if (s.startsWith("[") && s.endsWith("]")) continue;     // another block attribute line ([appendix]): the id above still holds
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                out.add(new Heading(h.group(2), h.group(1).length(), unique(explicit, h.group(2), used), at != 0 ? at : number));
            }
            explicit = null;
        }
    }

    /** The explicit id, else the generated one, with {@code _2}, {@code _3}... when the page has it already. */
    private static String unique(String explicit, String title, java.util.Set<String> used) {
        String id = explicit != null ? explicit : anchor(title);
        if (explicit == null && used.contains(id)) {
            int n = 2;
            while (used.contains(id + "_" + n)) n++;
            id = id + "_" + n;
        }
        used.add(id);
        return id;
    }

    /** A heading as written in the kit: a student release writes a code span `x` as `+x+` (the same anchor). */
    static String plain(String heading) { return heading.replace("`+", "`").replace("+`", "`"); }

    /** The id Asciidoctor generates for a section titled {@code heading} (see the class comment). */
    public static String anchor(String heading) {
        String t = heading.toLowerCase(Locale.ROOT)
                .replace("`", "")                                     // a code span: its text stays, its markup goes
                .replaceAll("<[^>]+>|&(?:[a-z][a-z]+\\d{0,2}|#\\d{2,5}|#x[\\da-f]{2,4});", "")
                .replaceAll("[^ \\p{L}\\p{M}\\p{N}\\p{Pc}\\-.]", "")
                .replaceAll("[ .\\-]+", "_");
        if (t.endsWith("_")) t = t.substring(0, t.length() - 1);
        return "_" + t;
    }
}
