package vramlab.quiz;

/**
 * A graded test that earns part of its points throws this instead of a plain assertion error:
 * the score listener books {@code earned} points (never more than the test's {@code points}).
 * A quiz question with four parts, two of them right, throws {@code new PartialCredit(2, 4, ...)}.
 */
public final class PartialCredit extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final int earned;
    private final int of;

    public PartialCredit(int earned, int of, String message) {
        super(message);
        if (earned < 0 || earned > of) throw new IllegalArgumentException("earned " + earned + " of " + of);
        this.earned = earned;
        this.of = of;
    }

    public int earned() { return earned; }
    public int of() { return of; }
}
