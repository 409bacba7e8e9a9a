package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The notes' rules, on fixtures laid out as a chapter, beside a copy of ch04's real source. */
@DisplayName("Notes lint")
class NotesLintTest {
    @TempDir Path repo;
    Path docs;

    @BeforeEach
    void chapter() throws IOException {
        Path ch = repo.resolve("chapters/ch04-real-oom");
        docs = Files.createDirectories(ch.resolve("src/docs/asciidoc"));
        Path java = Files.createDirectories(ch.resolve("src/main/java/vramlab/ch04"));
        Files.copy(Repo.root().resolve("chapters/ch04-real-oom/src/main/java/vramlab/ch04/RealOomLab.java"),
                java.resolve("RealOomLab.java"));
    }

    List<NotesLint.Problem> lint(String fixture) throws IOException {
        Path adoc = docs.resolve(fixture);
        try (InputStream in = getClass().getResourceAsStream("/fixtures/" + fixture)) {
            Files.copy(in, adoc);
        }
        return NotesLint.check(adoc, repo);
    }

    @Test
    @DisplayName("notes whose listings are tagged includes of tested source pass; shell commands may be typed")
    void goodNotesPass() throws IOException {
        assertThat(lint("ch04-real-oom.adoc")).isEmpty();
    }

    @ParameterizedTest(name = "{0}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            pasted-listing.adoc | 5 | a listing is pasted in (block opened on line 4)
            missing-tag.adoc    | 5 | chapters/ch04-real-oom/src/main/java/vramlab/ch04/RealOomLab.java: no tag::no-such-tag[] in the file
            missing-file.adoc   | 5 | include target does not exist: ../../main/java/vramlab/ch04/NoSuchLab.java
            untagged-java.adoc  | 5 | a Java include must name a tag
            literal-paragraph.adoc | 5 | an indented (literal) paragraph is pasted in
            unmarked-command.adoc  | 6 | a command in a block not marked as shell (block opened on line 5)
            """)
    @DisplayName("a broken rule is reported with its file and line")
    void brokenRules(String fixture, int line, String message) throws IOException {
        List<NotesLint.Problem> problems = lint(fixture);
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0).line()).isEqualTo(line);
        assertThat(problems.get(0).toString()).contains(fixture + ":" + line + ": " + message);
    }

    @Test
    @DisplayName("font icons, math and remote images are refused (they load from the network), and so is imagesdir")
    void networkIsRefused() throws IOException {
        assertThat(lint("network.adoc")).extracting(NotesLint.Problem::line).containsExactly(2, 3, 4, 6);
    }

    @Test
    @DisplayName("an image's alt text with a comma is quoted, or Asciidoctor makes its rest the width and height")
    void imageAltWithAComma() throws IOException {
        // The site rendered image::figures/page-walk.svg[The walk of 0x7f0a00200040: PDE3, PDE2, ...] as
        // alt="The walk of 0x7f0a00200040: PDE3" width="PDE2" height="PDE1" (walk of a fresh clone, issue 52).
        Path adoc = docs.resolve("img.adoc");
        Files.writeString(adoc, "= x\n\nimage::figures/page-walk.svg[The walk: PDE3, PDE2, PDE1]\n\n"
                + "Inline image:figures/a.svg[one, two] too.\n");
        assertThat(NotesLint.check(adoc, repo)).extracting(NotesLint.Problem::line).containsExactly(3, 5);
        assertThat(NotesLint.check(adoc, repo).get(0).what()).contains("width ('PDE2')")
                .contains("image::figures/page-walk.svg[\"The walk: PDE3, ...\"]");
        Files.writeString(adoc, "= x\n\nimage::figures/page-walk.svg[\"The walk: PDE3, PDE2, PDE1\"]\n\n"
                + "image::figures/a.svg[]\n\nimage::figures/b.svg[A walk]\n\nimage::figures/c.svg[A walk, 300]\n\n"
                + "image::figures/d.svg[A walk, 50%]\n\nimage::figures/e.svg[A walk, width=300]\n");
        assertThat(NotesLint.check(adoc, repo)).isEmpty();
    }

    @Test
    @DisplayName("a deck's image obeys the same rule, before its first slide too")
    void deckImageAltWithAComma() throws IOException {
        Path deck = Files.createDirectories(repo.resolve("slides")).resolve("ch04-real-oom.adoc");
        Files.writeString(deck, DeckLintTest.GOOD.replace("= T\n", "= T\n\nimage::figures/a.svg[one, two]\n")
                .replace("image::figures/fragmentation.svg[]", "image::figures/fragmentation.svg[Holes, live blocks]"));
        assertThat(DeckLint.check(deck, repo, "T")).extracting(NotesLint.Problem::line).containsExactly(3, 7);
    }

    @Test
    @DisplayName("an include that climbs out of the repository is refused")
    void includeStaysInTheRepository() throws IOException {
        Path adoc = docs.resolve("escape.adoc");
        Files.writeString(adoc, "= x\n\ninclude::../../../../../../../../etc/hostname[]\n");
        assertThat(NotesLint.check(adoc, repo)).singleElement().asString().contains("include leaves the repository");
    }

    @Test
    @DisplayName("a tag opened but never closed is reported")
    void unclosedTag() throws IOException {
        Path java = repo.resolve("chapters/ch04-real-oom/src/main/java/vramlab/ch04/Half.java");
        Files.writeString(java, "class Half {\n    // tag::open[]\n}\n");
        Path adoc = docs.resolve("half.adoc");
        Files.writeString(adoc, "= x\n\n[source,java]\n----\ninclude::../../main/java/vramlab/ch04/Half.java[tag=open]\n----\n");
        assertThat(NotesLint.check(adoc, repo)).singleElement().asString()
                .endsWith("half.adoc:5: chapters/ch04-real-oom/src/main/java/vramlab/ch04/Half.java:2: tag::open[] is never"
                        + " closed (no end::open[] after it)");
    }

    @Test
    @DisplayName("an attribute used in an include target must be defined above it")
    void undefinedAttribute() throws IOException {
        Path adoc = docs.resolve("attr.adoc");
        Files.writeString(adoc, "= x\n\ninclude::{sol}/X.java[tag=a]\n:sol: ../../main/java\n");
        assertThat(NotesLint.check(adoc, repo)).singleElement().asString()
                .contains("attr.adoc:3: include target uses an attribute not defined above it: {sol}/X.java");
    }

    @Test
    @DisplayName("Java typed into a listing is refused even when a command sits beside it")
    void commandDoesNotExcuseCode() throws IOException {
        Path adoc = docs.resolve("mixed.adoc");
        Files.writeString(adoc, "= x\n\n[source,shell]\n----\n./vramlab jshell 4\nvar sim = new Sim(mib(40));\n----\n");
        assertThat(NotesLint.check(adoc, repo)).isEmpty();   // in a shell block, anything may be typed
        Files.writeString(adoc, "= x\n\n----\n./vramlab jshell 4\nvar sim = new Sim(mib(40));\n----\n");
        assertThat(NotesLint.check(adoc, repo)).filteredOn(p -> p.what().contains("pasted in"))
                .singleElement().satisfies(p -> assertThat(p.line()).isEqualTo(5));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"./vramlab lab real-oom                   # runs every scenario",
        "pbpaste | ./vramlab triage", "$ mvn -q test -Plab"})
    @DisplayName("a launcher or Maven command stands in a shell listing, with a comment or a pipe; not in another")
    void commands(String command) throws IOException {
        Path adoc = docs.resolve("cmd.adoc");
        Files.writeString(adoc, "= x\n\n[source,shell]\n----\n" + command + "\n----\n");
        assertThat(NotesLint.check(adoc, repo)).isEmpty();
        Files.writeString(adoc, "= x\n\n----\n" + command + "\n----\n");
        assertThat(NotesLint.check(adoc, repo)).singleElement().asString().contains("write [source,shell]");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ./vramlab replay --policy pytorch --device 64MiB TRACE                      | TRACE
            ./vramlab replay --memory-fraction 0.99 FILE   # any snapshot               | FILE
            ./vramlab replay chapters/ch05-expandable-segments/examples/x.trace        |
            VRAMLAB_OFFLINE=1 ./vramlab site   # run FILE later                       |
            """)
    @DisplayName("a command in a shell listing names a real file, not a placeholder that fails as printed (ch05's TRACE)")
    void placeholders(String command, String word) throws IOException {
        Path adoc = docs.resolve("placeholder.adoc");
        Files.writeString(adoc, "= x\n\n[source,shell]\n----\n" + command + "\n----\n");
        if (word == null) {
            assertThat(NotesLint.check(adoc, repo)).isEmpty();
        } else {
            assertThat(NotesLint.check(adoc, repo)).singleElement().asString()
                    .contains("'" + word + "' stands for a file").contains("fails as printed");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            include::{generated}/lab-output.txt[]
            include::{labout}/ch04-real-oom.txt[]
            include::{lab-output}/ch04-real-oom.txt[]
            """)
    @DisplayName("the lab's output is included from the build, under any of its three attribute names")
    void buildOutput(String include) throws IOException {
        Path adoc = docs.resolve("out.adoc");
        Files.writeString(adoc, "= x\n\n....\n" + include + "\n....\n");
        assertThat(NotesLint.check(adoc, repo)).isEmpty();
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            tag=fragmentation                   | fragmentation
            tags=expandable;fragmentation       | fragmentation,expandable
            `tags="expandable,fragmentation"`   | fragmentation,expandable
            """)
    @DisplayName("the tags an include asks for are read as Asciidoctor reads them, and must be in the file")
    void tagsTaken(String attrs, String tags) throws IOException {
        Path adoc = docs.resolve("tags.adoc");
        Files.writeString(adoc, "= x\n\n[source,java]\n----\ninclude::../../main/java/vramlab/ch04/RealOomLab.java["
                + attrs + "]\n----\n");
        assertThat(NotesLint.check(adoc, repo)).isEmpty();
        Files.writeString(adoc, Files.readString(adoc).replace("fragmentation", "fragmentation-not"));
        assertThat(NotesLint.check(adoc, repo)).singleElement().asString().contains("no tag::fragmentation-not[]");
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            tags=**;!hidden            | include::{j}[tags=**;!hidden]: the kit takes a whole file or tags by name (tag=x, tags=x;y or tags="x,y"), not Asciidoctor's wildcards (*, **) or negations (!x): '**'
            tag=!fragmentation         | include::{j}[tag=!fragmentation]: the kit takes a whole file or tags by name
            `lines=1..4`               | include::{j}[lines=1..4]: the kit takes a whole file or tags by name (tag=x, tags=x;y or tags="x,y"), not lines (Asciidoctor takes lines= before any tag)
            `tags="expandable, fragmentation"` | include::{j}[tags="expandable, fragmentation"]: the tag ' fragmentation' holds a space
            `tags=expandable,fragmentation` | include::{j}[tags=expandable,fragmentation]: 'fragmentation' is a positional attribute, which Asciidoctor reads after a comma and an include ignores: ask for several tags as tags=x;y or tags="x,y"
            """)
    @DisplayName("tags Asciidoctor takes otherwise than by name, or not at all, are refused with the include, not"
            + " taken otherwise")
    void tagsRefused(String attrs, String message) throws IOException {
        Path adoc = docs.resolve("tags.adoc");
        String java = "../../main/java/vramlab/ch04/RealOomLab.java";
        Files.writeString(adoc, "= x\n\n[source,java]\n----\ninclude::" + java + "[" + attrs + "]\n----\n");
        assertThat(NotesLint.check(adoc, repo)).singleElement().asString()
                .contains("tags.adoc:5: " + message.replace("{j}", java));
    }

    @Test
    @DisplayName("a partial of the notes included by tag must hold the tag, as a listing must")
    void adocByTag() throws IOException {
        Files.writeString(docs.resolve("part.adoc"), "// tag::intro[]\nIntro.\n// end::intro[]\nRest.\n");
        Path adoc = docs.resolve("whole.adoc");
        Files.writeString(adoc, "= x\n\ninclude::part.adoc[tag=intro]\n\ninclude::part.adoc[tag=outro]\n");
        assertThat(NotesLint.check(adoc, repo)).singleElement().asString()
                .endsWith("whole.adoc:5: chapters/ch04-real-oom/src/docs/asciidoc/part.adoc: no tag::outro[] in the file");
    }
}
