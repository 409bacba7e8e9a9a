package vramlab.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.asciidoctor.ast.Document;
import org.asciidoctor.extension.IncludeProcessor;
import org.asciidoctor.extension.PreprocessorReader;

import vramlab.kit.NotesSource;
import vramlab.kit.Citations;

/**
 * The site's include handling, for one edition: a Java include becomes the listing
 * {@link JavaListing} makes of its tags (markers gone, graded bodies kept for instructors only,
 * Javadoc rendered, dedented); an AsciiDoc include (a partial of the notes) gets the same
 * {@link NotesSource} rewrites as the page that includes it. Other files (the lab's output)
 * are included as Asciidoctor includes them.
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
            out = target.endsWith(".java")
                    ? JavaListing.render(text, file.toString(), tags(attributes), indent(attributes), edition,
                            this::placeholder)
                    : NotesSource.prepare(text, sources, file.toString());
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

    static List<String> tags(Map<String, Object> attributes) {
        List<String> out = new ArrayList<>();
        for (String key : List.of("tag", "tags")) {
            Object v = attributes.get(key);
            if (v == null) continue;
            for (String t : v.toString().split("[;,]")) if (!t.isBlank()) out.add(t.trim());
        }
        return out;
    }

    static int indent(Map<String, Object> attributes) {
        Object v = attributes.get("indent");
        return v == null ? -1 : Integer.parseInt(v.toString().trim());
    }
}
