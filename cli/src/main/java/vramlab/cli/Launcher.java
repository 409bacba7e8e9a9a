package vramlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The launcher's command line on picocli: the {@code vramlab} root with every {@link Command} as a
 * subcommand, the help layout the kit's help has always had ({@code usage: vramlab NAME ...}
 * first, arguments before options as the kit writes them), and picocli's parse errors said as
 * the contract wants them: one line {@code error: <command>: <what>}.
 */
final class Launcher {
    /** Help lines are this wide, as the kit's hand-written help was. */
    static final int WIDTH = 100;

    private Launcher() {}

    /** The root command: {@code --help}, {@code --version} and {@code help [command]}. */
    @CommandLine.Command(name = "vramlab", versionProvider = Version.class, mixinStandardHelpOptions = true,
            subcommands = CommandLine.HelpCommand.class,
            description = "How GPU memory is really managed: the kit's simulators, labs, quizzes and tools.",
            footer = {"",
                "Every command takes --help. Chapters are named by number (4, 04, ch04) or slug (real-oom).",
                "Your loop: touch labs/STUDENT_COPY once; then lab, jshell and check run your code in labs/",
                "(./vramlab check 3.1 for one step, check 3 for a chapter); --reference runs the reference.",
                "Shell completion: ./vramlab completion > vramlab-completion.bash (see README.adoc).",
                "Offline: VRAMLAB_OFFLINE=1 ./vramlab ... builds the kit with Maven's -o, from ~/.m2 alone."})
    static final class Root {}

    /**
     * The root's footer in a student release, which holds {@code labs/STUDENT_COPY} already and
     * refuses {@code --reference}: the kit's footer told its students to touch the one and use
     * the other.
     */
    static final String[] RELEASE_FOOTER = {"",
        "Every command takes --help. Chapters are named by number (4, 04, ch04) or slug (real-oom).",
        "Your loop: lab, jshell and check run your code in labs/",
        "(./vramlab check 3.1 for one step, check 3 for a chapter).",
        "Shell completion: ./vramlab completion > vramlab-completion.bash (see README.adoc).",
        "Offline: VRAMLAB_OFFLINE=1 ./vramlab ... builds the kit with Maven's -o, from ~/.m2 alone."};

    /** True in a student release; false in the kit, and where no kit is found (the help still prints). */
    private static boolean inRelease() {
        try {
            return vramlab.quiz.KitPaths.isRelease(vramlab.quiz.KitPaths.root());
        } catch (IllegalStateException noKit) {
            return false;
        }
    }

    /** The kit's version, from the POM (filtered into {@code version.properties}). */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() { return new String[] {"vramlab " + version()}; }

        static String version() {
            try (InputStream in = Launcher.class.getResourceAsStream("version.properties")) {
                Properties p = new Properties();
                if (in != null) p.load(in);
                return p.getProperty("version", "unknown");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The command line for these commands, writing help to {@code io}'s standard output. */
    static CommandLine of(List<Command> commands, Io io) {
        CommandLine root = new CommandLine(new Root());
        if (inRelease()) root.getCommandSpec().usageMessage().footer(RELEASE_FOOTER);
        for (Command c : commands) root.addSubcommand(new CommandLine(c));
        // No abbreviated options (--dev for --device): picocli 4.7.7's matcher throws on a lone
        // "-" (standard input), which replay, triage and advise take as FILE.
        root.setOverwrittenOptionsAllowed(true);     // the last --device given wins, as before
        root.setColorScheme(Help.defaultColorScheme(Help.Ansi.OFF));
        root.setUsageHelpWidth(WIDTH);
        root.setOut(new PrintWriter(new OutputStreamWriter(io.out(), StandardCharsets.UTF_8), true));
        root.setErr(new PrintWriter(new OutputStreamWriter(io.err(), StandardCharsets.UTF_8), true));
        layout(root);
        for (CommandLine sub : root.getSubcommands().values()) {
            layout(sub);
            if (sub.getCommand() instanceof Command c) c.describe(sub.getCommandSpec());
        }
        return root;
    }

    /** The kit's help layout: the synopsis first (no header above it), then the description. */
    private static void layout(CommandLine cl) {
        UsageMessageSpec u = cl.getCommandSpec().usageMessage();
        u.synopsisHeading("usage: ");
        u.sortOptions(false);                       // in the order they are declared
        u.descriptionHeading("%n");
        u.parameterListHeading("%narguments:%n");
        u.optionListHeading("%noptions:%n");
        u.commandListHeading("%ncommands:%n");
        u.sectionMap().put(UsageMessageSpec.SECTION_KEY_SYNOPSIS, Launcher::synopsis);
        List<String> keys = new ArrayList<>(u.sectionKeys());
        keys.remove(UsageMessageSpec.SECTION_KEY_HEADER_HEADING);
        keys.remove(UsageMessageSpec.SECTION_KEY_HEADER);
        u.sectionKeys(keys);
    }

    /**
     * {@code vramlab NAME <argument> [optional] [--option VALUE] [--flag]}, from the declarations,
     * wrapped to the help's width.
     */
    static String synopsis(Help help) {
        CommandSpec spec = help.commandSpec();
        List<String> parts = new ArrayList<>();
        parts.add(spec.qualifiedName());
        if (!spec.subcommands().isEmpty()) {
            parts.add("<command> [options]");
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p.hidden()) continue;
            String label = p.paramLabel() + (p.arity().max() > 1 ? "..." : "");
            parts.add(p.arity().min() > 0 ? label : "[" + label + "]");
        }
        for (OptionSpec o : spec.options()) {
            if (o.hidden() || o.usageHelp() || o.versionHelp()) continue;
            String label = o.longestName() + (o.arity().max() > 0 ? " " + o.paramLabel() : "");
            parts.add(o.required() ? label : "[" + label + "]");
        }
        StringBuilder sb = new StringBuilder();
        String indent = " ".repeat("usage: ".length() + spec.qualifiedName().length() + 1);
        int column = "usage: ".length();
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (i > 0 && column + 1 + p.length() > WIDTH) {
                sb.append('\n').append(indent);
                column = indent.length();
            } else if (i > 0) {
                sb.append(' ');
                column++;
            }
            sb.append(p);
            column += p.length();
        }
        return sb.append('\n').toString();
    }

    /** Picocli's parse error as the one line after {@code error: }: where, then what. */
    static String message(ParameterException e) {
        CommandLine at = e.getCommandLine();
        String where = at.getCommandName();
        boolean root = at.getParent() == null;
        if (e instanceof MissingParameterException && !at.getUnmatchedArguments().isEmpty()) {
            // picocli checks the required arguments first; a mistyped option says more
            e = new UnmatchedArgumentException(at, at.getUnmatchedArguments());
        }
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String arg = u.getUnmatched().get(0);
            List<String> close = u.getSuggestions();
            String suggest = close.isEmpty() ? "" : " (did you mean " + String.join(" or ", close) + "?)";
            if (arg.startsWith("-") && !arg.equals("-")) {
                return where + ": unknown option " + arg + suggest + " (see " + (root ? "" : where + " ")
                        + "--help)";
            }
            if (root) {
                return where + ": unknown command '" + arg + "'" + suggest + " (commands: "
                        + at.getSubcommands().keySet().stream().filter(n -> !n.equals("help"))
                                .collect(Collectors.joining(", ")) + ")";
            }
            return where + ": unexpected argument '" + arg + "' (see " + where + " --help)";
        }
        ArgSpec arg = e.getArgSpec();
        if (e instanceof MissingParameterException m && !m.getMissing().isEmpty()) {
            ArgSpec missing = m.getMissing().get(0);
            if (missing instanceof OptionSpec o) return where + ": " + o.longestName() + " needs a value";
            if (at.getCommand() instanceof Command c && c.expected() != null) return where + ": " + c.expected();
            return where + ": missing " + missing.paramLabel();
        }
        if (e.getCause() instanceof TypeConversionException t && arg != null) {
            String name = arg instanceof OptionSpec o ? o.longestName() + " " : "";
            return where + ": " + name + "'" + e.getValue() + "': " + t.getMessage();
        }
        String text = e.getMessage().replaceFirst("^(?i)error: ", "");
        return where + ": " + (text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1));
    }
}
