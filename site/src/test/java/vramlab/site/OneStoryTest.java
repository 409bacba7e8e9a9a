package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import vramlab.triage.Cause;
import vramlab.triage.FixLadder;

/**
 * One story: the fix ladder, the VA ceiling and expandable segments' unmapping are stated once,
 * where they are taught, and every chapter, deck and generated text agrees ({@link OneStory}).
 */
@DisplayName("One story across the course")
class OneStoryTest {

    @Nested
    @DisplayName("the rules find a second, different statement")
    class Rules {
        @Test
        @DisplayName("of the fix ladder: an ordinal, an order in prose, a list out of order")
        void ladder() {
            assertThat(OneStory.check("t", "The fix for this pattern is the first rung of the ladder, "
                    + "steady shapes, not the second.")).isEmpty();
            assertThat(OneStory.check("t", "The fix is the first rung of the ladder, expandable_segments:True."))
                    .singleElement().extracting(OneStory.Finding::rule).asString().contains("rung 2");
            assertThat(OneStory.check("t", "For fragmentation the ladder is: expandable_segments:True, then "
                    + "steady shapes, max_split_size_mb on older releases, a smaller batch, and a restart last."))
                    .isNotEmpty();
            assertThat(OneStory.check("t", "The ladder in order of cost: steady shapes, then "
                    + "expandable_segments:True, then a smaller batch, then restart.")).isEmpty();
            assertThat(OneStory.check("t", "* `expandable_segments:True` (one variable)\n"
                    + "* Steady tensor shapes (free)\n* A smaller batch (throughput)\n")).hasSize(1);
            assertThat(OneStory.check("t", FixLadder.fragmentationLadder())).isEmpty();
            assertThat(OneStory.check("t", "(steady shapes, rung 2 of the fragmentation ladder)")).hasSize(1);
        }

        @Test
        @DisplayName("of the VA ceiling, unless the sentence reconciles it with 128 TiB")
        void ceiling() {
            assertThat(OneStory.check("t", "The design note counts on 256 TiB of address space, so a few "
                    + "such reservations cost nothing.")).hasSize(1);
            assertThat(OneStory.check("t", "The note's 256 TiB of address space is the whole 48-bit range; "
                    + "user space ends at 128 TiB.")).isEmpty();
            assertThat(OneStory.check("t", "A process's VA ends at 47 TiB on this system.")).hasSize(1);
            assertThat(OneStory.check("t", "The GMMU decodes 49 bits, 512 TiB, and Hopper 57.")).isEmpty();
            assertThat(OneStory.check("t", "GPU 0 gets the 7 TiB below that end.")).isEmpty();
        }

        @Test
        @DisplayName("of expandable segments' unmapping: the retracted claims, and an unqualified one")
        void unmapping() {
            assertThat(OneStory.check("t", "A freed block's pages leave at once and can be mapped anywhere, "
                    + "so no hole can strand them.")).isNotEmpty();
            assertThat(OneStory.check("t", "With expandable segments a free unmaps the block's pages.")).hasSize(1);
            assertThat(OneStory.check("t", "With expandable segments, at empty_cache() or the OOM retry, the "
                    + "allocator unmaps the pages wholly inside free blocks.")).isEmpty();
            assertThat(OneStory.check("t", "In the twin a free unmaps the block's pages at once.")).isEmpty();
        }

        @Test
        @DisplayName("a Java file's printed texts: text blocks, and one concatenation of literals as one text")
        void javaStrings() {
            assertThat(JavaStrings.of("String s = \"a \" + // why\n   \"b\"; f(\"c\", x + \"d\");\n"
                    + "String t = \"\"\"\n    five. six\n    \"\"\";")).containsExactly("a b", "c", "d", "    five. six\n    ");
        }

        @Test
        @DisplayName("the checker's rung names follow the Ladder's own order")
        void rungsFollowTheLadder() {
            assertThat(OneStory.RUNGS).hasSameSizeAs(FixLadder.FRAGMENTATION_FIXES);
        }
    }

    @TestFactory
    @DisplayName("every chapter's notes and every deck agree")
    Stream<DynamicTest> notesAndDecks() throws IOException {
        Path root = Repo.root();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root.resolve("chapters"))) {
            s.filter(p -> p.toString().replace('\\', '/').contains("/src/docs/"))
                    .filter(p -> p.toString().endsWith(".adoc") || p.toString().endsWith(".txt"))
                    .forEach(files::add);
        }
        try (Stream<Path> s = Files.list(root.resolve("slides"))) {
            s.filter(p -> p.toString().endsWith(".adoc")).forEach(files::add);
        }
        assertThat(files).as("notes and decks under %s", root).hasSizeGreaterThan(10);
        return files.stream().sorted().map(f -> DynamicTest.dynamicTest(root.relativize(f).toString(),
                () -> assertThat(OneStory.check(root.relativize(f).toString(), Files.readString(f)))
                        .as("statements that contradict the one story").isEmpty()));
    }

    @TestFactory
    @DisplayName("every text the chapters' code prints agrees: lab output, outputs (their strings), the triage's fixes")
    Stream<DynamicTest> generated() throws IOException {
        Path root = Repo.root();
        List<DynamicTest> tests = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> s = Files.walk(root.resolve("chapters"))) {
            sources = s.filter(p -> p.toString().replace('\\', '/').contains("/src/main/java/"))
                    .filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertThat(sources).as("the chapters' Java").isNotEmpty();
        for (Path f : sources) {
            String where = root.relativize(f).toString();
            tests.add(DynamicTest.dynamicTest(where, () -> {
                List<OneStory.Finding> found = new ArrayList<>();
                for (String text : JavaStrings.of(Files.readString(f))) found.addAll(OneStory.check(where, text));
                assertThat(found).as("statements in the strings this code prints").isEmpty();
            }));
        }
        for (Cause cause : Cause.values()) {
            String where = "triage fixes for " + cause.name();
            tests.add(DynamicTest.dynamicTest(where, () -> {
                StringBuilder text = new StringBuilder(cause.check()).append("\n\n");
                int i = 1;
                for (String fix : cause.fixes()) text.append(i++).append(". ").append(fix).append('\n');
                assertThat(OneStory.check(where, text.toString())).isEmpty();
            }));
        }
        return tests.stream();
    }

    @TestFactory
    @DisplayName("every generated text of this build's site agrees (under -Psite): outputs, lab output, examples")
    Stream<DynamicTest> rendered() throws IOException {
        Rendered.site(Edition.STUDENT);
        Path generated = Repo.root().resolve("site/target/generated");
        List<Path> files;
        try (Stream<Path> s = Files.walk(generated)) {
            files = s.filter(p -> p.toString().endsWith(".txt") || p.toString().endsWith(".adoc")).sorted().toList();
        }
        assertThat(files).as("generated texts under %s", generated).isNotEmpty();
        return files.stream().map(f -> DynamicTest.dynamicTest(generated.relativize(f).toString(),
                () -> assertThat(OneStory.check(f.toString(), Files.readString(f))).isEmpty()));
    }
}
