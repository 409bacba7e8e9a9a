package vramlab.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An include's tags read as Asciidoctor 2.0.23 reads them (the site's
 * {@code IncludeTagsAsciidoctorTest} runs these attribute lists through Asciidoctor itself, in
 * the grading-fixtures profile), and the kit's refusal of what it does not take.
 */
@DisplayName("an include's tags")
class IncludeTagsTest {
    /** {@code a,b-}: tag a taken, tag b left out; {@code -} alone: the whole file. */
    static String asked(String attrlist) {
        Map<String, Boolean> asked = IncludeTags.parse(attrlist).asked();
        if (asked.isEmpty()) return "-";
        return asked.entrySet().stream().map(e -> e.getKey() + (e.getValue() ? "" : "-"))
                .collect(Collectors.joining(" "));
    }

    @Nested
    @DisplayName("given an attribute list, the tags asked for are Asciidoctor's")
    class Asked {
        @ParameterizedTest(name = "[{0}] -> {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
                tag=a                  | a
                tag=a;b                | a;b
                tag=a,b                | a
                tag="a,b"              | a,b
                tags=a;b               | a b
                tags="a,b"             | a b
                tags='a;c'             | a c
                tags=a,b               | a
                tags="a;b,c"           | a;b c
                tags=a;;c;             | a c
                tags=a;a               | a
                `tags = a ; b `        | `a   b`
                tags=                  | -
                tag=!                  | -
                tag=None               | -
                `tag=a, tags=b`        | a
                `tags=b, tag=a`        | a
                `opts=optional, tag=a` | a
                tag=!a                 | a-
                tags=**;!b             | ** b-
                tags=a;!a              | a-
                tags=!a;a              | a
                `lines=2..3, tag=a`    | -
                """)
        void asAsciidoctor(String attrlist, String expected) {
            assertThat(asked(attrlist)).isEqualTo(expected);
        }
    }

    @Nested
    @DisplayName("the kit takes a whole file or tags by name")
    class Named {
        @ParameterizedTest(name = "[{0}] -> {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
                tag=split              | split
                tags=expandable        | expandable
                tags=split;merge       | split,merge
                tags="split,merge"     | split,merge
                tags=merge;split;merge | merge,split
                ``                     | ``
                indent=0               | ``
                """)
        void named(String attrlist, String expected) {
            assertThat(String.join(",", IncludeTags.parse(attrlist).named("F.java"))).isEqualTo(expected);
        }

        @ParameterizedTest(name = "[{0}]")
        @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
                tags=**;!hidden     | F.java[tags=**;!hidden]: the kit takes a whole file or tags by name (tag=x, tags=x;y or tags="x,y"), not Asciidoctor's wildcards (*, **) or negations (!x): '**'
                tag=!a              | F.java[tag=!a]: the kit takes a whole file or tags by name (tag=x, tags=x;y or tags="x,y"), not Asciidoctor's wildcards (*, **) or negations (!x): '!a'
                tags=*              | '*'
                `lines=1..4, tag=a` | F.java[lines=1..4]: the kit takes a whole file or tags by name (tag=x, tags=x;y or tags="x,y"), not lines (Asciidoctor takes lines= before any tag)
                `tags="a, b"`       | F.java[tags="a, b"]: the tag ' b' holds a space, which no tag::NAME[] can (Asciidoctor splits tags= at each comma or semicolon and keeps the spaces): write tags=x;y or tags="x,y"
                """)
        @DisplayName("and refuses, naming the include, what else Asciidoctor takes")
        void refused(String attrlist, String message) {
            assertThatThrownBy(() -> IncludeTags.parse(attrlist).named("F.java"))
                    .isInstanceOf(IncludeTags.Unsupported.class).hasMessageEndingWith(message);
        }
    }

    @Nested
    @DisplayName("given an attribute list, the attributes are Asciidoctor's")
    class Attributes {
        @ParameterizedTest(name = "[{0}] -> {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
                tags=a,b                 | {tags=a, 2=b}
                `x="a \\" b", y='c'`     | {x=a " b, y=c}
                `source, shell`          | {1=source, 2=shell}
                `x=1 , y = 2 `           | {x=1, y=2}
                `x="open`                | {x="open}
                `opts="a, b",x=None`     | {a-option=, b-option=}
                `a b c`                  | {1=a b c}
                """)
        void asAsciidoctor(String attrlist, String expected) {
            assertThat(AttributeList.parse(attrlist)).hasToString(expected);
        }
    }
}
