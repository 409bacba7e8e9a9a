package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NotesReducer} takes what Asciidoctor's include directive takes (Asciidoctor 2.0,
 * {@code reader.rb}, {@code preprocess_include_directive}; the user manual's "Include Content by
 * Tagged Regions"), and leaves alone what it cannot say. {@code ReleaseNotesRenderTest} (site,
 * {@code -Psite}) renders a whole release's notes both ways with Asciidoctor and compares them.
 */
class ReleaseNotesReducerTest {
    static final List<String> JAVA = List.of(
            "class A {",
            "    // tag::a[]",
            "    int x;",
            "    // tag::inner[]",
            "    int y;",
            "    // end::inner[]",
            "    // tag::b[]",
            "    int z;",
            "    // end::b[]",
            "    // end::a[]",
            "    // tag::a[]",
            "    int again;",
            "    // end::a[]",
            "}");

    @Test
    @DisplayName("a tag: every region of it, regions inside come along, no line with a tag directive of any name")
    void tagged() {
        assertThat(NotesReducer.tagged(JAVA, List.of("a"))).containsExactly("    int x;", "    int y;", "    int z;", "    int again;");
        assertThat(NotesReducer.tagged(JAVA, List.of("inner"))).containsExactly("    int y;");
        assertThat(NotesReducer.tagged(JAVA, List.of("inner", "b"))).containsExactly("    int y;", "    int z;");
    }

    @Test
    @DisplayName("a missing tag, an end that closes another, or a region left open: not expanded (Asciidoctor warns)")
    void taggedCannotSay() {
        assertThat(NotesReducer.tagged(JAVA, List.of("none"))).isNull();
        assertThat(NotesReducer.tagged(List.of("// tag::a[]", "x", "// tag::b[]", "// end::a[]", "// end::b[]"), List.of("a", "b")))
                .isNull();
        assertThat(NotesReducer.tagged(List.of("// tag::a[]", "x"), List.of("a"))).isNull();
        assertThat(NotesReducer.tagged(List.of("x // tag::a[] y", "z", "// end::a[]"), List.of("a"))).containsExactly("z");
        assertThat(NotesReducer.tagged(List.of("x // tag::a[]y", "// end::a[]"), List.of("a")))
                .as("a directive is one only before a space or the line's end").isNull();
    }

    @Test
    @DisplayName("the attribute list: tag, tags with ; (quoted or not); anything else is left to Asciidoctor")
    void attributes() {
        assertThat(NotesReducer.tags("")).isEmpty();
        assertThat(NotesReducer.tags("tag=find")).containsExactly("find");
        assertThat(NotesReducer.tags("tags=\"a;b\"")).containsExactly("a", "b");
        assertThat(NotesReducer.tags("tags=a;b")).containsExactly("a", "b");
        for (String other : List.of("lines=1..3", "tag=a,indent=0", "leveloffset=+1", "tags=*", "tags=**", "tag=!a", "tag=")) {
            assertThat(NotesReducer.tags(other)).as(other).isNull();
        }
    }

    @Test
    @DisplayName("a document: attributes in order, targets from the including file's folder, AsciiDoc includes expanded"
            + " in turn, anything it cannot expand left as it was")
    void document(@TempDir Path tmp) throws Exception {
        Path root = tmp.resolve("release");
        Path docs = Files.createDirectories(root.resolve("chapters/ch09/src/docs/asciidoc"));
        Path src = Files.createDirectories(root.resolve("labs/src"));
        Files.write(src.resolve("A.java"), JAVA);
        Files.createDirectories(docs.resolve("parts"));
        Files.writeString(docs.resolve("parts/part.adoc"), ":here: ../../../../../../labs/src\nPart.\ninclude::{here}/A.java[tag=b]\n");
        Files.writeString(docs.resolve("out.txt"), "\uFEFFline 1\r\nline 2\n");
        Files.writeString(tmp.resolve("outside.txt"), "outside\n");
        String doc = String.join("\n",
                "= Notes",
                ":core: ../../../../../labs/src",
                "include::{core}/A.java[tag=inner]",
                "include::{nope}/A.java[tag=inner]",
                "include::{core}/A.java[tag=none]",
                "include::{core}/A.java[lines=1..2]",
                "include::{core}/Missing.java[]",
                "include::../../../../../../outside.txt[]",
                "\\include::{core}/A.java[]",
                "////",
                "include::out.txt[]",
                "////",
                "....",
                "include::out.txt[]",
                "....",
                "include::parts/part.adoc[]",
                "Then {here}.",
                ":core!:",
                "include::{core}/A.java[tag=inner]",
                "");
        NotesReducer.Reduced r = NotesReducer.reduce(root, docs.resolve("notes.adoc"), doc);
        assertThat(r.text()).isEqualTo(String.join("\n",
                "= Notes",
                ":core: ../../../../../labs/src",
                "    int y;",
                "include::{nope}/A.java[tag=inner]",
                "include::{core}/A.java[tag=none]",
                "include::{core}/A.java[lines=1..2]",
                "include::{core}/Missing.java[]",
                "include::../../../../../../outside.txt[]",
                "\\include::{core}/A.java[]",
                "////",
                "include::out.txt[]",
                "////",
                "....",
                "line 1",
                "line 2",
                "....",
                ":here: ../../../../../../labs/src",
                "Part.",
                "    int z;",
                "Then {here}.",
                ":core!:",
                "include::{core}/A.java[tag=inner]",
                ""));
        assertThat(r.inlined()).containsExactlyInAnyOrder(src.resolve("A.java"), docs.resolve("out.txt"),
                docs.resolve("parts/part.adoc"));
    }
}
