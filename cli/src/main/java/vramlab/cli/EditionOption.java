package vramlab.cli;

import picocli.CommandLine.Option;

/** {@code --instructor} and {@code --offline}, for the commands that render (site, slides). */
final class EditionOption {
    @Option(names = "--instructor",
            description = "the instructor edition: the reference bodies too, into its own folder")
    boolean instructor;

    @Option(names = "--offline", description = "passes -o to Maven (everything already downloaded once)")
    boolean offline;

    String edition() { return instructor ? "instructor" : "student"; }
}
