package vramlab.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import vramlab.trace.TraceException;

/**
 * {@code ./vramlab <command> [args]}, parsed by picocli ({@link Launcher}). Exit status
 * (CONTRACTS.md): 0 when the command did its job, 2 for bad input or usage with one line
 * {@code error: <where>: <what>} on standard error and no stack trace, 1 for anything else.
 */
public final class Main {
    private Main() {}

    /** The commands by name, in the order the help lists them. */
    static Map<String, Command> commands() {
        Map<String, Command> m = new LinkedHashMap<>();
        for (Command c : list()) m.put(new CommandLine(c).getCommandName(), c);
        return m;
    }

    private static List<Command> list() {
        // In CONTRACTS.md's order (check, the student's loop, beside lab and jshell); labgen and
        // release are for the kit's maintainers and instructors. One command a line, so additions
        // merge cleanly.
        return List.of(
                new LabCommand(),
                new JshellCommand(),
                new CheckCommand(),
                new ExerciseCommand(),
                new ReplayCommand(),
                new TriageCommand(),
                new AdviseCommand(),
                new QuizCommand(),
                new GradeCommand(),
                new SiteCommand(),
                new SlidesCommand(),
                new LabgenCommand(),
                new ReleaseCommand(),
                new CompletionCommand());
    }

    public static void main(String[] args) {
        Io io = Io.system();
        int status = run(args, io);
        io.out().flush();
        System.exit(status);
    }

    public static int run(String[] args, Io io) {
        CommandLine cl = Launcher.of(list(), io);
        if (args.length == 0) {
            cl.usage(cl.getOut());
            cl.getOut().flush();
            return 2;
        }
        ParseResult parsed;
        try {
            parsed = cl.parseArgs(args);
        } catch (ParameterException e) {
            io.err().println("error: " + Launcher.message(e));
            return 2;
        }
        Integer help = CommandLine.executeHelpRequest(parsed);
        if (help != null) {
            cl.getOut().flush();
            return help;
        }
        ParseResult sub = parsed.subcommand();
        if (sub == null) {
            cl.usage(cl.getOut());
            cl.getOut().flush();
            return 2;
        }
        CommandLine at = sub.commandSpec().commandLine();
        Command c = (Command) at.getCommand();
        try {
            return c.run(io);
        } catch (UsageException | TraceException e) {
            io.err().println("error: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            io.err().println("error: " + at.getCommandName() + ": " + e);
            if (System.getenv("VRAMLAB_DEBUG") != null) e.printStackTrace(io.err());
            return 1;
        }
    }
}
