package vramlab.quiz.feedback;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.opentest4j.AssertionFailedError;

/**
 * What a chapter's feedback must do, for its tests (as {@code QuestionContract} is for quiz
 * questions): every step has at least one recognised wrong answer, each mistake is recognised
 * when fed its wrong answer, and each names the section the step's marker names.
 *
 * <pre>
 * FeedbackContract c = new FeedbackContract();
 * c.recognises(ROUND, 300_000L, 300_032L, wrongBody.applyAsLong(300_000), "rounding down");
 * ...
 * c.everyMistakeExercised(Ch03Feedback.all());     // in an @AfterAll, or a last test
 * </pre>
 */
public final class FeedbackContract {
    private static final Pattern MARKER = Pattern.compile("^\\s*// lab:begin (\\d+\\.\\d+) \"([^\"]+)\" see (.+)$");

    private final Map<Feedback<?, ?>, Set<String>> exercised = new IdentityHashMap<>();

    /**
     * Feeds {@code feedback} a wrong answer; checks that it fails with expected and actual, the
     * mistake {@code looksLike}, its rule and the section to reread; returns the message.
     */
    public synchronized <I, A> String recognises(Feedback<I, A> feedback, I input, A expected, A wrong,
                                                 String looksLike) {
        Feedback.Mistake<I, A> m = feedback.mistakes().stream().filter(x -> x.looksLike().equals(looksLike))
                .findFirst().orElseThrow(() -> new AssertionError("step " + feedback.step() + " has no mistake '"
                        + looksLike + "' (it has " + feedback.mistakes().stream().map(Feedback.Mistake::looksLike).toList() + ")"));
        String message;
        try {
            feedback.check("the call", input, wrong, expected);
            throw new AssertionError("step " + feedback.step() + ": the wrong answer " + wrong + " passed (expected "
                    + expected + ")");
        } catch (AssertionFailedError e) {
            message = e.getMessage();
        }
        for (String part : List.of("the call: expected ", " but was ", "Looks like: " + looksLike + ".",
                "Rule: " + m.rule(), "Reread: " + m.reread())) {
            if (!message.contains(part)) {
                throw new AssertionError("step " + feedback.step() + ", wrong answer " + wrong + ": the message does not"
                        + " say '" + part + "':\n" + message);
            }
        }
        exercised.computeIfAbsent(feedback, k -> new TreeSet<>()).add(looksLike);
        return message;
    }

    /** Every mistake of every feedback in {@code all} was fed its wrong answer by {@link #recognises}. */
    public synchronized void everyMistakeExercised(Collection<Feedback<?, ?>> all) {
        List<String> missing = new ArrayList<>();
        for (Feedback<?, ?> f : all) {
            for (Feedback.Mistake<?, ?> m : f.mistakes()) {
                if (!exercised.getOrDefault(f, Set.of()).contains(m.looksLike())) {
                    missing.add(f.step() + " '" + m.looksLike() + "'");
                }
            }
        }
        if (!missing.isEmpty()) throw new AssertionError("mistakes no test feeds a wrong answer: " + missing);
    }

    /** Every step of {@code chapter} (its number) has feedback that recognises at least one mistake. */
    public static void everyStepHasFeedback(Path kitRoot, int chapter, Collection<Feedback<?, ?>> all) {
        Set<String> covered = new TreeSet<>();
        for (Feedback<?, ?> f : all) if (!f.mistakes().isEmpty()) covered.add(f.step());
        Set<String> steps = new TreeSet<>(markers(kitRoot, chapter).keySet());
        steps.removeAll(covered);
        if (!steps.isEmpty()) throw new AssertionError("steps without a recognised wrong answer: " + steps);
    }

    /** Each feedback's section is the one its step's marker in {@code solutions/} names. */
    public static void sectionsAreTheMarkers(Path kitRoot, int chapter, Collection<Feedback<?, ?>> all) {
        Map<String, String> sections = markers(kitRoot, chapter);
        for (Feedback<?, ?> f : all) {
            String s = sections.get(f.step());
            if (s == null) throw new AssertionError("feedback for step " + f.step() + ", which has no marker");
            if (!s.equals(f.section())) {
                throw new AssertionError("step " + f.step() + ": feedback rereads " + f.section() + ", the marker says " + s);
            }
        }
    }

    /** The steps of {@code chapter} marked in {@code solutions/src/main/java}, with their sections. */
    public static Map<String, String> markers(Path kitRoot, int chapter) {
        Map<String, String> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(kitRoot.resolve("solutions/src/main/java"))) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                    Matcher m = MARKER.matcher(line);
                    if (m.matches() && m.group(1).startsWith(chapter + ".")) out.put(m.group(1), m.group(3));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
