package vramlab.quiz;

import java.util.List;

/**
 * A quiz question: a prompt with this variant's numbers, and parts whose answers a test can
 * check. Keys are computed from the simulator for the variant in {@link #parts(Variant)}, which
 * the harness always runs on the kit's reference simulator (see {@link Reference}), never on a
 * student's copy. Implementations need a public no-argument constructor.
 */
public interface Question {
    /** {@code q<chapter>.<n>}, for example {@code q3.1}; unique across the kit. */
    String id();

    String title();

    /** The question as the student reads it, numbers filled in, answers left out. */
    String prompt(Variant v);

    /** The parts, each with its blanks and their checks, for this variant. */
    List<Part> parts(Variant v);

    /**
     * The heading, word for word, of the section of this chapter's notes that teaches this
     * question ({@code Rule 4: split only into a legal remainder}): where {@code quiz --check}
     * sends a student who lost points on it ({@link NotesSection}). The one place a question's
     * section is named; a test checks that the chapter's notes have that heading, once. Null for
     * a question that names none (a release's hashed practice questions: their real classes do).
     */
    default String notesSection() { return null; }

    /** The chapter this question belongs to, {@code ch03} for {@code q3.1}. */
    default String chapter() { return chapterOf(id()); }

    /** The points of all parts; equal for every variant. */
    default int points(Variant v) { return parts(v).stream().mapToInt(Part::points).sum(); }

    static String chapterOf(String questionId) {
        String n = questionId.replaceFirst("^q", "");
        int dot = n.indexOf('.');
        return String.format("ch%02d", Integer.parseInt(dot < 0 ? n : n.substring(0, dot)));
    }
}
