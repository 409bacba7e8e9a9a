package vramlab.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The lines an include takes by tag, as Asciidoctor 2.0.23 takes them (the site's
 * {@code TaggedRegionsAsciidoctorTest} runs these cases through Asciidoctor itself, in the
 * grading-fixtures profile), and an error naming file, tag and line where Asciidoctor warns.
 */
@DisplayName("tagged regions, as an AsciiDoc include takes them")
class TaggedRegionsTest {
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

    static List<String> take(List<String> lines, String... tags) {
        return TaggedRegions.take(lines, List.of(tags), "F.java");
    }

    @Test
    @DisplayName("a tag: every region of it, regions inside come along, no line with a directive of any name")
    void regions() {
        assertThat(take(JAVA, "a")).containsExactly("    int x;", "    int y;", "    int z;", "    int again;");
        assertThat(take(JAVA, "inner")).containsExactly("    int y;");
        assertThat(take(JAVA, "b", "inner")).as("file order, not the order asked").containsExactly("    int y;", "    int z;");
        assertThat(take(JAVA, "a", "inner")).containsExactly("    int x;", "    int y;", "    int z;", "    int again;");
    }

    @Test
    @DisplayName("regions nest: a tag inside itself, other tags' directives (paired or not) inside a region")
    void nesting() {
        assertThat(take(List.of("// tag::a[]", "x", "// tag::a[]", "y", "// end::a[]", "z", "// end::a[]", "w"), "a"))
                .containsExactly("x", "y", "z");
        assertThat(take(List.of("// tag::a[]", "x", "// end::q[]", "// tag::r[]", "y", "// end::a[]", "z", "// end::r[]"), "a"))
                .containsExactly("x", "y");
        assertThat(take(List.of("x", "// tag::a[]", "// end::a[]", "y"), "a")).as("an empty region").isEmpty();
    }

    @Test
    @DisplayName("a directive in any comment style, after a word boundary, before a space or the line's end")
    void directives() {
        assertThat(take(List.of("# tag::a[]", "x", "# end::a[]", "<!-- tag::b[] -->", "y", "<!-- end::b[] -->",
                "/* tag::c[] */", "z", "/* end::c[] */"), "a", "b", "c")).containsExactly("x", "y", "z");
        assertThat(take(List.of("x // tag::a[] y", "z", "// end::a[]"), "a")).containsExactly("z");
        assertThat(take(List.of("// tag::step-3.1[]", "x", "// end::step-3.1[]"), "step-3.1")).containsExactly("x");
        assertThat(take(List.of("/** {@code // tag::x[]} */", "// tag::a[]", " * {@code end::a[]}", "x", "// end::a[]"), "a"))
                .as("a Javadoc mention is no directive").containsExactly(" * {@code end::a[]}", "x");
        assertThat(TaggedRegions.isDirective("    // end::round[]")).isTrue();
        assertThat(TaggedRegions.isDirective("x // tag::a[]y")).isFalse();
        assertThat(TaggedRegions.isDirective(" * {@code tag::a[]}")).isFalse();
    }

    @Test
    @DisplayName("where Asciidoctor warns, an error naming the file, the tag and the line")
    void errors() {
        assertThatThrownBy(() -> take(JAVA, "none")).isInstanceOf(TaggedRegions.TagException.class)
                .hasMessage("F.java: no tag::none[] in the file");
        assertThatThrownBy(() -> take(JAVA, "a", "none")).hasMessage("F.java: no tag::none[] in the file");
        assertThatThrownBy(() -> take(List.of("x", "// tag::a[]", "y"), "a"))
                .hasMessage("F.java:2: tag::a[] is never closed (no end::a[] after it)");
        assertThatThrownBy(() -> take(List.of("x", "// end::a[]", "// tag::a[]", "y", "// end::a[]"), "a"))
                .hasMessage("F.java:2: end::a[] without tag::a[] open before it");
        assertThatThrownBy(() -> take(List.of("x // tag::a[]y", "// end::a[]"), "a"))
                .as("no directive when something follows the brackets").hasMessageStartingWith("F.java:2: end::a[] without");
        assertThatThrownBy(() -> take(List.of("// tag::a[]", "x", "// tag::b[]", "// end::a[]", "y", "// end::b[]"), "a", "b"))
                .hasMessage("F.java:4: end::a[] inside the region of tag::b[] (line 3), which it does not close:"
                        + " regions must nest");
    }
}
