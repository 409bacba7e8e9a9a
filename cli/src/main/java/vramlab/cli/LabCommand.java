package vramlab.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.kit.Scenario;
import vramlab.quiz.feedback.StepPlaces;

/**
 * {@code vramlab lab <chapter>}: runs a chapter's lab scenarios, one by one, on the reference
 * cores or (in a student's copy, or with {@code --mine}) on the student's own.
 */
@CommandLine.Command(name = "lab", mixinStandardHelpOptions = true,
        header = "run a chapter's lab scenarios and print their output",
        description = """
                Runs the chapter's lab scenarios one by one and prints what the notes show.
                In a student's copy (labs/STUDENT_COPY exists), or with --mine, they run on your
                own code in labs/ (compiled first: the cores the chapter uses, only what
                changed); a scenario that needs a step
                you have not written says which and the others still run. --reference runs the
                reference cores in solutions/ instead.
                A scenario still running after --scenario-limit seconds (a step that loops forever) is
                stopped, naming your line it was running, and the lab ends there; one that calls
                System.exit says so and where, and ends the lab.
                Exit status 0 when every scenario ran or stopped only at a step not written yet; 1
                when one stopped at an error, ran past the limit or called System.exit.""")
final class LabCommand implements Command {
    @Parameters(paramLabel = "<chapter>", arity = "1",
            description = "the chapter, by number (4, 04, ch04) or slug (real-oom)")
    String chapter;

    @Mixin CoresOption cores;

    @picocli.CommandLine.Option(names = "--scenario-limit", paramLabel = "<s>", converter = PositiveConverter.class,
            description = "stop a scenario still running after this many seconds, and the lab with it (default: ${DEFAULT-VALUE})")
    long limitSeconds = SCENARIO_LIMIT.toSeconds();

    @Override
    public void describe(CommandSpec spec) {
        StringBuilder sb = new StringBuilder("%nchapters:%n");
        for (ChapterLab c : Chapters.all()) sb.append(String.format("  %-26s %s%%n", c.id(), c.title()));
        spec.usageMessage().footer(sb.toString());
    }

    @Override
    public String expected() { return "expected one chapter, e.g. vramlab lab real-oom"; }

    @Override
    public int run(Io io) throws Exception {
        ChapterLab c = find(chapter, "lab");
        if (!StudentCores.inChild()) {
            Path root = StudentCores.root();
            boolean mine = StudentCores.mine(root, cores, "lab");
            io.err().println(StudentCores.whose(root, mine, "lab " + c.id()));
            if (mine) {
                List<Path> built = StudentCores.forChapter(root, c, "lab " + c.id(), io.err());
                try (StillRunning hint = hint(c, io)) {
                    return StudentCores.runChild(root, built,
                            List.of("lab", c.id(), "--scenario-limit", String.valueOf(limitSeconds)), io, false);
                }
            }
        }
        List<Scenario> scenarios = c.scenarios();
        Scenario.Outcome o = Scenario.runAll(io.out(), scenarios, bound(Duration.ofSeconds(limitSeconds)));
        if (o.notRun() > 0) {
            io.out().flush();
            io.err().printf("vramlab: lab %s ended at a scenario still running after %d s; the %d after it did not"
                    + " run (--scenario-limit sets the limit)%n", c.id(), limitSeconds, o.notRun());
        }
        if (!o.clean()) {
            io.out().flush();
            io.err().printf("vramlab: %d of %d scenarios stopped (%d at a step not written yet, %d at an error);"
                    + " ./vramlab check %d tells which steps pass%n", o.todos() + o.errors(), scenarios.size(),
                    o.todos(), o.errors(), c.number());
            String later = laterSteps(c.number(), o.steps());
            if (later != null) io.err().println(later);
        }
        return o.errors() > 0 ? 1 : 0;
    }

    /**
     * A line for the steps among {@code steps} that belong to a chapter after {@code chapter}
     * (chapter 2's lab compares cudaMalloc with chapter 3's caching allocator), or null when
     * none does: a student of the chapter is not asked to write them yet.
     */
    static String laterSteps(int chapter, List<String> steps) {
        List<String> later = steps.stream().filter(s -> chapterOf(s) > chapter).toList();
        if (later.isEmpty()) return null;
        String chapters = String.join(", ", later.stream().map(s -> String.valueOf(chapterOf(s))).distinct().toList());
        boolean one = later.size() == 1;
        return "vramlab: " + (one ? "step " : "steps ") + String.join(", ", later) + " of chapter " + chapters
                + (one ? " is" : " are") + " not this chapter's: the scenario that stops at " + (one ? "it" : "them")
                + " runs once you reach chapter " + chapters + "; ./vramlab check " + chapter + " does not need "
                + (one ? "it" : "them");
    }

    private static int chapterOf(String step) {
        int dot = step.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? step : step.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * How long one scenario may run. Every chapter's whole lab on the reference cores, measured
     * with ./vramlab lab N on a 2-core machine at a load of 12: ch06-buddy 4.5 to 12.8 s,
     * ch04-real-oom 6.5 to 9.2 s, ch08-malloc-lab 1.5 to 4.9 s, the others under 2 s (launch
     * included). Two minutes leave a student's correct but slower code ten times the slowest
     * whole lab for a single scenario.
     */
    static final Duration SCENARIO_LIMIT = Duration.ofSeconds(120);

    /** The bound a lab runs its scenarios under: where a stuck one is is said as {@code check} says it. */
    static Scenario.Bound bound(Duration limit) {
        return new Scenario.Bound(limit, stack -> where(StepPlaces.read(StudentCores.root()).values(), stack));
    }

    /**
     * Where a lab's thread is, from its stack: {@code ": your line ToyPolicy.java:33, in
     * ToyPolicy.roundSize (step 3.1)"} for the first frame that runs a step's method, else the
     * first frame in the cores.
     */
    static String where(Collection<StepPlaces.Place> places, StackTraceElement[] stack) {
        return StepPlaces.running(places, stack).map(own -> ": your line " + own.line() + ", in " + own.method())
                .orElseGet(() -> Scenario.firstCoreFrame(stack));
    }

    /** How long a lab on the student's cores runs before the launcher says a step may loop (the slowest lab takes seconds). */
    static final java.time.Duration HINT_AFTER = java.time.Duration.ofSeconds(30);

    /**
     * The line a lab on the student's cores says once it has run {@link #HINT_AFTER}; none (null)
     * when {@code --scenario-limit} is that long or shorter: a scenario that loops is then
     * stopped, its line named, within a wait no longer than the hint's own, and "still running
     * after 30 s; ... stopped at 2 s" would read as a contradiction.
     */
    StillRunning hint(ChapterLab c, Io io) {
        if (limitSeconds <= HINT_AFTER.toSeconds()) return null;
        return StillRunning.after(HINT_AFTER, () -> {
            io.err().println(stillRunning(c, limitSeconds));
            io.err().flush();
        });
    }

    /** What a lab still running after {@link #HINT_AFTER} says, once, on standard error. */
    static String stillRunning(ChapterLab c, long limitSeconds) {
        return "vramlab: lab " + c.id() + " is still running after " + HINT_AFTER.toSeconds() + " s; if a step of yours"
                + " loops forever, the scenario running it is stopped at " + limitSeconds + " s and your line named"
                + " (Ctrl-C stops the lab now)";
    }

    static ChapterLab find(String name, String command) {
        try {
            return Chapters.find(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(command, e.getMessage());
        }
    }
}
