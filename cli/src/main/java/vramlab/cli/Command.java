package vramlab.cli;

import java.util.List;

/** One subcommand of {@code ./vramlab}. */
public interface Command {
    String name();

    /** One line for the command list. */
    String summary();

    /** The full text of {@code --help}. */
    String usage();

    /** Runs the command; returns the exit status. Throws {@link UsageException} for bad input. */
    int run(List<String> args, Io io) throws Exception;
}
