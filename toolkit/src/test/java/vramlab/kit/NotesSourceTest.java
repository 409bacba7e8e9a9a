package vramlab.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;


@DisplayName("The notes' text before Asciidoctor sees it")
class NotesSourceTest {
    static final Map<String, Citations.Source> SOURCES = Map.of("cca", new Citations.Source("cca",
            "pytorch/pytorch", "001074d25084fdb87a799823e395a50f5ec044d3", "c10/cuda/CUDACachingAllocator.cpp"));

    @ParameterizedTest(name = "{0}  ->  {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            order: `requested <= allocated <= reserved`.  | order: `+requested <= allocated <= reserved+`.
            Linux's `__rmqueue_smallest()` and `x`        | Linux's `+__rmqueue_smallest()+` and `+x+`
            the message `can't allocate` ends             | the message `+can't allocate+` ends
            already `+literal+` stays                     | already `+literal+` stays
            a word`s` with a backtick inside is no span  | a word`s` with a backtick inside is no span
            """)
    @DisplayName("code spans become literal, so no replacement or formatting reaches them")
    void literal(String in, String out) {
        assertThat(NotesSource.prepare(in, SOURCES, "t")).isEqualTo(out);
    }

    @Test
    @DisplayName("listings, attribute entries and directives are left alone")
    void blocksUntouched() {
        String text = "[source,java]\n----\nString s = `x`;\n----\n:a: `b`\ninclude::x.java[tag=`y`]\n";
        assertThat(NotesSource.prepare(text, SOURCES, "t")).isEqualTo(text);
    }

    @Test
    @DisplayName("the code spans of a text are found as written, outside listings")
    void spans() {
        assertThat(NotesSource.codeSpans("a `x <= y` b\n----\n`no`\n----\n`__f()`")).containsExactly("x <= y", "__f()");
    }

    @Test
    @DisplayName("src:key[lines,function] links to the file at its commit, the lines highlighted")
    void citation() {
        String r = NotesSource.prepare("sorted so (src:cca[746-754,get_free_block]).", SOURCES, "t");
        assertThat(r).isEqualTo("sorted so (link:https://github.com/pytorch/pytorch/blob/"
                + "001074d25084fdb87a799823e395a50f5ec044d3/c10/cuda/CUDACachingAllocator.cpp#L746-L754["
                + "`+get_free_block+` in `+c10/cuda/CUDACachingAllocator.cpp+`, lines 746-754 "
                + "(pytorch/pytorch@001074d)]).");
        assertThat(NotesSource.prepare("src:cca[2463]", SOURCES, "t")).contains("#L2463[", ", line 2463 (");
        assertThat(NotesSource.prepare("src:cca[]", SOURCES, "t")).contains("CUDACachingAllocator.cpp[")
                .doesNotContain("#L");
    }

    @Test
    @DisplayName("a citation of an unknown source, or of lines that are not numbers, is an error naming the place")
    void badCitations() {
        assertThatThrownBy(() -> NotesSource.prepare("x\nsrc:nope[1-2]", SOURCES, "notes.adoc"))
                .hasMessageContaining("notes.adoc:2").hasMessageContaining("src:nope[]").hasMessageContaining("cca");
        assertThatThrownBy(() -> NotesSource.prepare("src:cca[lines 1-2]", SOURCES, "n.adoc"))
                .hasMessageContaining("n.adoc:1").hasMessageContaining("line numbers");
    }

    @Test
    @DisplayName("the kit's sources.tsv names every source with a full commit")
    void registry() throws IOException {
        var tsv = kitRoot().resolve(Citations.TABLE);
        Map<String, Citations.Source> s = Citations.parse(Files.readString(tsv), tsv.toString());
        assertThat(s).containsKey("cca");
        assertThat(s.get("cca").url("1-2")).startsWith("https://github.com/pytorch/pytorch/blob/001074d2");
        assertThatThrownBy(() -> Citations.parse("k\tpytorch/pytorch\tmain\tx.cpp\n", "s.tsv"))
                .hasMessageContaining("s.tsv:1").hasMessageContaining("40-hex");
    }

    /** The kit's top: surefire starts in {@code toolkit/}. */
    private static java.nio.file.Path kitRoot() {
        java.nio.file.Path p = java.nio.file.Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("chapters"))) p = p.getParent();
        if (p == null) throw new IllegalStateException("no chapters/ above " + java.nio.file.Path.of("").toAbsolutePath());
        return p;
    }
}
