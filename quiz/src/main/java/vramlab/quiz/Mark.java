package vramlab.quiz;

import java.util.ArrayList;
import java.util.List;

/**
 * A question marked against one answer sheet: the points of each part and, for each part that
 * lost its points, why. Reasons never contain the key.
 */
public record Mark(String question, int earned, int points, List<String> problems) {

    /** Marks {@code q} for variant {@code v} against {@code sheet}. */
    public static Mark of(Question q, Variant v, AnswerSheet sheet) {
        int earned = 0, points = 0, unanswered = 0, blanks = 0;
        List<String> problems = new ArrayList<>();
        for (Part p : q.parts(v)) {
            points += p.points();
            List<String> wrong = new ArrayList<>();
            for (Blank b : p.blanks()) {
                blanks++;
                String answer = sheet.get(b.key());
                if (answer == null) {
                    unanswered++;
                    wrong.add(b.key() + ": not answered");
                    continue;
                }
                String why;
                try {
                    why = b.check().wrong(answer);
                } catch (RuntimeException e) {
                    why = "could not check '" + answer + "': " + e.getMessage();
                }
                if (why != null) wrong.add(b.key() + ": " + why);
            }
            if (wrong.isEmpty()) earned += p.points();
            else problems.add("(" + p.label() + ") " + String.join("; ", wrong));
        }
        if (unanswered == blanks) problems = List.of("not answered (no blank of " + q.id() + " is filled in "
                + sheet.where() + ")");
        return new Mark(q.id(), earned, points, List.copyOf(problems));
    }

    public boolean full() { return earned == points; }

    public String summary() {
        return question + ": " + earned + "/" + points + (problems.isEmpty() ? "" : ": " + String.join(" | ", problems));
    }
}
