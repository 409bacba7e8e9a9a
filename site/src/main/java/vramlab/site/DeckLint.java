package vramlab.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.kit.IncludeTags;

/**
 * The rules a deck ({@code slides/chNN-slug.adoc}) obeys, checked without Asciidoctor. A deck
 * is written as slides, not as notes cut at headings:
 * <ul>
 *   <li>its title ({@code = ...}) is the chapter's title, which makes the title slide;</li>
 *   <li>every slide ({@code ==}, or {@code ===} below it) has speaker notes, a {@code [.notes]}
 *       block carrying what the presenter says;</li>
 *   <li>a slide's visible text is at most {@value #MAX_WORDS} words (about 40), and a deck's
 *       average stays under {@value #MAX_AVERAGE};</li>
 *   <li>a slide shows at most one listing, of at most {@value #MAX_CODE_LINES} lines as the
 *       student edition renders it, included by tag from tested source; a deck never includes
 *       the lab's whole output;</li>
 *   <li>the first slide after the title shows a figure (figure first), and the last is titled
 *       "What to remember".</li>
 * </ul>
 * Words are counted on what the slide shows: headings, paragraphs, list items and table cells,
 * without markup; listings, figures and speaker notes are not words on the slide.
 */
public final class DeckLint {
    public static final int MAX_WORDS = 50;
    public static final int MAX_AVERAGE = 45;
    public static final int MAX_CODE_LINES = 12;

    /** One slide as the lint sees it. */
    public record Slide(String title, int line, int words, boolean notes, int listings, int codeLines,
            boolean figure) {}

    private static final Pattern HEADING = Pattern.compile("^(={2,3}) (.+)$");
    private static final Pattern INCLUDE = Pattern.compile("^include::([^\\[]+)\\[(.*)]\\s*$");
    private static final Pattern ATTRIBUTE_ENTRY = Pattern.compile("^:([\\w-]+!?):\\s*(.*)$");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’._/-]*");
    private static final Pattern MACRO_TEXT = Pattern.compile("(?:link|xref|https?):[^\\[\\s]*\\[([^\\]]*)]");

    private DeckLint() {}

    public static List<NotesLint.Problem> check(Path deck, Path root, String title) {
        List<NotesLint.Problem> out = new ArrayList<>();
        List<String> lines = read(deck);
        if (!title.isEmpty()) out.addAll(NotesLint.title(deck, title));
        List<Slide> slides = slides(deck, lines, root, out);
        if (slides.isEmpty()) {
            out.add(new NotesLint.Problem(deck, 1, "a deck has slides: write '== Claim' sections"));
            return out;
        }
        int total = 0;
        for (Slide s : slides) {
            total += s.words();
            if (!s.notes()) {
                out.add(new NotesLint.Problem(deck, s.line(), "slide '" + s.title() + "' has no speaker notes: add "
                        + "[.notes] and a -- block with what the presenter says"));
            }
            if (s.words() > MAX_WORDS) {
                out.add(new NotesLint.Problem(deck, s.line(), "slide '" + s.title() + "' shows " + s.words()
                        + " words (at most " + MAX_WORDS + "; move the rest to its speaker notes)"));
            }
            if (s.listings() > 1) {
                out.add(new NotesLint.Problem(deck, s.line(), "slide '" + s.title() + "' shows " + s.listings()
                        + " listings (one a slide)"));
            }
            if (s.codeLines() > MAX_CODE_LINES) {
                out.add(new NotesLint.Problem(deck, s.line(), "slide '" + s.title() + "' shows " + s.codeLines()
                        + " lines of code (at most " + MAX_CODE_LINES + "; include a smaller tag)"));
            }
        }
        if (total >= (long) MAX_AVERAGE * slides.size()) {
            out.add(new NotesLint.Problem(deck, 1, "the deck averages " + (total / slides.size())
                    + " words a slide (under " + MAX_AVERAGE + ")"));
        }
        if (!slides.get(0).figure()) {
            out.add(new NotesLint.Problem(deck, slides.get(0).line(), "the first slide shows a figure "
                    + "(image::figures/<name>.svg[]): figure first"));
        }
        Slide last = slides.get(slides.size() - 1);
        if (!last.title().equalsIgnoreCase("What to remember")) {
            out.add(new NotesLint.Problem(deck, last.line(), "the last slide is '== What to remember', not '"
                    + last.title() + "'"));
        }
        return out;
    }

    /** The deck's slides, in order; include problems go to {@code out}. */
    public static List<Slide> slides(Path deck, List<String> lines, Path root, List<NotesLint.Problem> out) {
        List<Slide> slides = new ArrayList<>();
        Map<String, String> attributes = new HashMap<>();
        String title = null;
        int at = 0;
        int words = 0;
        int listings = 0;
        int code = 0;
        boolean notes = false;
        boolean figure = false;
        String delimiter = null;
        boolean inNotes = false;
        boolean notesNext = false;
        String pendingAttrs = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int n = i + 1;
            if (delimiter != null) {
                if (line.equals(delimiter)) {
                    delimiter = null;
                    continue;
                }
                Matcher inc = INCLUDE.matcher(line);
                if (inc.matches() && isLabOutput(inc.group(1))) {
                    out.add(new NotesLint.Problem(deck, n, "a deck never shows the lab's whole output; show a figure "
                            + "or a step's worked example ({generated}/step-N.M.adoc) instead"));
                } else if (inc.matches() && title != null) {
                    code += codeLines(deck, root, n, inc, attributes, out);
                }
                else if (!line.isBlank() && title != null && delimiter.startsWith("-")) code++;
                continue;
            }
            if (inNotes) {
                if (line.equals("--")) inNotes = false;
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                if (title != null) slides.add(new Slide(title, at, words, notes, listings, code, figure));
                title = h.group(2).trim();
                at = n;
                words = count(title);
                listings = code = 0;
                notes = figure = false;
                continue;
            }
            Matcher entry = ATTRIBUTE_ENTRY.matcher(line);
            if (entry.matches()) {
                attributes.put(entry.group(1), entry.group(2).trim());
                continue;
            }
            if (line.matches("^\\[[^\\]]*]\\s*$")) {
                pendingAttrs = line;
                if (line.matches("^\\[(\\.notes|NOTE\\.speaker)]\\s*$")) notesNext = true;
                continue;
            }
            if (notesNext) {
                notesNext = false;
                notes = title != null;
                if (line.equals("--")) inNotes = true;
                continue;   // a one-paragraph note: this line, not shown
            }
            if (line.matches("-{4,}|\\.{4,}|/{4,}|\\+{4,}")) {
                delimiter = line;
                if (!line.startsWith("/") && title != null) listings++;
                pendingAttrs = null;
                continue;
            }
            NotesLint.imageAttributes(deck, n, line, out);
            if (title == null) continue;
            if (line.startsWith("image::")) {
                figure |= line.startsWith("image::figures/");
                continue;
            }
            if (line.startsWith("include::")) {
                Matcher inc = INCLUDE.matcher(line);
                if (inc.matches() && isLabOutput(inc.group(1))) {
                    out.add(new NotesLint.Problem(deck, n, "a deck never shows the lab's whole output; show a figure "
                            + "or a step's worked example ({generated}/step-N.M.adoc) instead"));
                }
                continue;
            }
            if (line.startsWith("//") || line.startsWith("ifdef::") || line.startsWith("ifndef::")
                    || line.startsWith("endif::") || line.startsWith("|===") || line.equals("--")) continue;
            words += count(line);
        }
        if (title != null) slides.add(new Slide(title, at, words, notes, listings, code, figure));
        return slides;
    }

    static boolean isLabOutput(String target) {
        return target.matches("\\{(generated|labout|lab-output)}/(lab-output\\.txt|ch\\d\\d-[a-z0-9-]+\\.txt)");
    }

    /** The words a reader sees in one line of AsciiDoc: markup and macro targets dropped. */
    static int count(String line) {
        String s = MACRO_TEXT.matcher(line).replaceAll("$1");
        s = s.replaceAll("\\{link-ch\\d\\d}", "Chapter N");
        s = s.replaceAll("src:[a-z0-9-]+\\[[^\\]]*]", "source");
        s = s.replaceAll("^[*.]+ ", " ").replaceAll("[`*_#|+]", " ");
        Matcher m = WORD.matcher(s);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    private static int codeLines(Path deck, Path root, int n, Matcher inc, Map<String, String> attributes,
            List<NotesLint.Problem> out) {
        String target = NotesLint.substitute(inc.group(1), attributes);
        if (target == null || !target.endsWith(".java")) return 0;
        Path file = deck.toAbsolutePath().getParent().resolve(target).normalize();
        if (!Files.isRegularFile(file)) return 0;   // NotesLint reports it
        try {
            List<String> tags = IncludeTags.parse(inc.group(2)).named("include::" + target);
            String listing = JavaListing.render(Files.readString(file), file.toString(), tags, -1, Edition.STUDENT,
                    id -> "// step " + id);
            return (int) listing.lines().count();
        } catch (IllegalArgumentException | IOException e) {
            out.add(new NotesLint.Problem(deck, n, e.getMessage()));
            return 0;
        }
    }

    private static List<String> read(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
