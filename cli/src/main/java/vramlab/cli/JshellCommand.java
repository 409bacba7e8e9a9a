package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vramlab.kit.ChapterLab;

/**
 * {@code vramlab jshell <chapter>}: JShell on the chapter's classpath with its lab imported.
 * At a terminal it opens the real JShell; with piped input it runs the snippets it reads,
 * prints what JShell would, and exits.
 */
final class JshellCommand implements Command {
    @Override public String name() { return "jshell"; }
    @Override public String summary() { return "open JShell with a chapter's lab classes imported (type help())"; }

    @Override
    public String usage() {
        return """
                usage: vramlab jshell <chapter>

                Opens JShell with the chapter's classes on the classpath, its lab imported, and a
                help() that lists what to try and the steps you write. When standard input is not
                a terminal, it runs the snippets it reads and exits, for example:
                  echo 'var sim = new Sim(mib(40)); sim.alloc(mib(3) + 1)' | ./vramlab jshell real-oom
                Snippets that do not compile are reported as error: <stdin>:LINE: ... (exit 2).
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws IOException, InterruptedException {
        if (args.size() != 1) throw new UsageException("jshell", "expected one chapter, e.g. vramlab jshell real-oom");
        ChapterLab chapter = LabCommand.find(args.get(0), "jshell");
        String classpath = System.getProperty("java.class.path");
        if (System.console() == null) {
            return new SnippetRunner(classpath, io).run(chapter.jshellStartup(),
                    new String(io.in().readAllBytes(), StandardCharsets.UTF_8));
        }
        Path startup = Files.createTempFile("vramlab-" + chapter.id(), ".jsh");
        startup.toFile().deleteOnExit();
        Files.writeString(startup, chapter.jshellStartup()
                + "System.out.println(\"" + chapter.id() + ": type help() for what to try, /exit to leave\");\n");
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        io.out().flush();
        Process p = new ProcessBuilder(jshell.toString(), "--class-path", classpath,
                "--startup", "DEFAULT", "--startup", startup.toString()).inheritIO().start();
        return p.waitFor();
    }
}
