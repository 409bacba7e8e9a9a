package vramlab.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import vramlab.quiz.NotesSection;
import vramlab.quiz.Question;

/**
 * Where {@code quiz --check} sends a student who lost a question's points ({@link NotesSection}:
 * {@code reread ch03 "Rule 2: pools never mix" (ch03-caching-allocator/notes.html#_rule_2_pools_never_mix)})
 * must be a place on the rendered page: each anchor, computed from the notes' AsciiDoc by
 * Asciidoctor's id rule as {@code NotesSection} writes it, is an {@code id} of its chapter's
 * {@code notes.html}. A rule of Asciidoctor's that {@code NotesSection} does not follow (a
 * character it keeps or drops otherwise, an {@code idprefix} set in the notes) would send the
 * student to the top of the page; this check fails the build instead. A question whose heading
 * is not in its notes at all has no anchor; cli's {@code QuizSectionsTest} names it.
 */
final class QuizAnchors {
    private QuizAnchors() {}

    /** Every question's anchor that the rendered notes of {@code chapters} under {@code out} lack, one line each. */
    static List<String> missing(Path out, List<Course.ChapterDir> chapters) throws IOException {
        List<Question> questions = new ArrayList<>();
        ServiceLoader.load(Question.class).forEach(questions::add);
        List<String> problems = new ArrayList<>();
        for (Course.ChapterDir c : chapters) {
            Path page = out.resolve(c.id()).resolve("notes.html");
            if (c.notes().isEmpty() || !Files.isRegularFile(page)) continue;
            String html = null;
            for (Question q : questions) {
                if (q.notesSection() == null || !c.id().startsWith(q.chapter() + "-")) continue;
                NotesSection s = NotesSection.of(q.chapter(), c.id(), q.notesSection(), c.notes().get());
                if (s.anchor() == null) continue;
                if (html == null) html = Files.readString(page);
                if (!html.contains(" id=\"" + s.anchor() + "\"")) {
                    problems.add(page + ": no id=\"" + s.anchor() + "\", where quiz --check sends a student who lost "
                            + q.id() + "'s points (" + s.reread() + "); the section's id on the page differs from"
                            + " vramlab.quiz.NotesSection's");
                }
            }
        }
        return problems;
    }
}
