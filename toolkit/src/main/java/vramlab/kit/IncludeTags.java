package vramlab.kit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tags an include directive asks for ({@code include::F[tag=x]}, {@code tags=x;y}), read from
 * its attribute list as Asciidoctor reads them; the one reading of the site's listings and lint
 * and of a release's notes. Asciidoctor's rules, {@code preprocess_include_directive} and
 * {@code split_delimited_value} in {@code lib/asciidoctor/reader.rb} (Asciidoctor 2.0.23):
 * <ul>
 *   <li>{@code lines=} wins over any tag, {@code tag=} over {@code tags=};</li>
 *   <li>{@code tag=} names one tag, never split ({@code tag=a;b} is the tag {@code a;b});</li>
 *   <li>{@code tags=} is split at each comma if it holds one ({@code tags="a,b"}: unquoted, the
 *       comma ends the value, see {@link AttributeList}), else at each semicolon; spaces are kept;
 *       an empty entry and a lone {@code !} are skipped;</li>
 *   <li>{@code !x} leaves tag x out; {@code *} stands for every other tag, {@code **} for every
 *       line; a tag asked twice counts once, in its first place, with its last sign;</li>
 *   <li>no tag left (or {@code tag=}, {@code tag=!}): the whole file.</li>
 * </ul>
 * The kit takes tags by name ({@link TaggedRegions}): {@link #named} refuses what it does not
 * take, naming it, rather than take other lines than Asciidoctor would.
 */
public final class IncludeTags {
    /** An include's tags that the kit does not take (a wildcard, a negation, {@code lines=}). */
    public static final class Unsupported extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Unsupported(String message) { super(message); }
    }

    private static final String SUPPORTED = "the kit takes a whole file or tags by name (tag=x, tags=x;y or"
            + " tags=\"x,y\")";

    /** Each tag asked for, true to take it, false to leave it out ({@code !x}), in the order asked. */
    private final Map<String, Boolean> asked;
    /** The attribute as written ({@code tags=a;b}), for messages; "" when none. */
    private final String written;
    private final boolean byLines;

    private IncludeTags(Map<String, Boolean> asked, String written, boolean byLines) {
        this.asked = Collections.unmodifiableMap(asked);
        this.written = written;
        this.byLines = byLines;
    }

    /** The tags of an include's attribute list as written between its brackets. */
    public static IncludeTags parse(String attrlist) {
        return of(AttributeList.parse(attrlist));
    }

    /** The tags of an include's attributes already parsed (AsciidoctorJ's {@code IncludeProcessor} map). */
    public static IncludeTags of(Map<?, ?> attributes) {
        Object lines = attributes.get("lines");
        if (lines != null) return new IncludeTags(new LinkedHashMap<>(), "lines=" + quoted(lines.toString()), true);
        Map<String, Boolean> asked = new LinkedHashMap<>();
        Object tag = attributes.get("tag");
        Object tags = attributes.get("tags");
        if (tag != null) {
            add(asked, tag.toString());
            return new IncludeTags(asked, "tag=" + quoted(tag.toString()), false);
        }
        if (tags == null) return new IncludeTags(asked, "", false);
        String value = tags.toString();
        for (String t : value.split(value.contains(",") ? "," : ";")) add(asked, t);
        return new IncludeTags(asked, "tags=" + quoted(value), false);
    }

    private static void add(Map<String, Boolean> asked, String tag) {
        if (tag.isEmpty() || tag.equals("!")) return;
        if (tag.startsWith("!")) asked.put(tag.substring(1), false);
        else asked.put(tag, true);
    }

    private static String quoted(String value) {
        return value.contains(",") || value.contains(" ") || value.isEmpty() ? '"' + value + '"' : value;
    }

    /** Each tag asked for, true to take it and false to leave it out, in order; empty for the whole file. */
    public Map<String, Boolean> asked() {
        return asked;
    }

    /** Whether the include takes the whole file: no tag (nor {@code lines=}) left to select by. */
    public boolean wholeFile() {
        return asked.isEmpty() && !byLines;
    }

    /**
     * The tags to take, by name, as {@link TaggedRegions} takes them; empty for the whole file.
     *
     * @param target the include's target as written, for the message
     * @throws Unsupported naming the target, the attribute and what the kit takes, for a
     *         wildcard, a negation, {@code lines=} or a name no tag directive can have
     */
    public List<String> named(String target) {
        String at = target + "[" + written + "]: ";
        if (byLines) throw new Unsupported(at + SUPPORTED + ", not lines (Asciidoctor takes lines= before any tag)");
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Boolean> e : asked.entrySet()) {
            String tag = e.getKey();
            if (!e.getValue() || tag.equals("*") || tag.equals("**")) {
                throw new Unsupported(at + SUPPORTED + ", not Asciidoctor's wildcards (*, **) or negations (!x): '"
                        + (e.getValue() ? "" : "!") + tag + "'");
            }
            if (tag.chars().anyMatch(Character::isWhitespace)) {
                throw new Unsupported(at + "the tag '" + tag + "' holds a space, which no tag::NAME[] can"
                        + " (Asciidoctor splits tags= at each comma or semicolon and keeps the spaces):"
                        + " write tags=x;y or tags=\"x,y\"");
            }
            out.add(tag);
        }
        return out;
    }

    @Override
    public String toString() {
        return written.isEmpty() ? "(whole file)" : written;
    }
}
