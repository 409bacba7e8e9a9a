package vramlab.quiz.grade;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The grader's bounds on a child JVM, shared by {@link ChildRun} (graded tests) and any other
 * command that runs a student's code in a child (the class leaderboard): a child is killed, with
 * its descendants, when it runs past its time-out or prints past the output cap, and the reason
 * is said in the grader's words. "A grader never loses a score because one submission hangs or
 * crashes: it times out that item and goes on."
 */
public final class ChildWatch {
    private ChildWatch() {}

    /**
     * The children started and not yet exited. When the grader's JVM is stopped (SIGTERM:
     * {@code kill}, {@code timeout}, a CI job cancelled) its shutdown hook kills them: before,
     * a child stuck in a student's infinite loop outlived the grader, orphaned at 40% of a core
     * until someone found it. (Ctrl-C in a terminal reaches the children too, being sent to the
     * whole foreground process group; a SIGKILL of the grader runs no hook at all.)
     */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildWatch::killAll, "vramlab-kill-children"));
    }

    /** Starts {@code pb}'s child, to be killed with the grader's JVM if it is still running then. */
    static Process start(ProcessBuilder pb) throws IOException {
        Process p = pb.start();
        LIVE.add(p);
        p.onExit().thenRun(() -> LIVE.remove(p));
        return p;
    }

    /**
     * Kills every child still running, and what each started (the shutdown hook): in the order
     * {@link #kill} keeps, without its waits, since the JVM is on its way out.
     */
    static void killAll() {
        for (Process p : List.copyOf(LIVE)) killChildFirst(p).forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Lists what {@code p} started, then kills {@code p}, and returns that list for the caller to
     * kill. The child first, so that it starts no more (a shell loop would start the next writer
     * the moment its current one died); listed before, since a dead child's descendants are no
     * longer its own ({@link ProcessHandle#descendants} of an exited process is empty).
     */
    private static List<ProcessHandle> killChildFirst(Process p) {
        List<ProcessHandle> below = p.descendants().toList();
        p.destroyForcibly();
        return below;
    }

    /** How a watched child ended: its exit status, or why it was stopped (then {@code status} is -1). */
    public record Ending(int status, String stoppedBy) {
        /** The grader's words for an exit with a status other than 0 and 1 (System.exit, or a crash). */
        public String exitedSaying() { return "the JVM exited with status " + status + " (System.exit, or a crash)"; }
    }

    /** The most a child may print (past its cap, if it keeps one) before it is stopped. */
    static long killAt(long outputCap) { return outputCap + 64 * 1024; }

    static String timedOut(Duration timeout) { return "timed out after " + timeout.toSeconds() + " s"; }

    static String overCap(long outputCap) {
        return "wrote more than " + killAt(outputCap) / 1024 + " KiB of output around the " + outputCap / 1024 + " KiB cap";
    }

    /** Kills a child and everything it started, and waits for it. */
    static void kill(Process p) throws InterruptedException {
        // Each waited for, so none is still writing into the folder when the caller reads or deletes it.
        List<ProcessHandle> below = killChildFirst(p);
        p.waitFor();
        for (ProcessHandle h : below) h.destroyForcibly();
        for (ProcessHandle h : below) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // one that will not die in 10 s (stuck in the kernel) is left to the system
            }
        }
    }

    /**
     * Runs {@code command} in {@code dir} with nothing on its standard input, its standard output
     * and error together in {@code output}, until it exits, runs past {@code timeout} ("timed out
     * after N s (an infinite loop?)") or prints past the cap.
     */
    public static Ending run(List<String> command, Path dir, Path output, Duration timeout, long outputCap)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("VRAMLAB_"));   // the salt stays here
        Process p = start(pb);
        p.getOutputStream().close();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!p.waitFor(20, TimeUnit.MILLISECONDS)) {
            String stopped = System.nanoTime() > deadline ? timedOut(timeout) + " (an infinite loop?)"
                    : Files.size(output) > killAt(outputCap) ? overCap(outputCap) : null;
            if (stopped != null) {
                kill(p);
                return new Ending(-1, stopped);
            }
        }
        return new Ending(p.exitValue(), null);
    }
}
