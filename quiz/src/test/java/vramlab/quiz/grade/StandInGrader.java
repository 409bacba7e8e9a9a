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
 * {@code started}, then waits for the child. With {@code --run} first ({@link #startRun}) it runs
 * the child as the grader runs a test JVM instead ({@link ChildRun#run}: the key on its standard
 * input, held open), with bounds far past any test's.
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

    /** Starts the stand-in running {@code command} as a {@link ChildRun} in {@code area}. */
    static Process startRun(Path area, List<String> command) throws java.io.IOException {
        List<String> line = new ArrayList<>(List.of("--run"));
        line.addAll(command);
        return start(area, line);
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 1 && args[1].equals("--run")) {
            java.time.Duration long_ = java.time.Duration.ofMinutes(10);
            new ChildRun(Arrays.asList(args).subList(2, args.length), Path.of(args[0]), 1)
                    .run(java.util.Map.of(), long_, System.nanoTime() + long_.toNanos(), 1 << 20);
            return;
        }
        List<String> command = Arrays.asList(args).subList(1, args.length);
        Process child = ChildWatch.start(new ProcessBuilder(command).directory(new File(args[0])));
        Path pid = Path.of(args[0], "pid");
        for (int i = 0; i < 1000 && !(Files.exists(pid) && Files.size(pid) > 0); i++) Thread.sleep(10);
        System.out.println("started");
        System.out.flush();
        child.waitFor();
    }
}
