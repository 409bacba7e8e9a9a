package vramlab.cli;

import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import vramlab.kit.ChapterLab;
import vramlab.kit.Exercise;
import vramlab.quiz.KitPaths;

/**
 * {@code vramlab exercise <chapter> [N] [--seed S] [--answer]}: a chapter's homework. Without a
 * number it lists the exercises; with one it prints that exercise for a seed (1 unless given),
 * and with {@code --answer} the answer the reference simulator computes for the same seed.
 */
@CommandLine.Command(name = "exercise", mixinStandardHelpOptions = true,
        header = "a chapter's homework: seeded scenarios, answers on request",
        description = """
                Homework beyond the graded quiz. Without N, lists the chapter's exercises. With N,
                prints exercise N drawn from seed S (default 1): work it out by hand or in
                ./vramlab jshell <chapter>, then add --answer to see what the simulator computes
                for the same seed. Another seed gives other numbers for the same question.
                  ./vramlab exercise caching-allocator
                  ./vramlab exercise 3 2 --seed 7
                  ./vramlab exercise 3 2 --seed 7 --answer""")
final class ExerciseCommand implements Command {
    @Parameters(index = "0", paramLabel = "<chapter>", arity = "1",
            description = "the chapter, by number (3, 03, ch03) or slug (caching-allocator)")
    String chapterName;

    @Parameters(index = "1", paramLabel = "N", arity = "0..1", description = "the exercise's number")
    String number;

    @Parameters(index = "2..*", hidden = true)
    List<String> rest = List.of();

    @Option(names = "--seed", paramLabel = "S", description = "the seed the exercise is drawn from (default 1)")
    String seedText;

    @Option(names = "--answer", description = "also print what the simulator computes for the same seed")
    boolean answer;

    @Override
    public String expected() {
        return "expected a chapter and an optional exercise number, e.g. vramlab exercise 3 2 --seed 7";
    }

    @Override
    public int run(Io io) throws java.io.IOException {
        if (!rest.isEmpty()) throw new UsageException("exercise", expected());
        ChapterLab chapter = LabCommand.find(chapterName, "exercise");
        List<Exercise> all = chapter.exercises();
        if (all.isEmpty()) {
            throw new UsageException("exercise", chapter.id() + " has no exercises yet");
        }
        long seed = seed(seedText == null ? "1" : seedText);
        if (number == null) {
            if (answer || seedText != null) {
                throw new UsageException("exercise", "--seed and --answer need an exercise number (1-" + all.size() + ")");
            }
            io.out().println("Exercises of " + chapter.id() + " (" + chapter.title() + "):");
            for (int i = 0; i < all.size(); i++) io.out().printf("  %d. %s%n", i + 1, all.get(i).title());
            io.out().println("Print one with: ./vramlab exercise " + chapter.number() + " N [--seed S] [--answer]");
            return 0;
        }
        int n = number(number, all.size());
        Exercise e = all.get(n - 1);
        boolean release = KitPaths.isRelease(KitPaths.root());
        String prompt = release ? PracticeKeys.exercise(KitPaths.root(), chapter.number(), n, seed, "prompt") : null;
        String answerText = release ? PracticeKeys.exercise(KitPaths.root(), chapter.number(), n, seed, "answer") : null;
        if (release && prompt == null) {
            throw new UsageException("exercise", "--seed " + seed + ": this copy holds the exercises for seeds 1-"
                    + PracticeKeys.exerciseSeeds(KitPaths.root()) + ", computed by the kit's reference when it was made (its cores here are yours)");
        }
        io.out().println("Exercise " + chapter.number() + "." + n + ": " + e.title() + " (seed " + seed + ")");
        io.out().println();
        io.out().println((prompt != null ? prompt : e.prompt(seed)).stripTrailing());
        if (answer) {
            io.out().println();
            io.out().println("Answer (computed by the simulator for seed " + seed + "):");
            io.out().println((answerText != null ? answerText : e.answer(seed)).stripTrailing());
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
