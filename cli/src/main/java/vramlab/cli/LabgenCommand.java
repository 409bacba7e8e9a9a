package vramlab.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import vramlab.labgen.LabGenerator;

/** {@code vramlab labgen}: for the kit's maintainers, regenerates labs/ from solutions/. */
@CommandLine.Command(name = "labgen", mixinStandardHelpOptions = true,
        header = "maintainers: regenerate labs/ from the step markers in solutions/",
        description = """
                Rewrites labs/src/main/java from solutions/src/main/java, each marked step replaced
                by a Todo. Run it from the repository root after changing a marked step; never in a
                student's copy (labs/STUDENT_COPY).""")
final class LabgenCommand implements Command {
    @Option(names = "--list", description = "print the steps instead")
    boolean list;

    @Override
    public int run(Io io) throws Exception {
        Path root = Path.of(System.getProperty("vramlab.home", "."));
        if (!Files.isDirectory(root.resolve("solutions/src/main/java"))) {
            throw new UsageException("labgen", "no solutions/ under " + root.toAbsolutePath());
        }
        if (list) {
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
