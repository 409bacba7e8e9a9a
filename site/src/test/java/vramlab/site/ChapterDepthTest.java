package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import vramlab.kit.Chapters;

/**
 * Every chapter in full depth (issue 13 item 2; /work/wt/WRITING.md's bar): at least 3,000
 * words of prose over all of its {@code src/docs/**}{@code /*.adoc} (counted as
 * {@link ProseWords} counts them), the sections of CHAPTER.md in order (including common
 * misconceptions, exercises and further reading), and at least three exercises registered in
 * its {@code ChapterLab}.
 */
@DisplayName("Every chapter is written in full depth")
class ChapterDepthTest {
    static final int MIN_PROSE_WORDS = 3000;
    static final int MIN_EXERCISES = 3;

    /** The level-2 sections a chapter's notes have, in this order (CHAPTER.md). */
    static final List<String> SECTIONS = List.of("The 30-second version", "The picture", "The mechanism",
            "Run it", "What insiders know", "Common misconceptions", "Where the toy simplifies", "Your turn",
            "Quiz", "Exercises", "Further reading", "Connections");

    /**
     * Chapters whose authors are still bringing them to depth on their own branches. THIS LIST
     * MUST END EMPTY: take a chapter off as its branch lands (the test below fails while a
     * chapter on it already meets the bar, so it cannot stay on by mistake).
     */
    static final Set<String> NOT_YET_AT_DEPTH = Set.of();

    private static final Pattern HEADING = Pattern.compile("^==\\s+(.+?)\\s*$");
    private static final Pattern LOCAL_INCLUDE = Pattern.compile("^include::([\\w./-]+\\.adoc)\\[.*]$");

    /** What a chapter's notes and lab give the depth check. */
    record Chapter(String id, int proseWords, List<String> sections, int exercises) {}

    /** Everything that keeps {@code c} from full depth; empty when it is there. */
    static List<String> problems(Chapter c) {
        List<String> out = new ArrayList<>();
        if (c.proseWords() < MIN_PROSE_WORDS) {
            out.add(c.id() + ": " + c.proseWords() + " words of prose, expected at least " + MIN_PROSE_WORDS);
        }
        int at = 0;
        for (String want : SECTIONS) {
            int found = indexOf(c.sections(), want, at);
            if (found < 0) {
                out.add(c.id() + ": no '== " + want + "' section" + (indexOf(c.sections(), want, 0) >= 0
                        ? " after '== " + SECTIONS.get(Math.max(0, SECTIONS.indexOf(want) - 1)) + "'" : "")
                        + " (sections found: " + c.sections() + ")");
            } else {
                at = found + 1;
            }
        }
        if (c.exercises() < MIN_EXERCISES) {
            out.add(c.id() + ": " + c.exercises() + " exercises in ChapterLab.exercises(), expected at least "
                    + MIN_EXERCISES);
        }
        return out;
    }

    private static int indexOf(List<String> sections, String want, int from) {
        String w = want.toLowerCase(Locale.ROOT);
        for (int i = from; i < sections.size(); i++) {
            if (sections.get(i).toLowerCase(Locale.ROOT).startsWith(w)) return i;
        }
        return -1;
    }

    /** The level-2 headings of {@code notes}, with those of the local .adoc partials it includes. */
    static List<String> sections(Path notes) {
        List<String> out = new ArrayList<>();
        for (String line : read(notes).split("\\R")) {
            Matcher inc = LOCAL_INCLUDE.matcher(line.strip());
            if (inc.matches() && Files.isRegularFile(notes.resolveSibling(inc.group(1)))) {
                out.addAll(sections(notes.resolveSibling(inc.group(1))));
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) out.add(h.group(1));
        }
        return out;
    }

    /** The prose words of every .adoc under {@code docs}. */
    static int proseWords(Path docs) {
        try (Stream<Path> files = Files.walk(docs)) {
            return files.filter(p -> p.toString().endsWith(".adoc")).sorted()
                    .mapToInt(p -> ProseWords.count(read(p))).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Chapter measure(Course.ChapterDir d) {
        Path notes = d.notes().orElseThrow(() -> new AssertionError(d.id() + " has no notes"));
        return new Chapter(d.id(), proseWords(d.docs()), sections(notes), Chapters.find(d.id()).exercises().size());
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Course.ChapterDir> chapters() {
        return Course.chapters(Repo.root()).stream().filter(c -> c.notes().isPresent()).toList();
    }

    @TestFactory
    @DisplayName("3,000+ words of prose, every section in order, 3+ exercises (except the allow-list)")
    Stream<DynamicTest> atDepth() {
        return chapters().stream().filter(c -> !NOT_YET_AT_DEPTH.contains(c.id()))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> assertThat(problems(measure(c)))
                        .as("what keeps %s from full depth", c.id()).isEmpty()));
    }

    @TestFactory
    @DisplayName("the allow-list names only real chapters that are not at depth yet")
    Stream<DynamicTest> allowListIsHonest() {
        List<String> ids = chapters().stream().map(Course.ChapterDir::id).toList();
        return NOT_YET_AT_DEPTH.stream().sorted().map(id -> DynamicTest.dynamicTest(id, () -> {
            assertThat(ids).as("chapters with notes").contains(id);
            Course.ChapterDir d = chapters().stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
            assertThat(problems(measure(d))).as("%s is at depth: take it off NOT_YET_AT_DEPTH", id).isNotEmpty();
        }));
    }

    @Nested
    @DisplayName("the check itself")
    class TheCheck {
        static final List<String> ALL = SECTIONS;

        @Test
        @DisplayName("passes a chapter with the words, every section in order and three exercises")
        void passes() {
            assertThat(problems(new Chapter("ch99-x", 3000, ALL, 3))).isEmpty();
        }

        @Test
        @DisplayName("fails a chapter under 3,000 words, naming its count")
        void tooShort() {
            assertThat(problems(new Chapter("ch99-x", 2999, ALL, 3)))
                    .containsExactly("ch99-x: 2999 words of prose, expected at least 3000");
        }

        @Test
        @DisplayName("fails a chapter without common misconceptions, exercises or further reading")
        void missingSections() {
            List<String> some = ALL.stream().filter(s -> !Set.of("Common misconceptions", "Exercises",
                    "Further reading").contains(s)).toList();
            List<String> p = problems(new Chapter("ch99-x", 5000, some, 3));
            assertThat(p).hasSize(3);
            assertThat(String.join("\n", p)).contains("no '== Common misconceptions'", "no '== Exercises'",
                    "no '== Further reading'");
        }

        @Test
        @DisplayName("fails sections out of order, and fewer than three exercises")
        void orderAndExercises() {
            List<String> swapped = new ArrayList<>(ALL);
            swapped.set(9, ALL.get(10));
            swapped.set(10, ALL.get(9));
            assertThat(problems(new Chapter("ch99-x", 5000, swapped, 2))).hasSize(2)
                    .anyMatch(s -> s.contains("no '== Further reading' section after '== Exercises'"))
                    .anyMatch(s -> s.contains("2 exercises"));
        }

        @Test
        @DisplayName("reads headings with a suffix and from an included partial")
        void headingsFromFiles() throws IOException {
            Path dir = Files.createTempDirectory("depth");
            Files.writeString(dir.resolve("ch99-x.adoc"), "= T\n\n== The 30-second version\n\n"
                    + "include::more.adoc[]\n\n=== Not level two\n== Connections\n");
            Files.writeString(dir.resolve("more.adoc"), "== Common misconceptions, refuted\n\nWords here.\n");
            assertThat(sections(dir.resolve("ch99-x.adoc")))
                    .containsExactly("The 30-second version", "Common misconceptions, refuted", "Connections");
            assertThat(proseWords(dir)).isEqualTo(2);
        }
    }
}
