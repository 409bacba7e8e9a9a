package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import vramlab.kit.ChapterLab;

/**
 * {@code vramlab jshell <chapter>}: JShell on the chapter's classpath with its lab imported, on
 * the reference cores or (in a student's copy, or with {@code --mine}) on the student's own. At
 * a terminal it opens the real JShell; with piped input it runs the snippets it reads, prints
 * what JShell would, and exits.
 */
@CommandLine.Command(name = "jshell", mixinStandardHelpOptions = true,
        header = "open JShell with a chapter's lab classes imported (type help())",
        description = """
                Opens JShell with the chapter's classes on the classpath, its lab imported, and a
                help() that lists what to try, the steps you write, and the lab's scenarios as
                files you can replay line by line with /open.
                In a student's copy (labs/STUDENT_COPY exists), or with --mine, the cores are your
                own code in labs/ (compiled first: the cores the chapter uses, only what
                changed): a step you have not written
                throws its Todo, naming the step and the section of the notes to read.
                --reference uses the reference cores in solutions/ instead.
                When standard input is not a terminal, it runs the snippets it reads and exits, e.g.
                  echo 'var sim = new Sim(mib(40)); sim.alloc(mib(3) + 1)' | ./vramlab jshell real-oom
                Snippets that do not compile are reported as error: <stdin>:LINE: ... (exit 2).""")
final class JshellCommand implements Command {
    @Parameters(paramLabel = "<chapter>", arity = "1",
            description = "the chapter, by number (4, 04, ch04) or slug (real-oom)")
    String chapterName;

    @Mixin CoresOption cores;

    @Override
    public String expected() { return "expected one chapter, e.g. vramlab jshell real-oom"; }

    @Override
    public int run(Io io) throws IOException, InterruptedException {
        ChapterLab chapter = LabCommand.find(chapterName, "jshell");
        String classpath = System.getProperty("java.class.path");
        boolean mine = StudentCores.inChild();
        if (!mine) {
            Path root = StudentCores.root();
            boolean wantMine = StudentCores.mine(root, cores, "jshell");
            // Said at an interactive prompt; piped snippets (scripts, the kit's tests) keep stderr for errors.
            if (System.console() != null) io.err().println(StudentCores.whose(root, wantMine, "jshell " + chapter.id()));
            if (wantMine) {
                List<Path> built = StudentCores.forChapter(root, chapter, "jshell " + chapter.id(), io.err());
                if (System.console() == null) {
                    return StudentCores.runChild(root, built, List.of("jshell", chapter.id()), io, true);
                }
                classpath = StudentCores.classpath(built);
                mine = true;
            }
        }
        String startup = chapter.jshellStartup() + Snippets.of(chapter).jshellMethod();
        if (System.console() == null) return new SnippetRunner(classpath, io).run(startup, new String(
                io.in().readAllBytes(), StandardCharsets.UTF_8));
        Path file = Files.createTempFile("vramlab-" + chapter.id(), ".jsh");
        file.toFile().deleteOnExit();
        Files.writeString(file, startup + "System.out.println(\"" + chapter.id()
                + (mine ? " on your cores in labs/" : "") + ": type help() for what to try, /exit to leave\");\n");
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        io.out().flush();
        // --execution vramlab: snippets run in JShell's JVM (JshellLongs, on its class path), so a long shows its hex or units
        // -Dvramlab.home: where a snippet that calls System.exit is, is said from the kit's steps (JshellLongs.exiting)
        Process p = new ProcessBuilder(jshell.toString(), "-J--class-path", "-J" + classpath,
                "-J-Dvramlab.home=" + StudentCores.root(), "--execution", JshellLongs.NAME,
                "--class-path", classpath,
                "--startup", "DEFAULT", "--startup", file.toString()).inheritIO().start();
        return p.waitFor();
    }
}
