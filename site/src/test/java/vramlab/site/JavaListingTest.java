package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("A Java listing in the notes")
class JavaListingTest {
    static final String SOURCE = """
            package x;

            public final class P {
                // tag::round[]
                /**
                 * Rounds {@code requested} up: see {@link Bytes#alignUp(long, long)} and
                 * {@link #poolFor the pool}.
                 *
                 * <p>Small requests use 512 B steps; &lt;= 1 MiB is small.
                 */
                @Override
                public long roundSize(long requested) {
                    // lab:begin 3.1 "Round a request" see ch03 "Rule 1"
                    if (requested <= SMALL_SIZE) return alignUp(requested, MIN_BLOCK);
                    return alignUp(requested, LARGE_STEP);
                    // lab:end
                }
                // end::round[]

                // tag::pool[]
                public PoolKind poolFor(long rounded) {
                    return rounded <= SMALL_SIZE ? PoolKind.SMALL : PoolKind.LARGE;
                }
                // end::pool[]
            }
            """;

    static String render(List<String> tags, Edition e) {
        return JavaListing.render(SOURCE, "P.java", tags, -1, e, id -> "// step " + id + ": you write this");
    }

    @Nested
    @DisplayName("in the student edition")
    class Student {
        @Test
        @DisplayName("shows the step's contract and one line for its body, at the body's indentation")
        void contractNotBody() {
            String r = render(List.of("round"), Edition.STUDENT);
            assertThat(r).contains("public long roundSize(long requested) {",
                    "    // step 3.1: you write this\n}");
            assertThat(r).doesNotContain("alignUp(requested", "lab:begin", "lab:end");
        }

        @Test
        @DisplayName("a tag that opens inside a step's body still shows only the step's line")
        void tagInsideBody() {
            String src = """
                    long f() {
                        // lab:begin 2.1 "F" see ch02 "F"
                        // tag::inner[]
                        return secret();
                        // end::inner[]
                        // lab:end
                    }
                    """;
            String r = JavaListing.render(src, "F.java", List.of("inner"), -1, Edition.STUDENT, id -> "// step " + id);
            assertThat(r).isEqualTo("// step 2.1");
        }
    }

    @Nested
    @DisplayName("in the instructor edition")
    class Instructor {
        @Test
        @DisplayName("shows the reference body, without the markers")
        void body() {
            String r = render(List.of("round"), Edition.INSTRUCTOR);
            assertThat(r).contains("    if (requested <= SMALL_SIZE) return alignUp(requested, MIN_BLOCK);")
                    .doesNotContain("lab:begin", "lab:end", "you write this");
        }
    }

    @Test
    @DisplayName("is dedented, without tag lines, and shows code outside any step in full in both editions")
    void dedentedWithoutTags() {
        for (Edition e : Edition.values()) {
            assertThat(render(List.of("pool"), e)).isEqualTo("""
                    public PoolKind poolFor(long rounded) {
                        return rounded <= SMALL_SIZE ? PoolKind.SMALL : PoolKind.LARGE;
                    }""");
        }
    }

    @Test
    @DisplayName("shows two tags in file order, and indent=N indents the dedented listing")
    void twoTagsAndIndent() {
        String r = JavaListing.render(SOURCE, "P.java", List.of("pool", "round"), 2, Edition.STUDENT, id -> "// s");
        assertThat(r).startsWith("  /**").contains("  public PoolKind poolFor").doesNotContain("tag::", "end::");
        assertThat(r.indexOf("roundSize")).isLessThan(r.indexOf("poolFor"));
    }

    @Test
    @DisplayName("renders Javadoc as plain text: inline tags unwrapped, HTML dropped, entities decoded")
    void javadoc() {
        String r = render(List.of("round"), Edition.STUDENT);
        assertThat(r).contains(" * Rounds requested up: see Bytes.alignUp and",
                " * the pool.", " * Small requests use 512 B steps; <= 1 MiB is small.");
        assertThat(r).doesNotContain("{@", "<p>", "&lt;");
    }

    @ParameterizedTest(name = "'{0}' reads ''{1}''")
    @CsvSource(delimiter = '|', textBlock = """
            A#b(int)           | A.b
            #poolFor           | poolFor
            A#b(int, long) the rule | the rule
            CachingAllocator   | CachingAllocator
            """)
    @DisplayName("a {@link} reads as its label, or as Class.member")
    void links(String body, String text) {
        assertThat(JavaListing.linkText(body)).isEqualTo(text);
    }

    @Test
    @DisplayName("a tag that is not in the file, or never closed, is an error naming the file")
    void badTags() {
        assertThatThrownBy(() -> render(List.of("nope"), Edition.STUDENT)).hasMessageContaining("P.java")
                .hasMessageContaining("no tag::nope[]");
        assertThatThrownBy(() -> JavaListing.render("// tag::a[]\nx\n", "Q.java", List.of("a"), -1, Edition.STUDENT,
                id -> "")).hasMessageContaining("Q.java").hasMessageContaining("never closed");
    }

    @Test
    @DisplayName("takes a tag's regions as Asciidoctor and a release's notes do: a region nested in its own tag, a"
            + " directive after code; regions that overlap without nesting are an error naming file, tag and line")
    void regionsAsTheReleaseTakesThem() {
        String nested = "// tag::a[]\nint x;\n// tag::a[]\nint y;\n// end::a[]\nint z;\n// end::a[]\nint w;\n";
        assertThat(JavaListing.render(nested, "N.java", List.of("a"), -1, Edition.STUDENT, id -> ""))
                .isEqualTo("int x;\nint y;\nint z;");
        assertThat(JavaListing.render("int v; // tag::a[] v\nint x;\n/* end::a[] */\nint y;\n", "C.java", List.of("a"), -1,
                Edition.STUDENT, id -> "")).isEqualTo("int x;");
        assertThatThrownBy(() -> JavaListing.render("// tag::a[]\nx\n// tag::b[]\n// end::a[]\ny\n// end::b[]\n", "O.java",
                List.of("a", "b"), -1, Edition.STUDENT, id -> "")).hasMessageStartingWith("O.java:4: end::a[] inside the"
                        + " region of tag::b[] (line 3)");
    }

    @Nested
    @DisplayName("with a reference-only shortcut region (// lab:shortcut, the lab generator's marker)")
    class Shortcut {
        static final String SRC = """
                final class W {
                    // tag::run[]
                    // lab:shortcut begin
                    // labs: /** Runs your step 3.5, every time. */
                    /** The shortcut: releases the same blocks without the walk. */
                    // lab:shortcut end
                    void run() {
                        // lab:shortcut begin
                        // labs: release.releaseWholeFreeSegments();
                        if (wholeCached.isEmpty()) return;
                        releaseCachedWholeBlocks();
                        // lab:shortcut end
                    }
                    // end::run[]
                }
                """;

        @Test
        @DisplayName("the student edition shows it as labs/ has it: its labs lines, uncommented")
        void studentSeesLabs() {
            assertThat(JavaListing.render(SRC, "W.java", List.of("run"), -1, Edition.STUDENT, id -> "// step " + id))
                    .isEqualTo("""
                            /** Runs your step 3.5, every time. */
                            void run() {
                                release.releaseWholeFreeSegments();
                            }""");
        }

        @Test
        @DisplayName("the instructor edition shows the reference, without the markers or the labs lines")
        void instructorSeesReference() {
            assertThat(JavaListing.render(SRC, "W.java", List.of("run"), -1, Edition.INSTRUCTOR, id -> "// step " + id))
                    .isEqualTo("""
                            /** The shortcut: releases the same blocks without the walk. */
                            void run() {
                                if (wholeCached.isEmpty()) return;
                                releaseCachedWholeBlocks();
                            }""");
        }

        @Test
        @DisplayName("every core file with a shortcut: the student listing is the lab generator's labs/ file, line for line")
        void sameAsLabgen() throws java.io.IOException {
            java.nio.file.Path solutions = Repo.root().resolve("solutions");
            java.util.Map<String, String> labs = vramlab.labgen.LabGenerator.generate(solutions);
            java.util.regex.Pattern todo = java.util.regex.Pattern.compile("^(\\s*)throw new vramlab\\.lab\\.Todo\\(\"(\\d+\\.\\d+)\".*$");
            int files = 0;
            for (String rel : new java.util.TreeSet<>(labs.keySet())) {
                if (!rel.endsWith(".java")) continue;
                String source = java.nio.file.Files.readString(solutions.resolve(rel));
                if (!source.contains("// lab:shortcut begin")) continue;
                files++;
                assertThat(labs.get(rel)).as("labs/" + rel + ", as the lab generator writes it").doesNotContain("lab:shortcut");
                StringBuilder generated = new StringBuilder();   // a step's Todo line as the listing's placeholder
                for (String line : labs.get(rel).split("\n", -1)) {
                    java.util.regex.Matcher m = todo.matcher(line);
                    generated.append(m.matches() ? m.group(1) + "// step " + m.group(2) : line).append('\n');
                }
                assertThat(JavaListing.render(source, rel, List.of(), -1, Edition.STUDENT, id -> "// step " + id))
                        .as(rel).isEqualTo(JavaListing.render(generated.toString(), rel, List.of(), -1, Edition.STUDENT,
                                id -> "// step " + id));
                assertThat(JavaListing.render(source, rel, List.of(), -1, Edition.INSTRUCTOR, id -> "// step " + id))
                        .as(rel).doesNotContain("lab:shortcut", "// labs:");
            }
            assertThat(files).as("core files with a shortcut region").isGreaterThanOrEqualTo(3);
        }
    }
}
