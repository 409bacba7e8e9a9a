package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import org.asciidoctor.ast.Document;
import org.asciidoctor.ast.StructuralNode;
import org.asciidoctor.log.Severity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import vramlab.kit.TaggedRegions;

/**
 * {@link TaggedRegions}, the one rule the site's listings and a release's notes take tagged
 * regions by, beside plain Asciidoctor (AsciidoctorJ's, the site's renderer) including the same
 * file with the same tags: where Asciidoctor includes lines without a warning, the same lines;
 * where it warns (and includes what it can), an error naming the tag and the line Asciidoctor
 * names. The cases are those the two finders it replaced both handled ({@code NotesReducer}'s and
 * {@code JavaListing}'s), and the directive forms only Asciidoctor's own rule accepts. JRuby takes
 * seconds to start: in the grading-fixtures profile.
 */
@Tag("grading-fixtures")
@DisplayName("tagged regions as Asciidoctor includes them")
class TaggedRegionsAsciidoctorTest {
    @TempDir static Path dir;
    static Asciidoctor asciidoctor;
    static final List<String> warnings = new ArrayList<>();

    @BeforeAll
    static void start() {
        asciidoctor = Asciidoctor.Factory.create();
        asciidoctor.registerLogHandler(r -> {
            if (r.getSeverity().ordinal() >= Severity.WARN.ordinal()) warnings.add(r.getMessage());
        });
    }

    @AfterAll
    static void stop() {
        if (asciidoctor != null) asciidoctor.close();
    }

    record Case(String name, String tags, List<String> file) {
        @Override
        public String toString() { return name + " [tags=" + tags + "]"; }
    }

    static List<Case> cases() {
        List<String> nested = List.of(
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
        return List.of(
                new Case("a tag: each region, those inside come along, no directive line", "a", nested),
                new Case("a tag inside another", "inner", nested),
                new Case("two tags, in file order whatever the order asked", "b;inner", nested),
                new Case("a tag inside one asked for, both asked", "a;inner", nested),
                new Case("a tag the file lacks", "none", nested),
                new Case("one of two tags the file lacks", "a;none", nested),
                new Case("a region never closed", "a", List.of("// tag::a[]", "x")),
                new Case("an end with no tag before it", "a", List.of("x", "// end::a[]", "// tag::a[]", "y", "// end::a[]")),
                new Case("regions that overlap without nesting", "a;b",
                        List.of("// tag::a[]", "x", "// tag::b[]", "// end::a[]", "y", "// end::b[]")),
                new Case("the same tag nested in itself", "a",
                        List.of("// tag::a[]", "x", "// tag::a[]", "y", "// end::a[]", "z", "// end::a[]", "w")),
                new Case("other tags' directives, paired or not, inside a region", "a",
                        List.of("// tag::a[]", "x", "// end::q[]", "// tag::r[]", "y", "// end::a[]", "z", "// end::r[]")),
                new Case("a name with dots and dashes", "step-3.1",
                        List.of("// tag::step-3.1[]", "x", "// end::step-3.1[]")),
                new Case("a directive after code, before a space", "a", List.of("x // tag::a[] y", "z", "// end::a[]")),
                new Case("no directive when something follows the brackets", "a", List.of("x // tag::a[]y", "// end::a[]")),
                new Case("other comment styles", "a;b;c",
                        List.of("# tag::a[]", "x", "# end::a[]", "<!-- tag::b[] -->", "y", "<!-- end::b[] -->",
                                "/* tag::c[] */", "z", "/* end::c[] */")),
                new Case("an empty region", "a", List.of("x", "// tag::a[]", "// end::a[]", "y")),
                new Case("a Javadoc mention is no directive", "a",
                        List.of("/** {@code // tag::x[]} */", "// tag::a[]", " * {@code end::a[]}", "x", "// end::a[]")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void sameAsAsciidoctor(Case c) throws Exception {
        Path file = dir.resolve("F.java");
        Files.write(file, c.file());
        warnings.clear();
        Document doc = asciidoctor.load("[source]\n----\ninclude::F.java[tags=" + c.tags() + "]\n----\n",
                Options.builder().safe(SafeMode.UNSAFE).baseDir(dir.toFile()).build());
        List<StructuralNode> listings = doc.findBy(Map.of("context", ":listing"));
        assertThat(listings).hasSize(1);
        List<String> included = ((org.asciidoctor.ast.Block) listings.get(0)).getLines();
        List<String> asked = List.of(c.tags().split(";"));
        TaggedRegions.TagException thrown = null;
        List<String> taken = null;
        try {
            taken = TaggedRegions.take(c.file(), asked, "F.java");
        } catch (TaggedRegions.TagException e) {
            thrown = e;
        }
        if (warnings.isEmpty()) {
            assertThat(thrown).as("Asciidoctor included it with no warning").isNull();
            assertThat(taken).as("the lines Asciidoctor included").isEqualTo(included);
            return;
        }
        assertThat(thrown).as("Asciidoctor warned: " + warnings).isNotNull();
        String warning = warnings.get(0);
        Matcher tag = Pattern.compile("(?:found|tags?) '([^',]+)'").matcher(warning);
        assertThat(tag.find()).as(warning).isTrue();
        assertThat(thrown.getMessage()).as("the tag Asciidoctor names in '%s'", warning)
                .contains("::" + tag.group(1) + "[]").startsWith("F.java");
        Matcher line = Pattern.compile("at line (\\d+)").matcher(warning);
        if (line.find()) {
            assertThat(thrown.getMessage()).as("the line Asciidoctor names in '%s'", warning)
                    .startsWith("F.java:" + line.group(1) + ": ");
        }
    }
}
