package vramlab.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.kit.Scenario;
import vramlab.quiz.build.CoreBuild;

/**
 * {@code vramlab lab <chapter>}: runs a chapter's lab scenarios, one by one, on the reference
 * cores or (in a student's copy, or with {@code --mine}) on the student's own.
 */
final class LabCommand implements Command {
    @Override public String name() { return "lab"; }
    @Override public String summary() { return "run a chapter's lab scenarios and print their output"; }

    @Override
    public String usage() {
        StringBuilder sb = new StringBuilder("""
                usage: vramlab lab <chapter> [--mine | --reference]

                Runs the chapter's lab scenarios one by one and prints what the notes show.
                In a student's copy (labs/STUDENT_COPY exists), or with --mine, they run on your
                own code in labs/ (compiled first, only what changed); a scenario that needs a step
                you have not written says which and the others still run. --reference runs the
                reference cores in solutions/ instead.

                chapters:
                """);
        for (ChapterLab c : Chapters.all()) sb.append(String.format("  %-26s %s%n", c.id(), c.title()));
        return sb.toString();
    }

    @Override
    public int run(List<String> args, Io io) throws Exception {
        Args a = Args.parse("lab", args, Set.of("--mine", "--reference"), Set.of());
        if (a.positional().size() != 1) {
            throw new UsageException("lab", "expected one chapter, e.g. vramlab lab real-oom");
        }
        ChapterLab c = find(a.positional().get(0), "lab");
        if (!StudentCores.inChild()) {
            Path root = StudentCores.root();
            if (StudentCores.mine(root, a, "lab")) {
                CoreBuild.Result built = StudentCores.build(root, StudentCores.allCores(), io.err());
                io.err().println("vramlab: running " + c.id() + " on your cores in labs/"
                        + " (--reference runs the reference)");
                return StudentCores.runChild(root, built.classpath(), List.of("lab", c.id()), io, false);
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

    static ChapterLab find(String name, String command) {
        try {
            return Chapters.find(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(command, e.getMessage());
        }
    }
}
