package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import vramlab.kit.ChapterLab;
import vramlab.kit.Citations;
import vramlab.kit.NotesSource;
import vramlab.kit.Chapters;
import vramlab.kit.IncludeTags;
import vramlab.kit.TaggedRegions;

/**
 * A release's notes, readable on their own: on GitHub (how a Classroom repository shows them),
 * in an editor's preview, or by {@code asciidoctor} run on the file, with no site build. In the
 * kit the notes' {@code :core:} (also {@code :sol:}, {@code :solutions:}) points at
 * {@code solutions/}, which a release lacks, {@code {generated}} (each step's worked example,
 * the printed outputs, the lab's run) is set by the site build alone, and a citation
 * {@code src:key[lines,function]} is a macro of the site's. So in each released chapter this
 * <ul>
 *   <li>points those attributes at the release's {@code labs/}: the same tagged regions, each
 *       graded step's body a {@code Todo} line, as the student edition of the site shows it;</li>
 *   <li>writes what the site build generates beside the notes ({@link NotesGenerated}: the
 *       worked examples, outputs and lab run in {@code generated/}, the figures in
 *       {@code figures/}), and sets {@code {generated}}, {@code {labout}} and
 *       {@code {lab-output}} to that folder;</li>
 *   <li>sets each {@code {link-chNN}} to the other chapter's notes in the release;</li>
 *   <li>makes each citation a plain link, by the site's rules and table ({@link Citations});</li>
 *   <li>expands every include into the notes ({@link NotesReducer}), from the files just written:
 *       GitHub expands none, and a student's edits to {@code labs/} (a deleted {@code tag::}
 *       comment) must not empty a listing. A file the notes folder held only to be included
 *       (a partial such as chapter 4's {@code triage.adoc}, the generated outputs) then goes:
 *       its text is in the notes. The figures stay in {@code figures/}.</li>
 * </ul>
 * The release's body check ({@code ReleaseCommand.shownIn}) reads the expanded notes.
 */
final class ReleaseNotes {
    private ReleaseNotes() {}

    /** The folder, beside a chapter's notes, that holds what the site build would generate. */
    static final String GENERATED = "generated";
    /** The reference cores, as the kit's notes name them from their folder. */
    static final String REFERENCE = "../../../../../solutions/src/main/java/vramlab";
    /** The release's cores as the student has them. */
    static final String LABS = "../../../../../labs/src/main/java/vramlab";
    private static final Pattern CHAPTER = Pattern.compile("ch(\\d\\d)-[a-z0-9-]+");

    /**
     * Makes the notes of every chapter under {@code dir/chapters} readable alone; {@code root} is
     * the kit that writes the release (its table of cited sources). Run it once the release's
     * {@code labs/} and chapters are written: the listings are read from them.
     */
    static void write(Path root, Path dir) throws IOException {
        prepare(root, dir);
        expand(dir);
    }

    /**
     * The notes as they read before their includes are expanded: the generated files written
     * beside them, the attributes set, the citations made links. Asciidoctor, run on these with
     * the release around them, renders what it renders from the expanded notes.
     */
    static void prepare(Path root, Path dir) throws IOException {
        Map<String, Citations.Source> sources = Citations.read(root);
        List<Path> all = chapters(dir);
        String links = links(all);
        for (Path ch : all) {
            Path docs = ch.resolve("src/docs/asciidoc");
            if (!Files.isDirectory(docs)) continue;
            String id = ch.getFileName().toString();
            ChapterLab lab = Chapters.all().stream().filter(l -> l.id().equals(id)).findFirst().orElse(null);
            if (lab != null) NotesGenerated.write(lab, docs.resolve(GENERATED), docs.resolve("figures"));
            List<Path> notes = adoc(docs, 1);
            for (Path f : adoc(docs, Integer.MAX_VALUE)) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                if (notes.contains(f)) text = standalone(text, links);
                Files.writeString(f, linked(text, sources), StandardCharsets.UTF_8);
            }
        }
    }

    /** Expands the includes of every chapter's notes under {@code dir} ({@link #reduce}). */
    static void expand(Path dir) throws IOException {
        for (Path ch : chapters(dir)) {
            Path docs = ch.resolve("src/docs/asciidoc");
            if (Files.isDirectory(docs)) reduce(dir, docs, adoc(docs, 1));
        }
    }

    /** The chapters' folders under {@code dir/chapters}, sorted; none when there is none. */
    private static List<Path> chapters(Path dir) throws IOException {
        Path chapters = dir.resolve("chapters");
        if (!Files.isDirectory(chapters)) return List.of();
        try (Stream<Path> s = Files.list(chapters)) {
            return s.filter(Files::isDirectory).sorted().toList();
        }
    }

    /** The {@code .adoc} files under {@code docs}, {@code depth} 1 for those directly in it; sorted. */
    private static List<Path> adoc(Path docs, int depth) throws IOException {
        try (Stream<Path> s = Files.walk(docs, depth)) {
            return s.filter(p -> p.toString().endsWith(".adoc") && Files.isRegularFile(p)).sorted().toList();
        }
    }

    /**
     * {@code text} with its code spans literal and each citation a link, as the site renders it
     * ({@link NotesSource}): {@code `requested <= allocated`} read alone would show an arrow.
     * A citation the table cannot make is left for {@link #unresolved} to name.
     */
    static String linked(String text, Map<String, Citations.Source> sources) {
        return Citations.eachProseLine(text, (n, line) -> {
            String literal = NotesSource.literalCode(line);
            try {
                return Citations.link(literal, sources, "");
            } catch (IllegalArgumentException e) {
                return literal;
            }
        });
    }

    /**
     * Expands the includes of the notes {@code notes} in {@code docs}; a notes file that another
     * includes, every file under {@code docs} one of them now holds, and {@link #GENERATED}, which
     * was written only to be included, are removed (then any folder left empty).
     */
    private static void reduce(Path dir, Path docs, List<Path> notes) throws IOException {
        Map<Path, String> reduced = new java.util.LinkedHashMap<>();
        Set<Path> inlined = new HashSet<>();
        for (Path f : notes) {
            NotesReducer.Reduced r = NotesReducer.reduce(dir, f, Files.readString(f, StandardCharsets.UTF_8));
            reduced.put(f.toAbsolutePath().normalize(), r.text());
            inlined.addAll(r.inlined());
        }
        Path home = docs.toAbsolutePath().normalize();
        for (Map.Entry<Path, String> e : reduced.entrySet()) {
            if (!inlined.contains(e.getKey())) Files.writeString(e.getKey(), e.getValue(), StandardCharsets.UTF_8);
        }
        Path generated = home.resolve(GENERATED);
        List<Path> gone;
        try (Stream<Path> s = Files.walk(home)) {
            gone = s.filter(p -> inlined.contains(p) && p.startsWith(home) || p.startsWith(generated)).toList();
        }
        for (Path f : gone) if (Files.isRegularFile(f)) Files.delete(f);
        List<Path> folders;
        try (Stream<Path> s = Files.walk(home)) {
            folders = s.filter(Files::isDirectory).sorted(java.util.Comparator.reverseOrder()).toList();
        }
        for (Path d : folders) {
            try (Stream<Path> s = Files.list(d)) {
                if (!d.equals(home) && s.findAny().isEmpty()) Files.delete(d);
            }
        }
    }

    /**
     * One notes file as a release shows it: the reference's path becomes {@code labs/}'s in its
     * attribute entries, and a document (one with a {@code = title}) gets the attributes the
     * site build would set, right under its title. A partial (no title) inherits them.
     */
    static String standalone(String text, String links) {
        List<String> out = new ArrayList<>();
        boolean header = true;
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) header = false;
            if (line.startsWith(":")) line = line.replace(REFERENCE, LABS);
            out.add(line);
            if (header && line.startsWith("= ")) {
                out.add("// In a release (./vramlab release): each include below was expanded when the release was written,"
                        + " from the cores as handed out and what the site build generates; citations are links.");
                out.add(":generated: " + GENERATED);
                out.add(":labout: " + GENERATED);
                out.add(":lab-output: " + GENERATED);
                out.addAll(links.lines().toList());
                header = false;
            }
        }
        return String.join("\n", out);
    }

    private static final Pattern ENTRY = Pattern.compile("^:([\\w-]+):\\s*(.*)$");
    private static final Pattern INCLUDE = Pattern.compile("^include::([^\\[]+)\\[(.*)]\\s*$");
    private static final Pattern REFERENCE_ATTR = Pattern.compile("\\{([a-z][a-z0-9-]*)}");
    private static final Pattern IMAGE = Pattern.compile("^image::([^\\[]+)\\[.*$");

    /**
     * What in the notes under {@code dir} a reader without the site cannot see, one line each
     * ({@code file:line: what}): an attribute used and not defined, an include outside {@code dir}
     * or not in it, a tag its file lacks, any other include (GitHub expands none, and a student's
     * edit could empty it: {@link #write} expands them all), or a citation left as text. Each
     * chapter's notes are read as Asciidoctor reads them: attribute entries in order, included
     * notes with the attributes of the notes that include them.
     */
    static List<String> unresolved(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        Path chapters = dir.resolve("chapters");
        if (!Files.isDirectory(chapters)) return out;
        List<Path> notes;
        try (Stream<Path> s = Files.list(chapters)) {
            notes = s.map(ch -> ch.resolve("src/docs/asciidoc").resolve(ch.getFileName() + ".adoc"))
                    .filter(Files::isRegularFile).sorted().toList();
        }
        for (Path n : notes) read(dir, n, new java.util.HashMap<>(), out);
        return out;
    }

    private static void read(Path dir, Path file, Map<String, String> attributes, List<String> out) throws IOException {
        String where = dir.relativize(file).toString().replace('\\', '/');
        Citations.eachProseLine(Files.readString(file, StandardCharsets.UTF_8), (n, line) -> {
            Matcher m = Citations.SRC.matcher(line);
            while (m.find()) {
                out.add(where + ":" + n + ": " + m.group() + " is not a link (release links a citation whose key is in "
                        + Citations.TABLE + " and whose lines are FIRST-LAST)");
            }
            return line;
        });
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("//")) continue;
            String at = where + ":" + (i + 1) + ": ";
            String text = substitute(line, attributes, at, out);
            Matcher entry = ENTRY.matcher(text);
            if (entry.matches()) {
                attributes.put(entry.group(1), entry.group(2).strip());
                continue;
            }
            Matcher image = IMAGE.matcher(text);
            if (image.matches() && !text.contains("{") && !Files.isRegularFile(file.getParent().resolve(image.group(1)))) {
                out.add(at + "image::" + image.group(1) + " is not in the release");
            }
            Matcher inc = INCLUDE.matcher(text);
            if (!inc.matches() || text.contains("{")) continue;
            Path target = file.getParent().resolve(inc.group(1)).normalize();
            if (!target.startsWith(dir)) {
                out.add(at + "include::" + inc.group(1) + " is outside the release");
            } else if (!Files.isRegularFile(target)) {
                out.add(at + "include::" + dir.relativize(target).toString().replace('\\', '/') + " is not in the release");
            } else {
                String rel = dir.relativize(target).toString().replace('\\', '/');
                String refused = refusedTag(target, rel, inc.group(2));
                out.add(at + "include::" + (refused != null ? refused : rel + " is not expanded into the notes (GitHub"
                        + " shows no include, and the student's copy of the file may change)"));
                if (target.toString().endsWith(".adoc")) read(dir, target, attributes, out);
            }
        }
    }

    /**
     * Why the tags an include's attribute list asks of {@code target} ({@code rel} in the release)
     * cannot be taken, as {@link TaggedRegions} says it (the file, the tag and its line) or as
     * {@link IncludeTags} refuses them (a wildcard, a negation, {@code lines=}); null when they can,
     * or when it asks for none.
     */
    private static String refusedTag(Path target, String rel, String attrlist) throws IOException {
        List<String> tags;
        try {
            tags = IncludeTags.parse(attrlist).named(rel);
        } catch (IncludeTags.Unsupported e) {
            return e.getMessage();
        }
        if (tags.isEmpty()) return null;
        try {
            TaggedRegions.select(NotesReducer.lines(Files.readString(target, StandardCharsets.UTF_8)), tags, rel);
            return null;
        } catch (TaggedRegions.TagException e) {
            return e.getMessage();
        }
    }

    /** {@code line} with its attribute references replaced; an undefined one is reported and left. */
    private static String substitute(String line, Map<String, String> attributes, String at, List<String> out) {
        Matcher m = REFERENCE_ATTR.matcher(line);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = attributes.get(m.group(1));
            if (v == null) out.add(at + "{" + m.group(1) + "} is not defined");
            m.appendReplacement(sb, Matcher.quoteReplacement(v == null ? m.group() : v));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** {@code :link-chNN: link:...[Chapter N]} for every chapter with notes, from a chapter's notes folder. */
    static String links(List<Path> chapters) {
        StringBuilder sb = new StringBuilder();
        for (Path ch : chapters) {
            String id = ch.getFileName().toString();
            Matcher m = CHAPTER.matcher(id);
            if (!m.matches() || !Files.isRegularFile(ch.resolve("src/docs/asciidoc/" + id + ".adoc"))) continue;
            sb.append(":link-ch").append(m.group(1)).append(": link:../../../../").append(id)
                    .append("/src/docs/asciidoc/").append(id).append(".adoc[Chapter ")
                    .append(Integer.parseInt(m.group(1))).append("]\n");
        }
        return sb.toString();
    }
}
