package vramlab.quiz.feedback;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import org.opentest4j.AssertionFailedError;

/**
 * What a graded step's tests say when an answer is wrong: the call, expected against actual,
 * and, when the wrong answer is one students often give, which one it looks like, the rule it
 * breaks and the section of the notes to reread.
 *
 * <pre>
 * static final Feedback&lt;Long, Long&gt; ROUNDING = Feedback.&lt;Long, Long&gt;forStep("3.1", "ch03 \"Rule 1\"")
 *         .mistake("rounding down", (request, right, got) -&gt; got &lt; request,
 *                  "a block must hold the whole request: round up, never down");
 * ...
 * ROUNDING.check("roundSize(" + n + ")", n, policy.roundSize(n), expected);
 * </pre>
 * A failure reads, first line first (the score table shows that line):
 * <pre>
 * roundSize(300000): expected 300032 but was 299520
 * Looks like: rounding down.
 * Rule: a block must hold the whole request: round up, never down.
 * Reread: ch03 "Rule 1".
 * </pre>
 * The {@code Reread:} line names the heading alone, the same in every JVM; {@code check} and
 * {@code grade}, which know the copy, add the place to open it ({@link RereadPlaces}).
 *
 * @param <I> what the call was given (a size, a situation), for the recognisers
 * @param <A> the answer's type
 */
public final class Feedback<I, A> {

    /** Recognises one wrong answer from the input, the right answer and the answer given. */
    @FunctionalInterface
    public interface Recogniser<I, A> {
        boolean test(I input, A expected, A actual);
    }

    /**
     * A wrong answer students give.
     *
     * @param looksLike  the mistake in a few words: {@code rounding down}
     * @param recognises true when an answer is this mistake
     * @param rule       the rule it breaks, in the notes' words
     * @param reread     the section to reread
     */
    public record Mistake<I, A>(String looksLike, Recogniser<I, A> recognises, String rule, String reread) {
        public Mistake {
            Objects.requireNonNull(looksLike);
            Objects.requireNonNull(recognises);
            Objects.requireNonNull(rule);
            Objects.requireNonNull(reread);
        }
    }

    private final String step;
    private final String section;
    private final List<Mistake<I, A>> mistakes;
    private final Function<? super A, String> format;

    private Feedback(String step, String section, List<Mistake<I, A>> mistakes, Function<? super A, String> format) {
        this.step = step;
        this.section = section;
        this.mistakes = List.copyOf(mistakes);
        this.format = format;
    }

    /** Feedback for lab step {@code step}, whose rule is taught in {@code section} (as the step's marker names it). */
    public static <I, A> Feedback<I, A> forStep(String step, String section) {
        return new Feedback<>(step, section, List.of(), String::valueOf);
    }

    /** The same, recognising one more mistake, whose section to reread is the step's. */
    public Feedback<I, A> mistake(String looksLike, Recogniser<I, A> recognises, String rule) {
        return mistake(looksLike, recognises, rule, section);
    }

    /** The same, recognising one more mistake, taught in {@code reread}. */
    public Feedback<I, A> mistake(String looksLike, Recogniser<I, A> recognises, String rule, String reread) {
        List<Mistake<I, A>> more = new ArrayList<>(mistakes);
        more.add(new Mistake<>(looksLike, recognises, rule, reread));
        return new Feedback<>(step, section, more, format);
    }

    /** The same, printing answers with {@code format} (sizes as {@code 300032 B (293 KiB)}, say). */
    public Feedback<I, A> showing(Function<? super A, String> format) {
        return new Feedback<>(step, section, mistakes, format);
    }

    public String step() { return step; }

    public String section() { return section; }

    public List<Mistake<I, A>> mistakes() { return mistakes; }

    /** The first mistake that recognises this wrong answer; empty for a right one or an unknown one. */
    public Optional<Mistake<I, A>> recognise(I input, A expected, A actual) {
        if (Objects.equals(expected, actual)) return Optional.empty();
        for (Mistake<I, A> m : mistakes) {
            try {
                if (m.recognises().test(input, expected, actual)) return Optional.of(m);
            } catch (RuntimeException e) {
                // a recogniser that cannot read this answer does not recognise it
            }
        }
        return Optional.empty();
    }

    /** Passes when {@code actual} equals {@code expected}; otherwise fails with {@link #message}. */
    public void check(String call, I input, A actual, A expected) { check(call, input, actual, expected, null); }

    /** The same, with the state the call left (a segment map, say) below the hint. */
    public void check(String call, I input, A actual, A expected, Supplier<String> state) {
        if (Objects.equals(expected, actual)) return;
        String m = message(call, input, expected, actual);
        if (state != null) m += "\nState:\n" + state.get();
        throw new AssertionFailedError(m, expected, actual);
    }

    /**
     * Passes when {@code run} throws {@code expected}, the exception the step's contract (its
     * Javadoc) names; its message is the student's to word, so it is not checked. Otherwise fails
     * in the kit's format: {@code orderFor(0): expected IllegalArgumentException but was 20}. A
     * step not written yet ({@code vramlab.lab.Todo}) and an {@link Error} pass through.
     */
    public void checkThrows(String call, Class<? extends RuntimeException> expected, Supplier<?> run) {
        String got;
        try {
            got = "the answer " + format.apply(cast(run.get()));
        } catch (RuntimeException e) {
            if (expected.isInstance(e)) return;
            if (e.getClass().getName().equals("vramlab.lab.Todo")) throw e;
            got = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
        }
        throw new AssertionFailedError(call + ": expected " + expected.getSimpleName() + " but was " + got
                + "\nRule: the contract (the method's Javadoc) says which calls throw " + expected.getSimpleName() + "."
                + "\nReread: " + section + ".");
    }

    @SuppressWarnings("unchecked")
    private A cast(Object o) {
        try {
            return (A) o;
        } catch (ClassCastException e) {
            return null;
        }
    }

    /** The failure message: the call with expected and actual, then the mistake it looks like, if known. */
    public String message(String call, I input, A expected, A actual) {
        StringBuilder sb = new StringBuilder(call).append(": expected ").append(format.apply(expected))
                .append(" but was ").append(format.apply(actual));
        Optional<Mistake<I, A>> m = recognise(input, expected, actual);
        if (m.isPresent()) {
            sb.append("\nLooks like: ").append(m.get().looksLike()).append('.')
              .append("\nRule: ").append(m.get().rule()).append(endStop(m.get().rule()))
              .append("\nReread: ").append(m.get().reread()).append('.');
        } else {
            sb.append("\nReread: ").append(section).append('.');
        }
        return sb.toString();
    }

    private static String endStop(String s) { return s.endsWith(".") ? "" : "."; }
}
