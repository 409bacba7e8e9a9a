package vramlab.cli;

import java.util.List;
import java.util.Set;

import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;

/**
 * {@code vramlab exercise <chapter> [N] [--seed S] [--answer]}: a chapter's homework. Without a
 * number it lists the exercises; with one it prints that exercise for a seed (1 unless given),
 * and with {@code --answer} the answer the reference simulator computes for the same seed.
 */
final class ExerciseCommand implements Command {
    @Override public String name() { return "exercise"; }
    @Override public String summary() { return "a chapter's homework: seeded scenarios, answers on request"; }

    @Override
    public String usage() {
        return """
                usage: vramlab exercise <chapter> [N] [--seed S] [--answer]

                Homework beyond the graded quiz. Without N, lists the chapter's exercises. With N,
                prints exercise N drawn from seed S (default 1): work it out by hand or in
                ./vramlab jshell <chapter>, then add --answer to see what the simulator computes
                for the same seed. Another seed gives other numbers for the same question.
                  ./vramlab exercise caching-allocator
                  ./vramlab exercise 3 2 --seed 7
                  ./vramlab exercise 3 2 --seed 7 --answer
                """;
    }

    @Override
    public int run(List<String> args, Io io) {
        Args a = Args.parse("exercise", args, Set.of("--answer"), Set.of("--seed"));
        List<String> pos = a.positional();
        if (pos.isEmpty() || pos.size() > 2) {
            throw new UsageException("exercise", "expected a chapter and an optional exercise number, e.g. "
                    + "vramlab exercise 3 2 --seed 7");
        }
        ChapterLab chapter = LabCommand.find(pos.get(0), "exercise");
        List<Exercise> all = chapter.exercises();
        if (all.isEmpty()) {
            throw new UsageException("exercise", chapter.id() + " has no exercises yet");
        }
        long seed = seed(a.value("--seed", "1"));
        if (pos.size() == 1) {
            if (a.flag("--answer") || !a.value("--seed", "").isEmpty()) {
                throw new UsageException("exercise", "--seed and --answer need an exercise number (1-" + all.size() + ")");
            }
            io.out().println("Exercises of " + chapter.id() + " (" + chapter.title() + "):");
            for (int i = 0; i < all.size(); i++) io.out().printf("  %d. %s%n", i + 1, all.get(i).title());
            io.out().println("Print one with: ./vramlab exercise " + chapter.number() + " N [--seed S] [--answer]");
            return 0;
        }
        int n = number(pos.get(1), all.size());
        Exercise e = all.get(n - 1);
        io.out().println("Exercise " + chapter.number() + "." + n + ": " + e.title() + " (seed " + seed + ")");
        io.out().println();
        io.out().println(e.prompt(seed).stripTrailing());
        if (a.flag("--answer")) {
            io.out().println();
            io.out().println("Answer (computed by the simulator for seed " + seed + "):");
            io.out().println(e.answer(seed).stripTrailing());
        } else {
            io.out().println();
            io.out().println("(add --answer to see what the simulator computes)");
        }
        return 0;
    }

    private static long seed(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new UsageException("exercise", "--seed '" + s + "': expected a whole number");
        }
    }

    private static int number(String s, int count) {
        try {
            int n = Integer.parseInt(s);
            if (n >= 1 && n <= count) return n;
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new UsageException("exercise", "exercise '" + s + "': expected a number from 1 to " + count);
    }
}
