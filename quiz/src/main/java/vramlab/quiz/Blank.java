package vramlab.quiz;

/**
 * One answer a student writes: its key on the answer sheet ({@code q3.1.a.size}), the form the
 * answer takes ("a size: 512, 4KiB, 2MiB"), and the check. The check holds the key; nothing
 * prints it, and its reasons say what is wrong without saying what is right. {@code solution}
 * is one right answer, for the kit's own tests and the instructor's key; the quiz command never
 * shows it.
 */
public record Blank(String key, String form, Check check, String solution) {

    /** Checks one answer. */
    @FunctionalInterface
    public interface Check {
        /** Null when {@code answer} (trimmed, not blank) is right; otherwise why it is not. */
        String wrong(String answer);
    }
}
