package vramlab.cli;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vramlab.trace.TraceException;

/**
 * {@code ./vramlab <command> [args]}. Exit status (CONTRACTS.md): 0 when the command did its
 * job, 2 for bad input or usage with one line {@code error: <where>: <what>} on standard
 * error and no stack trace, 1 for anything else.
 */
public final class Main {
    private Main() {}

    static Map<String, Command> commands() {
        Map<String, Command> m = new LinkedHashMap<>();
        // In CONTRACTS.md's order (check, the student's loop, beside lab and jshell); labgen and
        // release are for the kit's maintainers and instructors. One command a line, so additions
        // merge cleanly.
        for (Command c : List.of(
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
                new ReleaseCommand())) {
            m.put(c.name(), c);
        }
        return m;
    }

    public static void main(String[] args) {
        Io io = Io.system();
        int status = run(args, io);
        io.out().flush();
        System.exit(status);
    }

    public static int run(String[] args, Io io) {
        Map<String, Command> commands = commands();
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            io.out().print(overview(commands));
            return args.length == 0 ? 2 : 0;
        }
        Command c = commands.get(args[0]);
        if (c == null) {
            io.err().println("error: vramlab: unknown command '" + args[0] + "' (commands: "
                    + String.join(", ", commands.keySet()) + ")");
            return 2;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        if (rest.contains("--help") || rest.contains("-h")) {
            io.out().print(c.usage());
            return 0;
        }
        try {
            return c.run(rest, io);
        } catch (UsageException e) {
            io.err().println("error: " + e.getMessage());
            return 2;
        } catch (TraceException e) {
            io.err().println("error: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            io.err().println("error: " + c.name() + ": " + e);
            if (System.getenv("VRAMLAB_DEBUG") != null) e.printStackTrace(io.err());
            return 1;
        }
    }

    static String overview(Map<String, Command> commands) {
        StringBuilder sb = new StringBuilder("usage: vramlab <command> [options]\n\ncommands:\n");
        commands.values().forEach(c -> sb.append(String.format("  %-8s %s%n", c.name(), c.summary())));
        return sb.append("\nEvery command takes --help. Chapters are named by number (4, 04, ch04) or slug (real-oom).\n")
                 .append("Your loop: touch labs/STUDENT_COPY once; then lab, jshell and check run your code in labs/\n")
                 .append("(./vramlab check 3.1 for one step, check 3 for a chapter); --reference runs the reference.\n")
                 .toString();
    }
}
