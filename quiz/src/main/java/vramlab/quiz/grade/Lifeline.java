package vramlab.quiz.grade;

import java.io.IOException;
import java.io.Reader;
import java.time.Duration;
import java.util.Set;

/**
 * A test JVM that outlives its grader stops. The grader writes a child's key on the child's
 * standard input and keeps that pipe open until the child has ended ({@link ChildRun#run}); the
 * child reads the pipe to its end on a thread of its own. The end comes only when the grader's
 * side is closed, and the kernel closes it when the grader's process is gone however it went:
 * {@code kill -9}, the kernel's out-of-memory killer, a job scheduler's SIGKILL. Those leave no
 * shutdown hook to run, so before this a child whose test looped went on using a core for as
 * long as the loop did (a test that sleeps 300 s ran its 300 s), with no grader left to time it
 * out.
 *
 * <p>On that end the child kills what it started (every process carrying its own mark, {@link
 * ChildMark}, which its descendants and what left its session by {@code setsid} inherit; and, where
 * there are no marks, its descendants) and halts with {@link #ORPHANED}, running no shutdown hook
 * and no more test code. A SIGKILL sent to the grader's whole process group kills the test JVMs
 * in it too, before any of them can do this: what they had put in sessions of their own is then
 * left (quiz/README.adoc, "Limits").
 */
final class Lifeline {
    private Lifeline() {}

    /** The exit status of a child that stopped because its grader was gone. */
    static final int ORPHANED = 5;

    /** The longest the child spends freezing what it started before it kills it. */
    private static final Duration FREEZE = Duration.ofSeconds(1);

    /**
     * Reads {@code rest} (the child's standard input after the key) to its end on a daemon thread,
     * then stops the child as the class comment says. Returns at once.
     */
    static void watch(Reader rest) {
        Thread t = new Thread(() -> {
            char[] skip = new char[64];
            try {
                while (rest.read(skip) >= 0) {
                    // the grader writes nothing after the key: only its end matters
                }
            } catch (IOException e) {
                // a broken pipe is an end too
            }
            orphaned();
        }, "vramlab-lifeline");
        t.setDaemon(true);
        t.start();
    }

    private static void orphaned() {
        try {
            String token = System.getenv(ChildMark.VARIABLE);
            if (token != null && !token.isEmpty()) {
                ChildMark.end(Set.of(token), System.nanoTime() + FREEZE.toNanos(), false);
            }
            ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        } catch (InterruptedException | RuntimeException e) {
            // halt all the same
        } finally {
            Runtime.getRuntime().halt(ORPHANED);
        }
    }
}
