package vramlab.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import vramlab.labgen.LabGenerator;

/**
 * {@code vramlab labgen}: for the kit's maintainers, brings labs/ up to date with solutions/ now
 * (the build does the same before labgen's tests; {@link LabGenerator#sync}).
 */
@CommandLine.Command(name = "labgen", mixinStandardHelpOptions = true,
        header = "maintainers: regenerate labs/ from the step markers in solutions/",
        description = """
                Brings labs/src/main/java up to date with solutions/src/main/java, each marked step
                replaced by a Todo, as every build does (labs/src/main/java is generated, not kept in
                git). A file edited by hand is left alone and named; --force replaces it too. Never in a
                student's copy (labs/STUDENT_COPY) or a student release: labs/ is theirs there.""")
final class LabgenCommand implements Command {
    @Option(names = "--list", description = "print the steps instead")
    boolean list;

    @Option(names = "--force", description = "replace files of labs/ edited by hand too (never in a student's copy)")
    boolean force;

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
        String students = LabGenerator.studentsCopy(root.resolve("labs"));
        if (students != null) {
            throw new UsageException("labgen", students + "; nothing written");
        }
        LabGenerator.Synced s = LabGenerator.sync(root.resolve("solutions"), root.resolve("labs"), force);
        if (s.summary() != null) io.out().println(s.summary());
        io.out().println("labs/ is up to date: " + LabGenerator.steps(root.resolve("solutions")).size() + " steps"
                + (s.edited().isEmpty() ? "" : ", except the " + s.edited().size() + " files named above"));
        return s.edited().isEmpty() ? 0 : 1;
    }
}
