package vramlab.kit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines an AsciiDoc include takes from a file by tag ({@code include::F[tag=x]},
 * {@code tags=x;y}), as Asciidoctor takes them, and an error wherever Asciidoctor only warns.
 * One rule for the site's listings ({@code vramlab.site.JavaListing}, its lint) and a release's
 * notes ({@code vramlab.cli.NotesReducer}, {@code ReleaseNotes}), so a listing is the same lines
 * in both and a tag the site refuses is refused by a release too.
 *
 * <p>Asciidoctor's rules, as in {@code lib/asciidoctor/reader.rb},
 * {@code preprocess_include_directive} (Asciidoctor 2.0.23, the one AsciidoctorJ 2.5.13 bundles
 * and the site renders with), for a list of tags each named, none negated or a wildcard:
 * <ul>
 *   <li>a directive is {@code tag::NAME[]} or {@code end::NAME[]} after a word boundary and
 *       before a space or the line's end, in any comment style ({@code // tag::x[]},
 *       {@code # tag::x[]}, {@code <!-- tag::x[] -->}); the first on a line counts
 *       ({@code TagDirectiveRx}: {@link #DIRECTIVE});</li>
 *   <li>a line holding a directive, of any name, is never taken;</li>
 *   <li>a named tag's region runs from its {@code tag::} to the {@code end::} that closes it, and
 *       regions of other tags inside it come along; regions nest, an {@code end::} closing the
 *       innermost open one; a tag may have several regions, each taken, in file order;</li>
 *   <li>directives of tags not named are otherwise ignored, paired or not.</li>
 * </ul>
 * Where Asciidoctor warns and includes what it can, this throws {@link TagException} naming the
 * file, the tag and the line: a named tag not in the file (Asciidoctor: "tag 'x' not found"), one
 * whose region is never closed ("detected unclosed tag"), and an {@code end::} of a named tag
 * that is not the innermost open region ("mismatched end tag", "unexpected end tag").
 *
 * <p>The tags come from an include's attribute list read by {@link IncludeTags}, which refuses
 * what this does not take (a wildcard, a negation, {@code lines=}).
 */
public final class TaggedRegions {
    /** Asciidoctor's {@code TagDirectiveRx}; group 1 is set for an {@code end::}, group 2 is the name. */
    public static final Pattern DIRECTIVE = Pattern.compile("\\b(?:tag|(e)nd)::(\\S+?)\\[\\](?=$|[ \\r])");

    private TaggedRegions() {}

    /** A tag an include asks for that the file does not hold, or holds out of order. */
    public static final class TagException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        TagException(String message) { super(message); }
    }

    /** Whether {@code line} holds a tag directive (of any name), and so is never shown. */
    public static boolean isDirective(String line) {
        return directive(line) != null;
    }

    /**
     * The lines of the regions of {@code tags} in {@code lines}, in file order, without any line
     * holding a directive.
     *
     * @param file the file's name, for the error
     * @throws TagException as the class says
     */
    public static List<String> take(List<String> lines, List<String> tags, String file) {
        boolean[] selected = select(lines, tags, file);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) if (selected[i]) out.add(lines.get(i));
        return out;
    }

    /**
     * Which of {@code lines} the include takes: those inside a region of one of {@code tags}
     * (at least one) that hold no directive.
     *
     * @param file the file's name, for the error
     * @throws TagException as the class says
     */
    public static boolean[] select(List<String> lines, List<String> tags, String file) {
        if (tags.isEmpty()) throw new IllegalArgumentException("no tag asked for in " + file);
        Set<String> wanted = new HashSet<>(tags);
        Set<String> found = new LinkedHashSet<>();
        Deque<Open> open = new ArrayDeque<>();            // the named tags' open regions, innermost first
        boolean[] selected = new boolean[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = directive(lines.get(i));
            if (m == null) {
                selected[i] = !open.isEmpty();
                continue;
            }
            String tag = m.group(2);
            int line = i + 1;
            if (m.group(1) == null) {
                if (wanted.contains(tag)) {
                    found.add(tag);
                    open.push(new Open(tag, line));
                }
            } else if (!open.isEmpty() && open.peek().tag.equals(tag)) {
                open.pop();
            } else if (wanted.contains(tag)) {
                throw new TagException(open.stream().anyMatch(o -> o.tag.equals(tag))
                        ? file + ":" + line + ": end::" + tag + "[] inside the region of tag::" + open.peek().tag
                                + "[] (line " + open.peek().line + "), which it does not close: regions must nest"
                        : file + ":" + line + ": end::" + tag + "[] without tag::" + tag + "[] open before it");
            }
        }
        if (!open.isEmpty()) {
            Open first = open.peekLast();
            throw new TagException(file + ":" + first.line + ": tag::" + first.tag + "[] is never closed (no end::"
                    + first.tag + "[] after it)");
        }
        for (String tag : tags) {
            if (!found.contains(tag)) throw new TagException(file + ": no tag::" + tag + "[] in the file");
        }
        return selected;
    }

    /** The directive on {@code line}, or null; the cheap test first, as Asciidoctor does. */
    private static Matcher directive(String line) {
        if (!line.contains("::") || !line.contains("[]")) return null;
        Matcher m = DIRECTIVE.matcher(line);
        return m.find() ? m : null;
    }

    private record Open(String tag, int line) {}
}
