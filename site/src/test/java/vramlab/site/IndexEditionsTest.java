package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The course page ({@code site/src/site/index.adoc}) as each edition reads it. The student
 * edition is what a release ships as {@code docs/index.html}, and a release has no
 * {@code slides/} and refuses {@code ./vramlab site} and {@code slides}: those belong to the
 * instructor edition only, which the renderer selects with {@code vramlab-edition} ({@link Renderer}).
 * Read here from the source, as Asciidoctor's preprocessor does for these two conditionals; the
 * rendered pages are checked under {@code -Psite} ({@link RenderedSiteTest}).
 */
class IndexEditionsTest {
    static final String INSTRUCTOR_ONLY = "ifeval::[\"{vramlab-edition}\" == \"instructor\"]";
    static final String STUDENT_ONLY = "ifeval::[\"{vramlab-edition}\" != \"instructor\"]";

    /** The lines of index.adoc that {@code edition} renders (comments left out). */
    static String asRead(Edition edition) throws IOException {
        List<String> out = new ArrayList<>();
        String only = null;
        for (String line : Files.readAllLines(Repo.root().resolve("site/src/site/index.adoc"))) {
            if (line.equals(INSTRUCTOR_ONLY) || line.equals(STUDENT_ONLY)) {
                only = line.equals(INSTRUCTOR_ONLY) ? "instructor" : "student";
            } else if (line.equals("endif::[]")) {
                only = null;
            } else if (line.startsWith("//")) {
                continue;                       // a comment: not rendered
            } else if (only == null || only.equals(edition.id())) {
                out.add(line);
            }
        }
        return String.join("\n", out);
    }

    @Test
    @DisplayName("the student edition names nothing a release lacks: no slides/ sources, no site or slides command")
    void studentEdition() throws IOException {
        String student = asRead(Edition.STUDENT);
        assertThat(student).doesNotContain("For instructors").doesNotContain("slides/").doesNotContain("./vramlab slides")
                .doesNotContain("./vramlab site").doesNotContain("--instructor").contains("== Slides and steps");
    }

    @Test
    @DisplayName("the instructor edition says where the decks' sources are and how each edition is built")
    void instructorEdition() throws IOException {
        String instructor = asRead(Edition.INSTRUCTOR);
        assertThat(instructor).contains("== For instructors").contains("slides/chNN-slug.adoc").contains("./vramlab site --instructor")
                .contains("./vramlab release").doesNotContain("== Slides and steps");
    }
}
