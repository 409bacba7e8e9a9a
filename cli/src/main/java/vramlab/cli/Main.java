package vramlab.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import vramlab.kit.Scenario;
import vramlab.lab.Todo;
import vramlab.trace.TraceException;
import vramlab.units.Bytes;

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

    /**
     * The commands' names in CONTRACTS.md's order (check, the student's loop, beside lab and
     * jshell); labgen and release are for the kit's maintainers and instructors. They are the
     * names the commands declare ({@code MainTest} checks that they agree).
     */
    static final List<String> NAMES = List.of("lab", "jshell", "check", "exercise", "replay", "triage",
            "advise", "contest", "quiz", "grade", "site", "slides", "labgen", "release", "completion");

    /** A new command by its name, or null. One command a line, so additions merge cleanly. */
    static Command create(String name) {
        return switch (name) {
            case "lab" -> new LabCommand();
            case "jshell" -> new JshellCommand();
            case "check" -> new CheckCommand();
            case "exercise" -> new ExerciseCommand();
            case "replay" -> new ReplayCommand();
            case "triage" -> new TriageCommand();
            case "advise" -> new AdviseCommand();
            case "contest" -> new ContestCommand();
            case "quiz" -> new QuizCommand();
            case "grade" -> new GradeCommand();
            case "site" -> new SiteCommand();
            case "slides" -> new SlidesCommand();
            case "labgen" -> new LabgenCommand();
            case "release" -> new ReleaseCommand();
            case "completion" -> new CompletionCommand();
            default -> null;
        };
    }

    private static List<Command> list() {
        List<Command> all = new ArrayList<>();
        for (String name : NAMES) all.add(create(name));
        return all;
    }

    /**
     * The commands a command line needs: the one it starts with alone (so {@code ./vramlab
     * replay} never pays for the other commands' option models, which picocli reads by
     * reflection), none for {@code --version}, or all of them for the root's help, {@code help <command>}, a
     * mistyped command (its suggestion) and {@code completion} (a script for every command).
     */
    static List<Command> needed(String[] args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) return List.of();
        Command one = args.length == 0 || args[0].equals("completion") ? null : create(args[0]);
        return one != null ? List.of(one) : list();
    }

    public static void main(String[] args) {
        Io io = Io.system();
        int status;
        try {
            status = run(args, io);
            io.out().flush();
        } catch (StandardOutput.Closed e) {              // help, usage and --version write outside a command
            status = cannotWrite(e, "vramlab", io);
        }
        System.exit(status);
    }

    /** Standard output failed: status 0 and nothing said when the reader went away (| head), else one line and 1. */
    private static int cannotWrite(StandardOutput.Closed e, String name, Io io) {
        if (e.readerWentAway()) return 0;
        io.err().println("error: " + name + ": could not write standard output: " + e.getMessage());
        return 1;
    }

    public static int run(String[] args, Io io) {
        ReplayCommand plain = ReplayCommand.parsePlain(args);     // a plain replay needs no picocli
        if (plain != null) return execute(inRelease("replay") ? onYourCores("replay", args) : plain, "replay", io);
        CommandLine cl = Launcher.of(needed(args), io);
        if (args.length == 0) return noCommand(cl, io);
        ParseResult parsed;
        try {
            parsed = cl.parseArgs(args);
        } catch (ParameterException e) {
            io.err().println("error: " + Launcher.message(e));
            return 2;
        }
        Integer help;
        try {
            help = CommandLine.executeHelpRequest(parsed);
        } catch (ParameterException e) {                 // help NOSUCH: picocli's HelpCommand throws
            io.err().println("error: " + Launcher.message(unknownCommand(cl, e)));
            return 2;
        }
        if (help != null) {
            cl.getOut().flush();
            return help;
        }
        ParseResult sub = parsed.subcommand();
        if (sub == null) return noCommand(cl, io);
        CommandLine at = sub.commandSpec().commandLine();
        String name = at.getCommandName();
        Command command = (Command) at.getCommand();
        if (inRelease(name) && command instanceof TriageCommand triage) {
            triage.snapshotsOnYourCores = onYourCores(name, args);      // a pasted message compiles nothing
        } else if (inRelease(name)) {
            command = onYourCores(name, args);
        }
        return execute(command, name, io);
    }

    /**
     * No command given: the usage on standard output, as before, and (exit 2 being usage) the
     * one {@code error:} line on standard error that every exit 2 carries, so a script that
     * reads standard error is told what went wrong.
     */
    private static int noCommand(CommandLine cl, Io io) {
        cl.usage(cl.getOut());
        cl.getOut().flush();
        io.err().println("error: vramlab: expected a command (./vramlab --help lists them)");
        return 2;
    }

    /**
     * {@code help NOSUCH}: picocli's help command refuses it with a bare ParameterException
     * ("Unknown subcommand 'NOSUCH'."), which escaped as a stack trace and exit 1; it is read as
     * the mistyped command it is, with the close match and the list.
     */
    private static ParameterException unknownCommand(CommandLine root, ParameterException e) {
        String arg = e.getValue();
        if (arg == null) return e;
        return new picocli.CommandLine.UnmatchedArgumentException(root, List.of(arg));
    }

    /**
     * The commands that run the cores without a choice of whose, each with the cores it runs: the
     * launcher's own class path holds the reference, and in a student's copy they run it still (so
     * a labs/ file that does not compile never stops them). A release has no reference, only the
     * cores as handed out, every step a Todo: there they run the student's labs/, as lab does,
     * compiling only these cores (the replayer, the advisor and the triage's who-holds and
     * {@code --device} replay run the caching allocator, on the driver and page tables under it;
     * {@code triage} of a pasted message, which reads text, compiles none and runs as handed out:
     * {@link TriageCommand#snapshotsOnYourCores});
     * every other core runs as handed out, and one line names it when it changed or did not
     * compile last time. {@code ChapterCoresLoadedTest} runs each command and fails when it loads
     * a class of a core left out here. (exercise is not among them: a release answers its
     * exercises from the reference's answers, recorded when it was written.)
     */
    static final java.util.Map<String, List<String>> ON_THE_CORES = java.util.Map.of(
            "replay", List.of("base", "gmmu", "driver", "alloc"),
            "advise", List.of("base", "gmmu", "driver", "alloc"),
            "triage", List.of("base", "gmmu", "driver", "alloc"));

    /** Whether {@code command} is to run again in a child JVM on the student's cores: a release, not that child yet. */
    private static boolean inRelease(String command) {
        return ON_THE_CORES.containsKey(command) && !StudentCores.inChild()
                && vramlab.quiz.KitPaths.isRelease(StudentCores.root());
    }

    /**
     * The same command line, run in a child JVM on the student's labs/: the cores {@code command}
     * runs compiled first (one core at a time), the others as handed out.
     */
    private static Command onYourCores(String command, String[] args) {
        return io -> {
            java.nio.file.Path root = StudentCores.root();
            List<java.nio.file.Path> cores = StudentCores.forCores(root, ChapterCores.withNeeds(ON_THE_CORES.get(command)),
                    command, command, io.err());
            return StudentCores.runChild(root, cores, List.of(args), io, true);
        };
    }

    /** Runs a parsed command: exit 2 with one line for bad input, 1 for anything else. */
    private static int execute(Command c, String name, Io io) {
        try {
            return c.run(io);
        } catch (UsageException | TraceException e) {
            io.err().println("error: " + e.getMessage());
            return 2;
        } catch (StandardOutput.Closed e) {
            return cannotWrite(e, name, io);
        } catch (Exception | StackOverflowError e) {
            io.err().println("error: " + name + ": " + failure(e));
            if (System.getenv("VRAMLAB_DEBUG") != null) e.printStackTrace(io.err());
            return 1;
        } catch (OutOfMemoryError e) {
            io.err().println("error: " + name + ": ran out of memory (the heap holds "
                    + Bytes.readable(Runtime.getRuntime().maxMemory()) + "; give it more with"
                    + " VRAMLAB_JAVA_OPTS=-Xmx8g, or hand it a smaller file)");
            return 1;
        }
    }

    /**
     * A command's failure in one line: a step of the cores not written yet (a student's copy runs
     * its own cores in labs/, and a command can reach one of their Todos) as that step's
     * message, else {@link #unexpected}.
     */
    static String failure(Throwable e) {
        Todo todo = Scenario.todoIn(e);
        if (todo != null) return "it runs your cores in labs/, and step " + todo.step() + " is not done: " + todo.getMessage();
        return unexpected(e);
    }

    /**
     * A failure nobody foresaw, in one line without a Java type name: its message when it has
     * one, and where to look for the rest ({@code VRAMLAB_DEBUG=1} prints the stack trace).
     */
    static String unexpected(Throwable e) {
        String m = e.getMessage();
        // the JDK's own exceptions (a null, a cast, an index) say it in Java's words: not shown
        boolean readable = e instanceof IllegalArgumentException || e instanceof IllegalStateException
                || e instanceof java.io.IOException || e instanceof java.io.UncheckedIOException;
        String what = e instanceof StackOverflowError ? "its input nests too deep to follow"
                : !readable || m == null || m.isBlank() ? "an internal error" : m.lines().findFirst().orElse(m);
        return what + " (an internal error of the kit: VRAMLAB_DEBUG=1 prints where)";
    }
}
