package vramlab.cli;

import java.nio.file.Path;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.kit.Scenario;
import vramlab.quiz.build.CoreBuild;

/**
 * {@code vramlab lab <chapter>}: runs a chapter's lab scenarios, one by one, on the reference
 * cores or (in a student's copy, or with {@code --mine}) on the student's own.
 */
@CommandLine.Command(name = "lab", mixinStandardHelpOptions = true,
        header = "run a chapter's lab scenarios and print their output",
        description = """
                Runs the chapter's lab scenarios one by one and prints what the notes show.
                In a student's copy (labs/STUDENT_COPY exists), or with --mine, they run on your
                own code in labs/ (compiled first, only what changed); a scenario that needs a step
                you have not written says which and the others still run. --reference runs the
                reference cores in solutions/ instead.""")
final class LabCommand implements Command {
    @Parameters(paramLabel = "<chapter>", arity = "1",
            description = "the chapter, by number (4, 04, ch04) or slug (real-oom)")
    String chapter;

    @Mixin CoresOption cores;

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
                CoreBuild.Result built = StudentCores.build(root, StudentCores.allCores(), io.err());
                try (StillRunning hint = StillRunning.after(HINT_AFTER, () -> {
                    io.err().println(stillRunning(c));
                    io.err().flush();
                })) {
                    return StudentCores.runChild(root, built.classpath(), List.of("lab", c.id()), io, false);
                }
            }
        }
        List<Scenario> scenarios = c.scenarios();
        Scenario.Outcome o = Scenario.runAll(io.out(), scenarios);
        if (!o.clean()) {
            io.out().flush();
            io.err().printf("vramlab: %d of %d scenarios stopped (%d at a step not written yet, %d at an error);"
                    + " ./vramlab check %d tells which steps pass%n", o.todos() + o.errors(), scenarios.size(),
                    o.todos(), o.errors(), c.number());
        }
        return o.errors() > 0 ? 1 : 0;
    }

    /** How long a lab on the student's cores runs before the launcher says a step may loop (the slowest lab takes seconds). */
    static final java.time.Duration HINT_AFTER = java.time.Duration.ofSeconds(30);

    /** What a lab still running after {@link #HINT_AFTER} says, once, on standard error. */
    static String stillRunning(ChapterLab c) {
        return "vramlab: lab " + c.id() + " is still running after " + HINT_AFTER.toSeconds() + " s; if a step of yours"
                + " loops forever, Ctrl-C stops it, and ./vramlab check " + c.number() + " names the method each"
                + " of its tests is stuck in";
    }

    static ChapterLab find(String name, String command) {
        try {
            return Chapters.find(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(command, e.getMessage());
        }
    }
}
