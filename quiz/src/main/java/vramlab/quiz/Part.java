package vramlab.quiz;

import java.util.List;

/**
 * One part of a question, for example "(b)": worth {@code points} when every blank is right,
 * 0 otherwise.
 */
public record Part(String label, int points, List<Blank> blanks) {
    public Part {
        if (points < 1) throw new IllegalArgumentException("part " + label + ": points must be positive");
        if (blanks.isEmpty()) throw new IllegalArgumentException("part " + label + ": no blanks");
        blanks = List.copyOf(blanks);
    }

    public static Part of(String label, int points, Blank... blanks) { return new Part(label, points, List.of(blanks)); }
}
