package vramlab.quiz.grade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Mark;
import vramlab.quiz.NotesSection;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.Variant;

/**
 * Quiz marking: a submission's answer sheets ({@code labs/answers/chNN.txt}) marked in the
 * grader's JVM, on keys the reference simulator computes for the student's own variant with the
 * instructor's salt. No student code runs and the salt never reaches a child; partial credit
 * exists only here. A sheet written for another student or other numbers is flagged, and marked
 * on this student's variant.
 */
final class QuizMarking {
    private final Salt salt;
    private final java.util.function.Supplier<Map<String, NotesSection>> rereads;

    QuizMarking(Salt salt) { this(salt, Map::of); }

    /** {@code rereads}: the section to reread under each question that lost points ({@link Kit#rereads}). */
    QuizMarking(Salt salt, java.util.function.Supplier<Map<String, NotesSection>> rereads) {
        this.salt = salt;
        this.rereads = rereads;
    }

    /** The kit's questions, each computing its parts once per variant (see {@link Once}). */
    static List<Question> once(List<Question> questions) {
        return questions.stream().map(q -> (Question) new Once(q)).toList();
    }

    /** The quiz rows: every registered question, marked on the student's own variant; flags go to {@code flags}. */
    List<ScoreRow> rows(List<Question> all, String student, Path answers, List<String> flags) {
        List<ScoreRow> out = new ArrayList<>();
        Map<String, NotesSection> rereads = this.rereads.get();
        boolean[] answered = {false};
        Map<String, List<Question>> byChapter = new LinkedHashMap<>();
        for (Question q : all) byChapter.computeIfAbsent(q.chapter(), k -> new ArrayList<>()).add(q);
        byChapter.forEach((chapter, questions) -> {
            Path file = answers.resolve(chapter + ".txt");
            String where = "labs/answers/" + chapter + ".txt";
            Variant v = Variant.of(chapter, student, salt);
            AnswerSheet sheet;
            List<String> notes = new ArrayList<>();
            try {
                sheet = Files.isRegularFile(file)
                        ? AnswerSheet.parse(Files.readString(file, StandardCharsets.UTF_8), where)
                        : AnswerSheet.empty(where + ", which is missing");
                if (Files.isRegularFile(file) && sheet.answered()) {
                    answered[0] = true;
                    for (String p : sheet.headerProblems(chapter, v)) {
                        notes.add(p);
                        flags.add((p.contains("(a copied sheet?)") ? "copied sheet? " : "sheet header: ")
                                + p.replace(" (a copied sheet?)", ""));
                    }
                    notes.addAll(sheet.unknownKeys(questions, v));
                }
            } catch (IOException | RuntimeException e) {
                for (Question q : questions) {
                    out.add(ScoreRow.zero(q.id(), q.id() + ": " + q.title(), q.points(v), ScoreRow.FAILED,
                            "answer sheet: " + e.getMessage()));
                }
                return;
            }
            for (Question q : questions) {
                String name = q.id() + ": " + q.title();
                try {
                    Mark m = Mark.of(q, v, sheet);
                    List<String> mine = new ArrayList<>();
                    // Under a question answered and marked down, the section to reread, as quiz --check
                    // says it; under one not answered yet, none (quiz --check prints none there either).
                    boolean todo = !m.full() && ScoreRow.quiz(q.id(), name, m, "").notAnswered();
                    if (!todo && rereads.containsKey(q.id())) mine.add(rereads.get(q.id()).reread());
                    notes.stream().filter(n -> !n.contains("unknown key '") || n.contains("'" + q.id() + "."))
                            .forEach(mine::add);
                    out.add(ScoreRow.quiz(q.id(), name, m, m.full() ? "" : String.join("\n", mine)));
                } catch (RuntimeException e) {
                    out.add(ScoreRow.zero(q.id(), name, q.points(v), ScoreRow.FAILED, "could not mark: " + e));
                }
            }
        });
        if (answered[0] && !PRINTABLE_ID.matcher(student).matches()) {
            flags.add("student id '" + student + "' is not one ./vramlab quiz --student prints a sheet for (1-64 letters,"
                    + " digits or ._@+-), so no sheet was printed with the numbers its quiz was marked on: name the"
                    + " submission by the id its sheets were printed for, and grade it again");
        }
        if (answered[0] && student.equals(Variant.SEED) && !salt.isPractice()) {
            flags.add("student id '" + Variant.SEED + "' is the kit's id for the notes' own numbers, so its quiz was"
                    + " marked on numbers every student can read in the notes, not on the course's salt: rename the"
                    + " submission (its folder, or its Gradescope SID) and grade it again");
        }
        return out;
    }

    /**
     * The ids {@code ./vramlab quiz --student} prints a sheet for. A class's student id is the
     * submission's name (a folder an LMS named "José Núñez", say), and its quiz is marked on
     * that id's variant: for any other id no sheet can have been printed, and the sheets the
     * student answered were marked on numbers they never saw (only a "copied sheet?" flag said
     * anything, and not why).
     */
    static final java.util.regex.Pattern PRINTABLE_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._@+-]{1,64}");

    /**
     * A question whose parts are computed once per variant: marking, the unknown keys and the
     * declared total each need them, and each computation replays the reference simulator.
     */
    private static final class Once implements Question {
        private final Question q;
        private final Map<String, List<Part>> parts = new HashMap<>();

        Once(Question q) { this.q = q; }

        @Override public String id() { return q.id(); }
        @Override public String title() { return q.title(); }
        @Override public String chapter() { return q.chapter(); }
        @Override public String notesSection() { return q.notesSection(); }
        @Override public String prompt(Variant v) { return q.prompt(v); }

        @Override
        public synchronized List<Part> parts(Variant v) {
            return parts.computeIfAbsent(v.chapter() + "/" + v.student() + "/" + v.fingerprint(), k -> q.parts(v));
        }
    }
}
