package vramlab.cli;

import picocli.CommandLine.Option;

/** {@code --mine | --reference}, for the commands that run cores (lab, jshell, check). */
final class CoresOption {
    @Option(names = "--mine", description = """
            run on your own cores in labs/ (compiled first, only what changed); the default in a \
            student's copy (labs/STUDENT_COPY exists)""")
    boolean mine;

    @Option(names = "--reference", description = "run on the reference cores in solutions/ instead")
    boolean reference;
}
