package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.kit.AttributeList;
import vramlab.kit.IncludeTags;
import vramlab.kit.TaggedRegions;

/**
 * A release's notes with their includes expanded, as Asciidoctor's reducer
 * ({@code asciidoctor-reducer}) writes a document: each {@code include::} line is replaced by the
 * lines Asciidoctor would include there, read when the release is written. So the notes hold
 * their listings themselves: GitHub, which expands no include, shows them, and a student who
 * edits {@code labs/} (or deletes a {@code // tag::x[]} comment) changes nothing the notes show.
 * What is expanded is what plain Asciidoctor would have included from the release: each step's
 * listing from the release's {@code labs/}, as handed out (its body a {@code Todo}), never from
 * the reference.
 *
 * <p>Asciidoctor's rules, as in {@code lib/asciidoctor/reader.rb} ({@code
 * preprocess_include_directive}, Asciidoctor 2.0): a target's attribute references are replaced
 * with the attributes defined above it; a target is resolved from the folder of the file that
 * includes it; {@code tag=x} or {@code tags=x;y}, read as Asciidoctor reads them
 * ({@link IncludeTags}), takes the lines of those tags' regions by the rule the site's listings
 * follow too ({@link TaggedRegions}); an included AsciiDoc file
 * ({@code .adoc}, {@code .asciidoc}, {@code .asc}, {@code .ad}, {@code .txt}) has its own
 * directives processed, with the attributes of the file that includes it. An include this does
 * not expand is left as it is, for {@link ReleaseNotes#unresolved} to name: a target outside
 * {@code root} or not there, an undefined attribute, a tag {@link TaggedRegions} refuses (one the
 * file lacks, leaves open or ends out of order, where Asciidoctor warns), tags
 * {@link IncludeTags#named} refuses (a wildcard, a negated tag, {@code lines}), or an attribute
 * other than {@code tag} and {@code tags} ({@code indent}, {@code leveloffset}), which the kit's
 * notes do not use.
 */
final class NotesReducer {
    private NotesReducer() {}

    /** One document reduced: its text, and the files whose lines it now holds. */
    record Reduced(String text, Set<Path> inlined) {}

    static final Pattern INCLUDE = Pattern.compile("^include::([^\\[\\s][^\\[]*)\\[(.*)]\\s*$");
    private static final Pattern ENTRY = Pattern.compile("^:([\\w-]+)(!?):(?:\\s+(.*))?$");
    private static final Pattern COMMENT_BLOCK = Pattern.compile("/{4,}");
    private static final Pattern REFERENCE = Pattern.compile("\\{([\\w-]+)}");
    private static final Pattern POSITIONAL = Pattern.compile("\\d+");
    private static final Set<String> ASCIIDOC = Set.of(".adoc", ".asciidoc", ".asc", ".ad", ".txt");
    /** Asciidoctor's default {@code max-include-depth}. */
    private static final int MAX_DEPTH = 64;

    /** The document {@code file} (its text {@code text}) with every include it can expand from inside {@code root} expanded. */
    static Reduced reduce(Path root, Path file, String text) throws IOException {
        List<String> out = new ArrayList<>();
        Set<Path> inlined = new LinkedHashSet<>();
        expand(root.toAbsolutePath().normalize(), file.toAbsolutePath().normalize(), lines(text), new HashMap<>(), out,
                inlined, new ArrayDeque<>());
        return new Reduced(String.join("\n", out) + (text.endsWith("\n") ? "\n" : ""), inlined);
    }

    private static void expand(Path root, Path file, List<String> lines, Map<String, String> attributes, List<String> out,
            Set<Path> inlined, Deque<Path> depth) throws IOException {
        depth.push(file);
        String comment = null;              // Asciidoctor processes no directive inside a comment block
        for (String line : lines) {
            if (comment != null || COMMENT_BLOCK.matcher(line).matches()) {
                if (comment == null) comment = line;
                else if (line.equals(comment)) comment = null;
                out.add(line);
                continue;
            }
            Matcher entry = ENTRY.matcher(line);
            if (entry.matches()) {
                if (entry.group(2).isEmpty()) {
                    attributes.put(entry.group(1), substitute(entry.group(3) == null ? "" : entry.group(3).strip(), attributes));
                } else {
                    attributes.remove(entry.group(1));
                }
                out.add(line);
                continue;
            }
            Matcher inc = INCLUDE.matcher(line);
            Path target = inc.matches() && depth.size() < MAX_DEPTH ? target(root, file, inc.group(1), attributes) : null;
            String attrlist = target == null ? null : substitute(inc.group(2), attributes);  // sub_input
            List<String> got = attrlist == null ? null : included(target, attrlist);
            if (got == null) {
                out.add(line);
                continue;
            }
            inlined.add(target);
            if (isAsciiDoc(target)) expand(root, target, got, attributes, out, inlined, depth);
            else out.addAll(got);
        }
        depth.pop();
    }

    /** The file an include names, inside {@code root}; null when an attribute is undefined or the file is not there. */
    private static Path target(Path root, Path file, String name, Map<String, String> attributes) {
        String resolved = substitute(name, attributes);
        if (resolved == null) return null;
        Path target = file.getParent().resolve(resolved).normalize();
        return target.startsWith(root) && Files.isRegularFile(target) ? target : null;
    }

    /** {@code text} with its attribute references replaced; null when one is undefined. */
    private static String substitute(String text, Map<String, String> attributes) {
        if (text == null) return null;
        Matcher m = REFERENCE.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = attributes.get(m.group(1));
            if (v == null) return null;
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        return m.appendTail(sb).toString();
    }

    /** The lines an include of {@code target} with the attribute list {@code attrlist} takes; null when this cannot say. */
    static List<String> included(Path target, String attrlist) throws IOException {
        List<String> tags = tags(attrlist);
        if (tags == null) return null;
        List<String> all = lines(Files.readString(target, StandardCharsets.UTF_8));
        if (tags.isEmpty()) return all;
        try {
            return TaggedRegions.take(all, tags, target.toString());
        } catch (TaggedRegions.TagException e) {
            return null;                    // ReleaseNotes.unresolved names it, with the file's line
        }
    }

    /**
     * The tags an attribute list asks for, read as Asciidoctor reads them ({@link IncludeTags}):
     * none for the whole file; null for what this does not expand: an attribute other than
     * {@code tag} and {@code tags} (positional ones aside, which Asciidoctor ignores too), or tags
     * {@link IncludeTags#named} refuses ({@link ReleaseNotes#unresolved} says why).
     */
    static List<String> tags(String attrlist) {
        Map<String, String> attributes = AttributeList.parse(attrlist);
        for (String name : attributes.keySet()) {
            if (!name.equals("tag") && !name.equals("tags") && !POSITIONAL.matcher(name).matches()) return null;
        }
        try {
            return IncludeTags.of(attributes).named("");
        } catch (IncludeTags.Unsupported e) {
            return null;
        }
    }

    /** A file's lines as Asciidoctor reads them: a leading byte-order mark dropped, no line for the last newline. */
    static List<String> lines(String text) {
        if (text.startsWith("\uFEFF")) text = text.substring(1);
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\r?\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) lines.remove(lines.size() - 1);
        return lines;
    }

    private static boolean isAsciiDoc(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot >= 0 && ASCIIDOC.contains(name.substring(dot));
    }
}
