package vramlab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vramlab.labgen.LabGenerator;

/** {@code vramlab labgen}: for the kit's maintainers, regenerates labs/ from solutions/. */
final class LabgenCommand implements Command {
    @Override public String name() { return "labgen"; }
    @Override public String summary() { return "maintainers: regenerate labs/ from the step markers in solutions/"; }

    @Override
    public String usage() {
        return """
                usage: vramlab labgen [--list]

                Rewrites labs/src/main/java from solutions/src/main/java, each marked step replaced
                by a Todo. With --list, prints the steps instead. Run it from the repository root
                after changing a marked step; never in a student's copy (labs/STUDENT_COPY).
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws Exception {
        Args a = Args.parse("labgen", args, java.util.Set.of("--list"), java.util.Set.of());
        Path root = Path.of(System.getProperty("vramlab.home", "."));
        if (!Files.isDirectory(root.resolve("solutions/src/main/java"))) {
            throw new UsageException("labgen", "no solutions/ under " + root.toAbsolutePath());
        }
        if (a.flag("--list")) {
            for (LabGenerator.Step s : LabGenerator.steps(root.resolve("solutions"))) {
                io.out().println(s.id() + "  " + s.title() + "  (" + s.file() + "; notes: " + s.notes() + ")");
            }
            return 0;
        }
        if (Files.exists(root.resolve("labs/STUDENT_COPY"))) {
            throw new UsageException("labgen", "labs/STUDENT_COPY exists: this is a student's copy, labs/ is theirs");
        }
        LabGenerator.write(root.resolve("solutions"), root.resolve("labs"));
        io.out().println("labs/ regenerated: " + LabGenerator.steps(root.resolve("solutions")).size() + " steps");
        return 0;
    }
}
