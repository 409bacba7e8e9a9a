package vramlab.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.asciidoctor.ast.Document;
import org.asciidoctor.extension.IncludeProcessor;
import org.asciidoctor.extension.PreprocessorReader;

import vramlab.kit.Citations;
import vramlab.kit.IncludeTags;
import vramlab.kit.NotesSource;
import vramlab.kit.TaggedRegions;

/**
 * The site's include handling, for one edition: a Java include becomes the listing
 * {@link JavaListing} makes of its tags (markers gone, graded bodies kept for instructors only,
 * Javadoc rendered, dedented); an AsciiDoc include (a partial of the notes), its tags' regions
 * if it asks for any, gets the same {@link NotesSource} rewrites as the page that includes it.
 * Tags are read and taken as Asciidoctor reads and takes them ({@link IncludeTags},
 * {@link TaggedRegions}); those the kit does not take (a wildcard, a negation, {@code lines=})
 * are a problem, as a tag the file lacks. Other files (the lab's output) are included as
 * Asciidoctor includes them.
 */
final class ListingIncludes extends IncludeProcessor {
    private final Edition edition;
    private final GradedSteps steps;
    private final Map<String, Citations.Source> sources;
    private final List<String> problems;

    ListingIncludes(Edition edition, GradedSteps steps, Map<String, Citations.Source> sources, List<String> problems) {
        this.edition = edition;
        this.steps = steps;
        this.sources = sources;
        this.problems = problems;
    }

    @Override
    public boolean handles(String target) {
        return target.endsWith(".java") || target.endsWith(".adoc");
    }

    @Override
    public void process(Document document, PreprocessorReader reader, String target, Map<String, Object> attributes) {
        Path file = Path.of(reader.getDir()).resolve(target).normalize();
        String where = reader.getFile() + ":" + reader.getLineNumber();
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            problems.add(where + ": cannot read include " + file + ": " + e);
            return;
        }
        String out;
        try {
            List<String> tags = IncludeTags.of(attributes).named("include::" + target);
            out = target.endsWith(".java")
                    ? JavaListing.render(text, file.toString(), tags, indent(attributes), edition, this::placeholder)
                    : NotesSource.prepare(tagged(text, tags, file.toString()), sources, file.toString());
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage());
            return;
        }
        reader.pushInclude(out, file.toString(), target, 1, attributes);
    }

    private String placeholder(String id) {
        GradedSteps.Step s = steps.get(id);
        return s != null ? s.placeholder() : "// step " + id + ": you write this";
    }

    /**
     * The lines of a partial's {@code tags} as Asciidoctor includes them ({@link TaggedRegions});
     * all of {@code text} when none is asked for.
     */
    static String tagged(String text, List<String> tags, String file) {
        if (tags.isEmpty()) return text;
        List<String> lines = TaggedRegions.take(text.lines().toList(), tags, file);
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }

    static int indent(Map<String, Object> attributes) {
        Object v = attributes.get("indent");
        return v == null ? -1 : Integer.parseInt(v.toString().trim());
    }
}
