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
 * Tagged Regions"), and leaves alone what it cannot say. Which lines a tag takes is
 * {@code vramlab.kit.TaggedRegions}'s rule, the site's too (its own tests, in the toolkit). {@code ReleaseNotesRenderTest} (site,
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
    @DisplayName("the attribute list, read as Asciidoctor reads it: tag (never split), tags split at , if quoted"
            + " with one, else at ;; other attributes and what the kit does not take are left as includes")
    void attributes() {
        assertThat(NotesReducer.tags("")).isEmpty();
        assertThat(NotesReducer.tags("tag=")).as("Asciidoctor: the whole file").isEmpty();
        assertThat(NotesReducer.tags("tag=find")).containsExactly("find");
        assertThat(NotesReducer.tags("tag=a;b")).as("tag= names one tag").containsExactly("a;b");
        assertThat(NotesReducer.tags("tags=\"a;b\"")).containsExactly("a", "b");
        assertThat(NotesReducer.tags("tags=\"a,b\"")).containsExactly("a", "b");
        assertThat(NotesReducer.tags("tags=a;b")).containsExactly("a", "b");
        assertThat(NotesReducer.tags("tags=a,b")).as("unquoted, b is a positional attribute").containsExactly("a");
        for (String other : List.of("lines=1..3", "tag=a,indent=0", "leveloffset=+1", "tags=*", "tags=**", "tag=!a")) {
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

    @Test
    @DisplayName("a tag the shared rule refuses (left open, ends out of order) or tags the kit does not take (a"
            + " wildcard) are left as an include, and the release's check names the file, the tag and its line")
    void refusedTagNamed(@TempDir Path dir) throws Exception {
        Path docs = Files.createDirectories(dir.resolve("chapters/ch09-x/src/docs/asciidoc"));
        Path src = Files.createDirectories(dir.resolve("labs/src"));
        Files.write(src.resolve("A.java"), List.of("class A {", "    // tag::open[]", "    int x;", "}"));
        Files.write(src.resolve("B.java"), List.of("// tag::a[]", "x", "// tag::b[]", "// end::a[]", "// end::b[]"));
        Path notes = docs.resolve("ch09-x.adoc");
        List<String> doc = List.of("= Chapter 9", ":core: ../../../../../labs/src",
                "include::{core}/A.java[tag=open]", "include::{core}/B.java[tags=a;b]", "include::{core}/B.java[tag=a]",
                "include::{core}/B.java[tags=**;!b]");
        Files.write(notes, doc);
        NotesReducer.Reduced r = NotesReducer.reduce(dir, notes, Files.readString(notes));
        assertThat(r.text().lines()).containsExactly(doc.get(0), doc.get(1), doc.get(2), doc.get(3), "x", doc.get(5));
        Files.writeString(notes, r.text());
        String at = "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:";
        assertThat(ReleaseNotes.unresolved(dir)).containsExactly(
                at + "3: include::labs/src/A.java:2: tag::open[] is never closed (no end::open[] after it)",
                at + "4: include::labs/src/B.java:4: end::a[] inside the region of tag::b[] (line 3), which it does not"
                        + " close: regions must nest",
                at + "6: include::labs/src/B.java[tags=**;!b]: the kit takes a whole file or tags by name (tag=x,"
                        + " tags=x;y or tags=\"x,y\"), not Asciidoctor's wildcards (*, **) or negations (!x): '**'");
    }
}
