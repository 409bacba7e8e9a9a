package vramlab.quiz.grade;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Stands in for a grader in a JVM of its own, for the tests that stop a grader with SIGTERM
 * ({@code ChildSessionTest}, {@code ChildMarkTest}): starts one child through
 * {@link ChildWatch#start} in folder {@code args[0]}, running the command {@code args[1..]},
 * waits (at most 10 s) until the child has written a pid to {@code pid} there, prints
 * {@code started}, then waits for the child.
 */
public final class StandInGrader {
    private StandInGrader() {}

    /** Starts the stand-in on {@code command} in {@code folder}, its output and errors in one stream. */
    static Process start(Path folder, List<String> command) throws java.io.IOException {
        List<String> line = new ArrayList<>(List.of(ChildWatchShutdownTest.java(), "-cp",
                System.getProperty("java.class.path"), StandInGrader.class.getName(), folder.toString()));
        line.addAll(command);
        return new ProcessBuilder(line).redirectErrorStream(true).start();
    }

    public static void main(String[] args) throws Exception {
        List<String> command = Arrays.asList(args).subList(1, args.length);
        Process child = ChildWatch.start(new ProcessBuilder(command).directory(new File(args[0])));
        Path pid = Path.of(args[0], "pid");
        for (int i = 0; i < 1000 && !(Files.exists(pid) && Files.size(pid) > 0); i++) Thread.sleep(10);
        System.out.println("started");
        System.out.flush();
        child.waitFor();
    }
}
