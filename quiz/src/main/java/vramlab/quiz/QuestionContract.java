package vramlab.quiz;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every chapter's questions must satisfy, as checks a chapter's test calls (one contract,
 * many question sets). Each throws an {@link AssertionError} that names the question, part and
 * variant.
 */
public final class QuestionContract {
    private QuestionContract() {}

    /** The key's own sheet scores full marks, and the untouched sheet scores 0, saying "not answered". */
    public static void keyFullBlankZero(String chapter, List<Question> questions, Variant v) {
        AnswerSheet key = AnswerSheet.parse(AnswerSheet.key(chapter, v, questions), "key");
        AnswerSheet blank = AnswerSheet.parse(AnswerSheet.template(chapter, v, questions), "blank");
        for (Question q : questions) {
            Mark full = Mark.of(q, v, key);
            if (!full.full()) throw new AssertionError(v + ": the key of " + q.id() + " does not pass: " + full.summary());
            Mark zero = Mark.of(q, v, blank);
            if (zero.earned() != 0 || !zero.summary().contains("not answered")) {
                throw new AssertionError(v + ": the blank sheet earns " + zero.summary());
            }
        }
    }

    /** Blank keys are unique, start with the question's id, and every question's points are the same in both variants. */
    public static void wellFormed(List<Question> questions, Variant a, Variant b) {
        Set<String> keys = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (Question q : questions) {
            if (!ids.add(q.id())) throw new AssertionError("question id used twice: " + q.id());
            if (q.points(a) != q.points(b)) throw new AssertionError(q.id() + ": points differ between variants");
            for (Part p : q.parts(a)) {
                for (Blank bl : p.blanks()) {
                    if (!bl.key().startsWith(q.id() + ".")) throw new AssertionError(bl.key() + " does not start with " + q.id());
                    if (!keys.add(bl.key())) throw new AssertionError("blank key used twice: " + bl.key());
                }
            }
        }
    }

    /** Each {@code @Graded} quiz test of {@code testClass} is worth what its question is worth. */
    public static void gradedPointsMatch(Class<?> testClass, List<Question> questions) {
        Map<String, Integer> graded = new HashMap<>();
        for (Method m : testClass.getDeclaredMethods()) {
            Graded g = m.getAnnotation(Graded.class);
            if (g != null) graded.put(g.step(), g.points());
        }
        for (Question q : questions) {
            Integer points = graded.get(q.id());
            if (points == null) throw new AssertionError(q.id() + " has no @Graded test in " + testClass.getSimpleName());
            int want = q.points(Variant.seed(q.chapter()));
            if (points != want) throw new AssertionError(q.id() + ": @Graded says " + points + ", the question " + want);
        }
    }

    /** The blank sheet shipped in {@code labs/answers/} is the template for the practice numbers. */
    public static void shippedSheetIsTemplate(Path sheet, String chapter, List<Question> questions) throws IOException {
        String want = AnswerSheet.template(chapter, Variant.seed(chapter), questions);
        String have = Files.isRegularFile(sheet) ? Files.readString(sheet, StandardCharsets.UTF_8) : "";
        if (!want.equals(have)) {
            throw new AssertionError(sheet + " is not the blank sheet for the practice numbers; regenerate it: "
                    + "./vramlab quiz " + chapter + " --sheet " + sheet + " (after moving the old one away)");
        }
    }
}
