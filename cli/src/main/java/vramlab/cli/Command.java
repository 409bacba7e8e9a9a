package vramlab.cli;

import picocli.CommandLine.Model.CommandSpec;

/**
 * One subcommand of {@code ./vramlab}. Its name, one-line summary ({@code header}), help text,
 * options and arguments are declared once, with picocli's annotations on the class and its
 * fields; picocli fills the fields in from the command line and generates {@code --help}.
 */
public interface Command {
    /** Runs the command on the fields picocli filled in; returns the exit status. Throws
     *  {@link UsageException} for bad input. */
    int run(Io io) throws Exception;

    /** What the usage error says when a required argument is missing ({@code expected one FILE}). */
    default String expected() { return null; }

    /** Adds what the help says that is known only at run time (the chapters, say). */
    default void describe(CommandSpec spec) {}
}
