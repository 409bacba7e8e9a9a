package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.quiz.Blank;
import vramlab.quiz.Blanks;
import vramlab.quiz.KitPaths;
import vramlab.quiz.NotesSection;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Each quiz question names the section of its chapter's notes that teaches it (its own
 * {@link Question#notesSection}), and {@code quiz --check} sends a student who lost its points
 * there: the heading must be in the notes, once on its page, and must not give the answer away.
 */
class QuizSectionsTest {
    @TempDir Path tmp;

    /** Chapter 3's notes, from the kit's root. */
    static final String CH03 = "chapters/ch03-caching-allocator/src/docs/asciidoc/ch03-caching-allocator.adoc";

    static List<Question> all() {
        List<Question> out = new ArrayList<>();
        ServiceLoader.load(Question.class).forEach(out::add);
        return out;
    }

    static ChapterLab chapterOf(Question q) {
        return Chapters.all().stream().filter(c -> String.format("ch%02d", c.number()).equals(q.chapter())).findFirst().orElseThrow();
    }

    static Path notes(ChapterLab c) {
        return KitPaths.root().resolve("chapters").resolve(c.id()).resolve("src/docs/asciidoc").resolve(c.id() + ".adoc");
    }

    @Test
    @DisplayName("every question names a heading its chapter's notes page has exactly once (so its anchor is the one the page gives it)")
    void everySectionIsInTheNotes() throws IOException {
        List<String> wrong = new ArrayList<>();
        List<Question> questions = all();
        assertThat(questions).hasSizeGreaterThan(40);
        for (Question q : questions) {
            String heading = q.notesSection();
            if (heading == null) {
                wrong.add(q.id() + " (" + q.getClass().getName() + ") names no section: override notesSection()");
                continue;
            }
            ChapterLab c = chapterOf(q);
            long times = NotesSection.headings(notes(c)).stream().filter(h -> h.title().equals(heading)).count();
            if (times != 1) wrong.add(q.id() + ": '" + heading + "' is a heading of " + notes(c) + " " + times + " times, not once");
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    @DisplayName("grade sends a student to the section quiz --check sends them to, under every question, from the same code")
    void gradeRereadsAsQuizCheck() throws IOException {
        java.util.Map<String, NotesSection> grade = vramlab.quiz.grade.Kit.locate(KitPaths.root()).rereads().get();
        List<String> checked = new ArrayList<>();
        for (ChapterLab c : Chapters.all()) {
            QuizCommand.rereads(c).forEach((id, section) -> {
                assertThat(grade.get(id)).as(id).isEqualTo(section);
                assertThat(section.anchor()).as(id + ": its anchor, read from the notes").isNotNull();
                checked.add(id);
            });
        }
        assertThat(checked).hasSizeGreaterThan(40).containsExactlyInAnyOrderElementsOf(grade.keySet());
        assertThat(grade.get("q3.4").reread()).as("from the kit's root, where ./vramlab runs: its rendered page, else the AsciiDoc")
                .matches("reread ch03 \"Rule 2: pools never mix\" \\((\\Qsite/target/site\\E(-instructor)?\\Q/ch03-caching-allocator/notes.html"
                        + "#_rule_2_pools_never_mix\\E|\\Q" + CH03 + "\\E:\\d+)\\)");
    }

    @Test
    @DisplayName("no question's section heading names its right answer (a choice's constant, a size as the notes write it)")
    void noSectionGivesTheKeyAway() {
        List<String> leaks = new ArrayList<>();
        for (Question q : all()) {
            if (q.notesSection() == null) continue;                  // everySectionIsInTheNotes names it
            String heading = words(q.notesSection());
            for (Part p : q.parts(Variant.seed(q.chapter()))) {
                for (Blank b : p.blanks()) {
                    List<String> keys = new ArrayList<>();
                    if (b.check() instanceof Blanks.OneOf<?> o) keys.add(o.expected().name());
                    if (b.check() instanceof Blanks.SetOf<?> o) o.want().forEach(e -> keys.add(((Enum<?>) e).name()));
                    if (b.check() instanceof Blanks.SizeIs s) keys.add(Bytes.readable(s.expected()));
                    for (String k : keys) {
                        // a one-letter constant (request A, B, C) is any heading's article, not a hint
                        if (words(k).length() > 1 && (" " + heading + " ").contains(" " + words(k) + " ")) {
                            leaks.add(q.id() + " " + b.key() + ": " + k);
                        }
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    /** Lower case, every run of other than letters and digits one space: OTHER_PROCESS and "other process" alike. */
    static String words(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}.]+", " ").strip();
    }

    /**
     * A graded step's failure names its section by heading alone ({@code Reread: ch03 "Rule 1: ..."}, written in the
     * test's JVM); grade's reports and results.json name its place as they name a quiz question's, from the copy's root.
     * They carried the heading alone.
     */
    @Test
    @DisplayName("grade names a failed step's section to reread from the copy's root, as it names a quiz question's")
    void gradeRereadsAStepFromTheRoot() throws IOException {
        Path root = KitPaths.root();
        String failure = "roundSize(1 B): expected 512 B but was 0 B\nLooks like: rounding down.\n"
                + "Rule: a block must hold the whole request.\nReread: ch03 \"Rule 2: pools never mix\".";
        String placed = vramlab.quiz.grade.Kit.locate(root).stepRereads().apply(failure);
        String quizLine = QuizCommand.rereads(Chapters.find("3")).get("q3.4").reread();
        assertThat(quizLine).startsWith("reread ch03 \"Rule 2: pools never mix\" (");
        assertThat(placed).isEqualTo(failure.substring(0, failure.lastIndexOf('\n') + 1)
                + "Reread: " + quizLine.substring("reread ".length()) + ".");
        assertThat(vramlab.quiz.grade.Kit.forLabItems(root, List.of()).stepRereads().apply(failure))
                .as("check's kit leaves it to check, which names it from where the student stands").isEqualTo(failure);
    }

    @Test
    @DisplayName("quiz --check: under a question that lost points, the section to reread and its anchor; none under a right one")
    void wrongAnswerNamesTheSection() throws IOException {
        Path key = KitPaths.root().resolve("solutions/answers/ch03.txt");
        List<String> lines = new ArrayList<>(Files.readAllLines(key, StandardCharsets.UTF_8));
        int at = -1;
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith("q3.4.c.reserved = ")) at = i;
        assertThat(at).isNotNegative();
        lines.set(at, "q3.4.c.reserved = 1 B");
        Path sheet = Files.write(tmp.resolve("ch03.txt"), lines, StandardCharsets.UTF_8);
        CliRun r = CliRun.of("quiz", "3", "--check", sheet.toString());
        assertThat(r.status()).as(r.err()).isZero();
        List<String> out = r.out().lines().toList();
        int wrong = out.indexOf(out.stream().filter(l -> l.startsWith("  wrong  q3.4:")).findFirst().orElseThrow());
        // From where the command runs (the tests run in cli/): the page as a file: address that opens at the
        // section, else the AsciiDoc's path:line from here. It said ch03-caching-allocator/notes.html#..., a
        // path relative to the site's folder, which opened from nowhere the student stands.
        Path page = KitPaths.root().toAbsolutePath().normalize();
        assertThat(out.get(wrong + 1)).matches("         reread ch03 \"Rule 2: pools never mix\" \\((\\Q" + page.toUri()
                + "site/target/site\\E(-instructor)?\\Q/ch03-caching-allocator/notes.html#_rule_2_pools_never_mix\\E|\\Q"
                + Path.of("").toAbsolutePath().relativize(page.resolve(CH03)).toString().replace('\\', '/') + "\\E:\\d+)\\)");
        assertThat(out.stream().filter(l -> l.strip().startsWith("reread "))).hasSize(1);
        for (int i = 0; i + 1 < out.size(); i++) {
            if (out.get(i).startsWith("  right  ")) assertThat(out.get(i + 1)).doesNotContain("reread");
        }
    }

    @Test
    @DisplayName("a section in a file the chapter includes (ch04's field guide) gets the anchor that file gives it")
    void includedSection() {
        ChapterLab ch04 = Chapters.all().stream().filter(c -> c.number() == 4).findFirst().orElseThrow();
        assertThat(QuizCommand.rereads(ch04).get("q4.4").anchor()).isEqualTo("fix-ladder");
    }
}
