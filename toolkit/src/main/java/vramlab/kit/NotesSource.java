package vramlab.kit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


/**
 * The notes' and decks' AsciiDoc as the site hands it to Asciidoctor, and as a release writes its
 * notes ({@code vramlab.cli.ReleaseNotes}, read without the site), after two rewrites that keep
 * the text honest:
 * <ul>
 *   <li><b>Code spans are literal.</b> {@code `requested <= allocated`} would become
 *       {@code requested ⇐ allocated}, {@code `__free_one_page()`} would lose its underscores to
 *       italics, and an apostrophe in {@code `can't`} would turn curly. Each {@code `x`} outside
 *       listings becomes {@code `+x+`}, Asciidoctor's literal monospace, so the reader sees the
 *       characters of the source.</li>
 *   <li><b>Citations link to the source at a commit.</b> {@code src:cca[746-754,get_free_block]}
 *       becomes a link to the file on GitHub at the commit {@code site/src/site/sources.tsv}
 *       gives for {@code cca} ({@link Citations}, whose rules a release's notes share).</li>
 * </ul>
 * Lines inside listing, literal, passthrough and comment blocks, attribute entries, block
 * attribute lines and directives are left alone ({@link Citations#eachProseLine}).
 */
public final class NotesSource {
    /** A constrained code span as Asciidoctor finds one; not one already literal ({@code `+x+`}). */
    private static final Pattern CODE = Pattern.compile("(?<![\\w;:\"'`}\\\\])`(?![+`])(\\S|\\S[^`]*?\\S)`(?![\\w\"'`])");

    private NotesSource() {}

    /** The text to render; {@code sources} are the citable files by key. */
    public static String prepare(String text, Map<String, Citations.Source> sources, String where) {
        return Citations.eachProseLine(text, (n, line) -> Citations.link(literalCode(line), sources, where + ":" + n));
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
        Citations.eachProseLine(text, (n, line) -> {
            Matcher m = CODE.matcher(line);
            while (m.find()) out.add(m.group(1));
            return line;
        });
        return out;
    }
}
