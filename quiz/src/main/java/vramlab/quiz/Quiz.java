package vramlab.quiz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a graded quiz test calls: mark one question on this run's answer sheet, on the
 * reference simulator's key for this run's variant, and fail with partial credit when any part
 * is wrong.
 *
 * <pre>
 * &#64;Test &#64;Graded(step = "q3.1", points = 4) &#64;Timeout(10)
 * &#64;DisplayName("q3.1: the block size and pool of four requests")
 * void predictTheBlock() { Quiz.check(PredictTheBlock.class); }
 * </pre>
 *
 * <p>Which sheet: {@code -Dvramlab.answers=DIR} (the batch grader) holds {@code chNN.txt};
 * otherwise, on the student's cores ({@code -Plab}), {@code labs/answers/chNN.txt}; otherwise
 * (the kit's own build) the reference sheet {@code solutions/answers/chNN.txt}, which must
 * score full marks. Whose variant: {@code -Dvramlab.student}, {@code VRAMLAB_STUDENT}, or the
 * sheet's {@code student} line; with none, the practice numbers.
 */
public final class Quiz {
    private Quiz() {}

    public static Mark check(Class<? extends Question> type) {
        Question q = Reference.load(type);
        String chapter = q.chapter();
        Path file = sheetFile(chapter, type.getClassLoader());
        AnswerSheet sheet = read(file);
        // The kit's own build marks the reference sheet: always the practice numbers, never a salt.
        boolean reference = file.getParent() != null && file.getParent().getParent() != null
                && file.getParent().getParent().getFileName().toString().equals("solutions")
                && System.getProperty("vramlab.answers") == null;
        Variant v = reference ? Variant.of(chapter, sheet.get("student"), Salt.PRACTICE)
                : Variant.of(chapter, student(sheet), Salt.resolve());
        Mark mark = Mark.of(q, v, sheet);
        if (mark.full()) return mark;
        String note = "";
        String written = sheet.get("variant");
        if (written != null && !written.equals(v.fingerprint())) {
            note = " [this sheet was written for variant " + written + ", but you are graded on variant "
                    + v.fingerprint() + " of student '" + v.student() + "': print yours with ./vramlab quiz "
                    + chapter + " --student " + v.student() + "]";
        }
        throw new PartialCredit(mark.earned(), mark.points(), mark.summary() + note);
    }

    /** The sheet this run marks for {@code chapter}. */
    public static Path sheetFile(String chapter, ClassLoader testLoader) {
        String dir = System.getProperty("vramlab.answers");
        if (dir != null && !dir.isBlank()) return Path.of(dir).resolve(chapter + ".txt");
        String core = Reference.onLabCore(testLoader) ? "labs" : "solutions";
        return KitPaths.root().resolve(core).resolve("answers").resolve(chapter + ".txt");
    }

    static AnswerSheet read(Path file) {
        if (!Files.isRegularFile(file)) {
            return AnswerSheet.empty(file + ", which does not exist (make it: ./vramlab quiz "
                    + file.getFileName().toString().replace(".txt", "") + " --student <id> --sheet " + file + ")");
        }
        try {
            return AnswerSheet.read(file);
        } catch (IOException e) {
            throw new UncheckedIOException("answer sheet " + file + ": " + e.getMessage(), e);
        }
    }

    static String student(AnswerSheet sheet) {
        String s = System.getProperty("vramlab.student");
        if (s == null || s.isBlank()) s = System.getenv("VRAMLAB_STUDENT");
        if (s == null || s.isBlank()) s = sheet.get("student");
        return s;
    }
}
