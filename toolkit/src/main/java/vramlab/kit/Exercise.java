package vramlab.kit;

/**
 * Homework beyond the graded quiz, as OSTEP's simulators set it: a scenario drawn from a seed,
 * whose question a reader works out by hand (or in JShell) and whose answer the kit reveals on
 * request ({@code ./vramlab exercise <chapter> <n> --seed S --answer}, like OSTEP's {@code -c}).
 * The answer is computed by running the reference simulator on the same seed, never typed in.
 *
 * <p>A chapter lists its exercises in {@link ChapterLab#exercises()}, in the order its notes'
 * "Exercises" section numbers them.
 */
public interface Exercise {
    /** A short title: {@code "Predict the block"}. */
    String title();

    /** The question for {@code seed}: every number the reader needs, nothing of the answer. */
    String prompt(long seed);

    /** The answer for {@code seed}, with the working a reader can check theirs against. */
    String answer(long seed);
}
