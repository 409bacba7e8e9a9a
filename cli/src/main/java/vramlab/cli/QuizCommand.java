package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import vramlab.kit.ChapterLab;
import vramlab.quiz.AnswerSheet;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Mark;
import vramlab.quiz.NotesSection;
import vramlab.quiz.Question;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.Variant;

/**
 * {@code vramlab quiz <chapter> [--student <id>]}: prints a chapter's quiz with the student's
 * numbers, writes a blank answer sheet, checks one without showing the key, and (for an
 * instructor holding the salt) prints the key.
 */
@CommandLine.Command(name = "quiz", mixinStandardHelpOptions = true,
        header = "print a chapter's quiz (your own numbers with --student), check answers",
        description = """
                Prints the chapter's questions. With --student, your own variant: sizes, device and hole
                pattern drawn from your id; without, the notes' own numbers.""",
        footer = """

                Graded runs use an instructor's salt (VRAMLAB_SALT / VRAMLAB_SALT_FILE) that students do not
                hold; then the numbers differ from the practice numbers printed without it.""")
final class QuizCommand implements Command {
    @Parameters(paramLabel = "<chapter>", arity = "1",
            description = "the chapter, by number (4, 04, ch04) or slug (real-oom)")
    String chapterName;

    @Option(names = "--student", paramLabel = "<id>", description = "your own variant, drawn from your id")
    String student;

    @Option(names = "--sheet", paramLabel = "<file>", description = """
            also write a blank answer sheet for this variant (labs/answers/chNN.txt is where \
            ./vramlab grade and mvn test -Plab look for it)""")
    String sheet;

    @Option(names = "--check", paramLabel = "<file>", description = """
            mark an answer sheet: points and what is wrong, never the right answer, for each \
            question answered and marked down the section of the notes to reread, and how many \
            are not answered yet (TODO); the student is \
            the sheet's own student line unless --student says otherwise, and keys that no blank \
            has (misspelt ones) are listed""")
    String check;

    @Option(names = "--key",
            description = "print the answer key (instructors: needs VRAMLAB_SALT or VRAMLAB_SALT_FILE)")
    boolean key;

    @Override
    public String expected() { return "expected one chapter, e.g. vramlab quiz 3"; }

    @Override
    public int run(Io io) throws IOException {
        ChapterLab chapter = LabCommand.find(chapterName, "quiz");
        String id = String.format("ch%02d", chapter.number());
        if (student != null && !student.matches("[A-Za-z0-9._@+-]{1,64}")) {
            throw new UsageException("quiz", "--student '" + student + "': expected 1-64 letters, digits or ._@+-");
        }
        if (Variant.SEED.equals(student)) {      // Variant.of gives that id the notes' own numbers, under any salt
            throw new UsageException("quiz", "--student " + student + ": that id is the notes' own numbers, which every"
                    + " student can read; leave --student out for them, or give your own id");
        }
        List<Question> questions = questions(id);
        if (questions.isEmpty()) throw new UsageException("quiz", "chapter " + chapter.id() + " has no quiz questions yet");
        Salt salt = salt();
        List<Question> practice = List.of();
        if (KitPaths.isRelease(KitPaths.root())) {
            // No reference simulator here: the practice numbers' key, hashed, marks and prints them.
            practice = PracticeKeys.quiz(KitPaths.root(), id);
            if (key) throw new UsageException("quiz", "--key: the answer key stays with your instructor's copy of the kit");
            if (!practice.isEmpty()) {
                if (student != null && (check != null || sheet != null)) {
                    throw new UsageException("quiz", "--student " + student + ": this copy checks the practice numbers only"
                            + " (no --student); a sheet with your own numbers is marked by your instructor");
                }
                if (!salt.isPractice()) throw new UsageException("quiz", "an instructor salt is set, but this copy holds"
                        + " the practice numbers only: unset VRAMLAB_SALT / VRAMLAB_SALT_FILE");
                if (student == null) questions = practice;
            } else if (check != null || sheet != null) {
                throw new UsageException("quiz", (check != null ? "--check" : "--sheet") + ": this copy holds no practice key"
                        + " for " + id + " (quiz/src/main/resources/" + vramlab.quiz.PracticeKey.resource(id) + ")");
            }
        }
        if (check != null) return check(Path.of(check), chapter, student, salt, questions, io);
        Variant v = Variant.of(id, student, salt);
        if (key) return key(id, v, salt, questions, io);
        if (sheet != null) refuseFilledSheet(Path.of(sheet));    // before the quiz, so the refusal is the one thing said
        io.out().print(text(chapter, v, salt, questions, practice));
        if (sheet != null) writeSheet(Path.of(sheet), id, v, salt, questions, io);
        return 0;
    }

    /** The line under the quiz's title in the kit: whose numbers these are. */
    private static String heading(Variant v, Salt salt) {
        return v.isSeed() ? "The notes' own numbers (give --student <id> for your own)"
                : "Variant " + v.fingerprint() + " for student " + v.student()
                + (salt.isPractice() ? " (practice numbers)" : " (graded numbers)");
    }

    /**
     * The same line in a student release (a practice key, no salt): --student there draws numbers
     * under no salt, which are not the ones the instructor grades and which this copy cannot check,
     * so the practice numbers' line does not send the student to it.
     */
    private static String releaseHeading(Variant v) {
        return v.isSeed() ? "The practice numbers, the same for everyone: check them with --check (a sheet with"
                        + " your own numbers comes from your instructor, who marks it)"
                : "Variant " + v.fingerprint() + " for student " + v.student() + " (practice numbers: not the"
                        + " ones your instructor grades, which need the course's salt, and not checked here;"
                        + " leave --student out for the numbers this copy checks)";
    }

    /** The questions of chapter {@code id} ("ch03"), in the order their chapter lists them. */
    static List<Question> questions(String id) {
        List<Question> out = new ArrayList<>();
        for (Question q : ServiceLoader.load(Question.class)) if (q.chapter().equals(id)) out.add(q);
        return out;
    }

    private static Salt salt() {
        try {
            return Salt.resolve();
        } catch (RuntimeException e) {
            throw new UsageException("quiz", e.getMessage());
        }
    }

    static String text(ChapterLab chapter, Variant v, Salt salt, List<Question> questions) {
        return text(chapter, v, salt, questions, List.of());
    }

    /**
     * The quiz as printed; a question whose points need the reference simulator (a release, with
     * --student) takes them from {@code practice}'s question of the same id, since a question's
     * points are equal for every variant ({@link Question#points}).
     */
    static String text(ChapterLab chapter, Variant v, Salt salt, List<Question> questions, List<Question> practice) {
        StringBuilder sb = new StringBuilder("Quiz: ch").append(String.format("%02d ", chapter.number()))
                .append(chapter.title()).append('\n')
                .append(practice.isEmpty() ? heading(v, salt) : releaseHeading(v))
                .append('\n');
        for (Question q : questions) {
            sb.append('\n').append(q.id()).append("  ").append(q.title())
              .append("  [").append(points(q, v, practice)).append(" points]\n");
            for (String line : prompt(q, v).strip().split("\n")) sb.append("  ").append(line).append('\n');
        }
        return sb.append('\n').append(practice.isEmpty() ? KIT_CLOSING : releaseClosing(chapter, v)).append('\n').toString();
    }

    private static final String KIT_CLOSING = "Answer in an answer sheet (--sheet <file>), then --check <file>.";

    /**
     * The last line in a student release: the practice numbers' sheet is already there, in
     * {@code labs/answers/} (the README's path, from the copy's root), and --sheet or --check
     * with --student is refused there, so the line sends the student to neither for those numbers.
     */
    private static String releaseClosing(ChapterLab chapter, Variant v) {
        String sheet = String.format("labs/answers/ch%02d.txt", chapter.number());
        if (!v.isSeed()) {
            return "This copy checks the practice numbers only (leave --student out): answer those in " + sheet
                    + "; a sheet with your own numbers comes from your instructor.";
        }
        return "Answer in " + sheet + ", then: ./vramlab quiz " + chapter.number() + " --check " + sheet;
    }

    /** A question's prompt; in a release, a note where its numbers need the reference simulator. */
    private static String prompt(Question q, Variant v) {
        try {
            return q.prompt(v);
        } catch (RuntimeException | LinkageError e) {
            return "(this question's numbers come from the kit's reference simulator, which this copy does not have:"
                    + " read it on the sheet your instructor hands out)";
        }
    }

    /**
     * A question's points; in a release, where keys cannot be computed, those of the practice
     * question of the same id (any variant's), else "?".
     */
    private static String points(Question q, Variant v, List<Question> practice) {
        try {
            return Integer.toString(q.points(v));
        } catch (RuntimeException | LinkageError e) {
            for (Question p : practice) {
                if (!p.id().equals(q.id())) continue;
                try {
                    return Integer.toString(p.points(Variant.of(p.chapter(), null, Salt.PRACTICE)));
                } catch (RuntimeException | LinkageError again) {
                    break;
                }
            }
            return "?";
        }
    }

    /** --sheet naming a sheet that holds answers: refused, in one line, before anything is printed. */
    private static void refuseFilledSheet(Path file) throws IOException {
        if (Files.isRegularFile(file) && hasAnswers(file)) {
            throw new UsageException("quiz", "--sheet " + file + ": it already holds answers (a blank would write over"
                    + " them); move it away or give another file");
        }
    }

    private static void writeSheet(Path file, String id, Variant v, Salt salt, List<Question> questions, Io io)
            throws IOException {
        if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, AnswerSheet.template(id, v, questions, !salt.isPractice()), StandardCharsets.UTF_8);
        io.out().println("Wrote a blank answer sheet for variant " + v.fingerprint() + " to " + file);
    }

    private static boolean hasAnswers(Path file) throws IOException {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String s = line.strip();
            if (s.startsWith("q") && s.contains("=") && !s.substring(s.indexOf('=') + 1).isBlank()) return true;
        }
        return false;
    }

    /**
     * A fault of the sheet, {@code FILE:LINE: what} (or {@code FILE: what} for the file as a
     * whole), with the file as {@code <where>}, as every file a user hands the kit is reported
     * (README, "Reliability"); {@code quiz} only when the message does not start with the file.
     */
    static UsageException atSheet(Path file, String message) {
        String f = file.toString();
        int sep = message.startsWith(f) ? message.indexOf(": ", f.length()) : -1;
        return sep < 0 ? new UsageException("quiz", message)
                : new UsageException(message.substring(0, sep), message.substring(sep + 2));
    }

    /**
     * Marks {@code file} for {@code student}, or, without one, for the student its header names;
     * says when the header is for another student or variant, and lists keys no blank has. Each
     * question is {@code right}, {@code wrong}, or {@code TODO} when none of its blanks is filled
     * in ({@link ScoreRow#notAnswered}: grade's {@code TODO}, the gradebook's {@code NOT_WRITTEN}).
     * Under a question answered and marked down, the section of the notes that teaches it
     * ({@link #rereads}); under one not answered yet, none (there is nothing to correct yet), and
     * above the score one line that counts and names them ({@link #unanswered}).
     */
    private static int check(Path file, ChapterLab chapter, String student, Salt salt, List<Question> questions, Io io)
            throws IOException {
        String id = String.format("ch%02d", chapter.number());
        if (!Files.isRegularFile(file)) throw new UsageException("quiz", "--check " + file + ": no such file");
        AnswerSheet sheet;
        try {
            sheet = AnswerSheet.read(file);
        } catch (IllegalArgumentException e) {
            throw atSheet(file, e.getMessage());
        }
        String whose = student != null ? student : sheet.get("student");
        if (whose != null && !whose.matches("[A-Za-z0-9._@+-]{1,64}")) {
            throw new UsageException(file + ":" + sheet.lineOf("student"), "student '" + whose
                    + "': expected 1-64 letters, digits or ._@+-");
        }
        Variant v = Variant.of(id, whose, salt);
        String chapterLine = sheet.get("chapter");
        if (chapterLine != null && !chapterLine.isBlank() && !chapterLine.strip().equals(id)) {
            throw new UsageException(file + ":" + sheet.lineOf("chapter"), "a sheet for " + chapterLine.strip()
                    + ", not " + id + ": check it with ./vramlab quiz " + chapterLine.strip() + " --check " + file);
        }
        String variantLine = sheet.get("variant");
        Variant practice = Variant.of(id, null, salt);
        if (!v.isSeed() && variantLine != null && variantLine.strip().equals(practice.fingerprint())) {
            // The blank sheet as handed out (the notes' own numbers) with a name put in its student
            // line: those numbers are still the practice ones, so say which line to undo.
            throw new UsageException(file + ":" + sheet.lineOf(student != null ? "variant" : "student"),
                    "written for variant " + variantLine.strip() + ", the practice numbers (no student), but "
                    + (student != null ? "--student " + student : "its student line says " + whose)
                    + ", whose numbers are variant " + v.fingerprint() + ": "
                    + (student != null ? "leave --student out" : "leave the student line empty") + " to check it");
        }
        if (variantLine != null && !variantLine.isBlank() && !variantLine.strip().equals(v.fingerprint())) {
            throw new UsageException(file + ":" + sheet.lineOf("variant"), "written for variant " + variantLine.strip()
                    + ", but these are the numbers of variant " + v.fingerprint() + " ("
                    + (v.isSeed() ? "the practice numbers" : "student " + v.student() + ", "
                    + (salt.isPractice() ? "practice numbers" : "graded numbers")) + "): "
                    + (salt.isPractice() ? "a sheet with the course's own numbers only your instructor can mark"
                    : "give the sheet's own student with --student"));
        }
        if (student == null && whose != null) {
            io.out().println("Checking " + file + " for student " + whose + " (its student line), variant "
                    + v.fingerprint());
        }
        for (String p : sheet.headerProblems(id, v)) io.out().println("note: " + p);
        for (String u : sheet.unknownKeys(questions, v)) io.out().println("note: " + u + ": this answer is not marked");
        int earned = 0, total = 0;
        Map<String, NotesSection> reread = rereads(chapter);
        List<String> unanswered = new java.util.ArrayList<>();
        for (Question q : questions) {
            Mark m = Mark.of(q, v, sheet);
            earned += m.earned();
            total += m.points();
            // A question none of whose blanks is filled in is TODO, as grade's table says it (the gradebook's NOT_WRITTEN).
            boolean todo = !m.full() && ScoreRow.quiz(q.id(), q.id(), m, "").notAnswered();
            String tag = m.full() ? "right" : todo ? ScoreRow.TODO : "wrong";
            io.out().println(String.format(Locale.ROOT, "  %-5s  ", tag) + m.summary());
            if (todo) {
                unanswered.add(q.id());        // nothing to reread yet: a line under each was noise between the answers
            } else if (!m.full() && reread.containsKey(q.id())) {
                io.out().println("         " + reread.get(q.id()).reread(KitPaths.root(), Path.of("")));
            }
        }
        if (!unanswered.isEmpty()) io.out().println(unanswered(unanswered, questions.size()));
        io.out().println("Score: " + earned + "/" + total);
        return 0;
    }

    /**
     * The line above the score when questions are not answered yet: how many, and which.
     * {@code Not answered yet: 3 of 8 questions (q3.2, q3.6, q3.7).}
     */
    static String unanswered(List<String> ids, int of) {
        return "Not answered yet: " + ids.size() + " of " + of + " question" + (of == 1 ? "" : "s")
                + " (" + String.join(", ", ids) + ").";
    }

    /**
     * The section of the notes each of the chapter's questions rests on, by question id: each
     * question's own {@link Question#notesSection}, its anchor read from the chapter's notes. From
     * the question classes, which a student release holds too (there the questions marked are the
     * practice key's, which name no section), so both copies say the same.
     */
    static Map<String, NotesSection> rereads(ChapterLab chapter) {
        return NotesSection.ofQuestions(KitPaths.root(), questions(String.format("ch%02d", chapter.number())));
    }

    private static int key(String id, Variant v, Salt salt, List<Question> questions, Io io) {
        if (salt.isPractice()) {
            throw new UsageException("quiz", "--key needs the instructor's salt (VRAMLAB_SALT or VRAMLAB_SALT_FILE)");
        }
        io.out().print(AnswerSheet.key(id, v, questions));
        return 0;
    }
}
