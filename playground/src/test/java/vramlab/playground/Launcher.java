package vramlab.playground;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import vramlab.cli.Io;
import vramlab.cli.Main;

/** Runs the launcher's commands in this JVM, as {@code ./vramlab} would, and keeps what they print. */
final class Launcher {
    record Run(int exit, String out, String err) {}

    private Launcher() {}

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        int exit = Main.run(args, new Io(new ByteArrayInputStream(new byte[0]), o, e));
        o.flush();
        e.flush();
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code ./vramlab replay <options> --device card FILE} on {@code trace} written to {@code dir/trace.txt}. */
    static Run replay(Path dir, String trace, TraceRun.Choice choice, String card, boolean csv) throws IOException {
        Path file = Files.writeString(dir.resolve("trace.txt"), trace);
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("replay"));
        args.addAll(java.util.List.of(choice.options().split(" ")));
        args.addAll(java.util.List.of("--device", card));
        if (csv) args.add("--csv");
        args.add(file.toString());
        return run(args.toArray(String[]::new));
    }
}
