package vramlab.quiz.grade;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The grader's bounds on a child JVM, shared by {@link ChildRun} (graded tests) and any other
 * command that runs a student's code in a child (the class leaderboard): a child is killed, with
 * its descendants, whatever is left in its session ({@link ChildSession}: a process it started
 * and left to run, a double fork) and whatever carries its mark ({@link ChildMark}: one that also
 * started a session of its own), when it runs past its time-out or prints past the output cap,
 * and the reason is said in the grader's words; what is left in its session or carries its mark
 * after it exits of itself is killed too. "A grader never loses a score because one submission hangs or
 * crashes: it times out that item and goes on."
 */
public final class ChildWatch {
    private ChildWatch() {}

    /**
     * The children started and not yet exited. When the grader's JVM is stopped (SIGTERM:
     * {@code kill}, {@code timeout}, a CI job cancelled) its shutdown hook kills them: before,
     * a child stuck in a student's infinite loop outlived the grader, orphaned at 40% of a core
     * until someone found it. (Ctrl-C in a terminal runs the hook too; it no longer reaches a
     * child in a session of its own directly. A SIGKILL of the grader runs no hook at all.)
     */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    /**
     * Each child's {@link ChildMark} token, from its start until what carries it was swept
     * ({@link #kill}, {@link #endSession}): the shutdown hook sweeps those still here, those of
     * children that already exited included.
     */
    private static final Map<Process, String> MARKS = new ConcurrentHashMap<>();

    /** After freezing, at most this many rounds of listing what is left and killing it ({@link #sweep}). */
    static final int KILL_ROUNDS = 5;

    /**
     * How long the shutdown hook may spend freezing children, all of them together (and one
     * {@code kill} it started, at most 2 s). Set before the hook is added, as all below.
     */
    static final Duration HOOK_FREEZE = Duration.ofSeconds(2);
    /** How long {@link #kill} may spend freezing a child: a bound for a fork bomb (a few rounds take well under a second). */
    static final Duration KILL_FREEZE = Duration.ofSeconds(30);

    /** At most this many rounds of listing and stopping (a tree still growing after them is killed as found). */
    static final int FREEZE_ROUNDS = 50;

    private static final boolean WINDOWS = System.getProperty("os.name", "").startsWith("Windows");

    /** True where {@code /proc/<pid>/task} lists each thread of a process (Linux). */
    private static final boolean PROC = Files.isDirectory(Path.of("/proc/self/task"));

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildWatch::killAll, "vramlab-kill-children"));
    }

    /**
     * Starts {@code pb}'s child, in a session of its own where it can be ({@link ChildSession}:
     * the same process, pid, streams and exit status) and with a mark of its own in its
     * environment ({@link ChildMark}), to be killed with the grader's JVM if it is still running
     * then. {@code pb} is left as it was given.
     */
    static Process start(ProcessBuilder pb) throws IOException {
        List<String> command = pb.command();
        Map<String, String> environment = pb.environment();
        String before = environment.get(ChildMark.VARIABLE);
        String token = ChildMark.mark(environment);
        Process p;
        try {
            p = pb.command(ChildSession.wrap(command, environment, pb.directory())).start();
        } finally {
            pb.command(command);
            if (before == null) environment.remove(ChildMark.VARIABLE);
            else environment.put(ChildMark.VARIABLE, before);
        }
        if (token != null) MARKS.put(p, token);
        LIVE.add(p);
        p.onExit().thenRun(() -> LIVE.remove(p));
        return p;
    }

    /**
     * Kills every child still running, what each started, and what carries the mark of any child
     * whose leftovers were not swept yet (the shutdown hook): as {@link #kill} does, without its
     * waits, since the JVM is on its way out, and with the freezing of all of them bounded to
     * {@link #HOOK_FREEZE}, so that the hook never holds up the exit.
     */
    static void killAll() {
        long freezeBy = System.nanoTime() + HOOK_FREEZE.toNanos();
        for (Process p : List.copyOf(LIVE)) {
            killChildFirst(p, freezeBy).forEach(ProcessHandle::destroyForcibly);
            try {
                ChildSession.end(p.pid(), freezeBy, false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            ChildMark.end(Set.copyOf(MARKS.values()), freezeBy, false);   // of exited children too
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Kills {@code p} and what it started, as far as it was frozen ({@link #freeze}), and returns
     * all it started for the caller to kill (again) and wait for. A stopped process forks no more,
     * so none is started between the listing and the kill. Those frozen are killed here, before
     * {@code p} and the deepest first, so that none is left stopped when its parent dies: POSIX
     * {@code _exit} sends SIGCONT to a stopped process whose group the death orphans (a shell's
     * background job, with job control on).
     *
     * <p>What was not frozen (all of it where nothing could be, on Windows or where {@code
     * /bin/sh} could not be started, as for a fork bomb at the user's process limit; what was
     * started in the last round where the freezing was cut short) is killed in the order kept
     * before: listed, then {@code p} killed, so that it starts no more (a shell loop would start
     * the next writer the moment its current one died), then the listed ones by the caller; listed
     * before, since a dead child's descendants are no longer its own
     * ({@link ProcessHandle#descendants} of an exited process is empty). That order alone leaves
     * a gap: a process forked by a listed one between the listing and that one's death is in no
     * list, is reparented to init and goes on alone (a shell loop forked so runs for ever).
     */
    private static List<ProcessHandle> killChildFirst(Process p, long freezeBy) {
        List<ProcessHandle> frozen = freeze(p, freezeBy);
        Set<ProcessHandle> below = new LinkedHashSet<>(frozen);
        below.addAll(p.descendants().toList());
        below.remove(p.toHandle());
        // Backwards: each round and each listing (ProcessHandleImpl.descendants, JDK 17, breadth
        // first) has parents before their children. SIGKILL ends a stopped process too.
        for (int i = frozen.size() - 1; i >= 0; i--) {
            if (!frozen.get(i).equals(p.toHandle())) frozen.get(i).destroyForcibly();
        }
        p.destroyForcibly();
        return List.copyOf(below);
    }

    /**
     * Stops (SIGSTOP) {@code p} and everything it started, and returns those it stopped: first
     * {@code p} alone, then round after round, lists its descendants and stops the ones not yet
     * stopped (one {@code kill -s STOP} a round: ProcessHandle cannot stop a process), until a
     * listing finds none new, {@link #FREEZE_ROUNDS} rounds are done or it is {@code freezeBy}.
     * A stopped process cannot fork, and a fork it had under way when stopped has ended, its
     * child a descendant of a live (stopped) parent, by the time the process shows as stopped
     * ({@link #awaitStopped}): so that child is in the next listing. Returns none where nothing
     * can be stopped (Windows), and those stopped so far where the stopping cannot be run.
     *
     * <p>Descendants, not the process group: a process leaves its group with one call (any shell
     * with job control on), while it cannot leave its parent. A process whose parent exits on
     * purpose (a daemon's double fork) is no descendant any more; {@link ChildSession} finds it
     * by its session, where there is {@code setsid} and {@code /proc}, and {@link ChildMark} by
     * the mark in its environment, where there is {@code /proc}, one that left the session too.
     */
    static List<ProcessHandle> freeze(Process p, long freezeBy) {
        if (WINDOWS) return List.of();                         // no SIGSTOP: the order kept before
        Set<ProcessHandle> stopped = new LinkedHashSet<>();    // a handle is its pid and start time
        try {
            // p alone first, before the listing: it starts no more while its tree is listed
            freezeRounds(Stream.of(p.toHandle()).filter(ProcessHandle::isAlive).toList(), p::descendants, freezeBy, stopped);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();                // what is stopped is killed all the same
        }
        return List.copyOf(stopped);
    }

    /**
     * The freezing rounds, for a child's descendants ({@link #freeze}) and for what {@link
     * #sweep} finds (its session, its mark): stops {@code fresh}, then each live process {@code listing}
     * shows that is not stopped yet, until a listing shows none, after {@link #FREEZE_ROUNDS}
     * rounds, or at {@code freezeBy}. Adds each process it stops to {@code stopped}, which the
     * caller keeps, so an interrupted wait leaves it with what was stopped so far.
     */
    static void freezeRounds(List<ProcessHandle> fresh, java.util.function.Supplier<Stream<ProcessHandle>> listing,
            long freezeBy, Set<ProcessHandle> stopped) throws InterruptedException {
        for (int round = 0; !fresh.isEmpty() && round < FREEZE_ROUNDS && System.nanoTime() - freezeBy < 0; round++) {
            if (!signal("STOP", fresh)) break;
            stopped.addAll(fresh);
            resumeReused(fresh);
            awaitStopped(fresh, freezeBy);
            fresh = listing.get().filter(h -> !stopped.contains(h) && h.isAlive()).toList();
        }
    }

    /**
     * Freezes and kills every process {@code listing} shows, for what a child left in its session
     * ({@link ChildSession#end}) and what carries its mark ({@link ChildMark#end}), as {@link
     * #freeze} does for a child's descendants: rounds of listing and stopping until no new one
     * shows or it is {@code freezeBy} ({@link #freezeRounds}), then SIGKILL, then listing again for
     * any that was not frozen and forked before it died (at most {@link #KILL_ROUNDS} rounds). With
     * {@code wait}, waits for each to go (as {@link #kill}). One listing where it shows none.
     */
    static void sweep(java.util.function.Supplier<List<ProcessHandle>> listing, long freezeBy, boolean wait)
            throws InterruptedException {
        List<ProcessHandle> fresh = listing.get();
        if (fresh.isEmpty()) return;
        Set<ProcessHandle> stopped = new LinkedHashSet<>();
        freezeRounds(fresh, () -> listing.get().stream(), freezeBy, stopped);
        Set<ProcessHandle> left = new LinkedHashSet<>(stopped);
        left.addAll(listing.get());                         // any the rounds listed but did not stop
        for (int round = 0; !left.isEmpty() && round < KILL_ROUNDS; round++) {
            left.forEach(ProcessHandle::destroyForcibly);   // SIGKILL ends a stopped process too
            if (!wait) return;
            awaitGone(left);
            left = new LinkedHashSet<>(listing.get());
        }
    }

    /**
     * Sends {@code signal} to the processes {@code to} with the shell's {@code kill} (the shell's
     * own, so it needs no procps: a slim Debian image has none). False when it could not be run.
     * Its status is not read: it is 1 when one of them exited meanwhile, the others signalled.
     */
    private static boolean signal(String signal, List<ProcessHandle> to) throws InterruptedException {
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "kill -s " + signal + " \"$@\"", "sh"));
        to.forEach(h -> command.add(Long.toString(h.pid())));
        try {
            Process k = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (k.waitFor(2, TimeUnit.SECONDS)) return true;
            k.destroyForcibly();
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Resumes any process that took the pid of one of {@code stopped} that exited between its
     * listing and the signal: the stop was meant for the one listed, not for a stranger (a
     * process of the tree that took it is listed, and stopped, in the next round).
     */
    private static void resumeReused(List<ProcessHandle> stopped) throws InterruptedException {
        List<ProcessHandle> strangers = stopped.stream().filter(h -> !h.isAlive())
                .flatMap(h -> ProcessHandle.of(h.pid()).stream()).toList();
        if (!strangers.isEmpty()) signal("CONT", strangers);
    }

    /**
     * Waits (at most 100 ms, and not past {@code freezeBy}) until every thread of every process
     * in {@code stopped} shows as stopped: a thread that was forking when the signal came
     * finishes the fork before it stops. Where there is no {@code /proc} (macOS) it returns at
     * once: there the next listing comes a whole exec of {@code kill} later, long after a fork
     * under way has ended. One stuck in the kernel (D) is waited for no longer than the bound.
     */
    private static void awaitStopped(List<ProcessHandle> stopped, long freezeBy) throws InterruptedException {
        if (!PROC) return;
        long until = Math.min(System.nanoTime() + 100_000_000L, freezeBy);
        List<ProcessHandle> going = new ArrayList<>(stopped);
        while (true) {
            going.removeIf(h -> !h.isAlive() || threadsIn(h.pid(), "TtZXx"));
            if (going.isEmpty() || System.nanoTime() - until > 0) return;
            Thread.sleep(1);
        }
    }

    /**
     * True when every thread of {@code pid} is in one of {@code states}, or has gone (only where
     * {@link #PROC}). Each thread's state is the field after the command name in
     * {@code /proc/<pid>/task/<tid>/stat} (proc(5): R running, S sleeping, D in the kernel,
     * T stopped, t stopped by a tracer, Z exited and not yet reaped, X dead).
     */
    private static boolean threadsIn(long pid, String states) {
        try (Stream<Path> threads = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return threads.allMatch(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    return states.indexOf(stat.charAt(stat.lastIndexOf(')') + 2)) >= 0;
                } catch (IOException | RuntimeException e) {
                    return true;                               // the thread has gone
                }
            });
        } catch (IOException | RuntimeException e) {
            return true;                                       // the process has gone
        }
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

    /**
     * Kills a child and everything it started (its descendants, then what is left in its
     * session, then what carries its mark), and waits for it.
     */
    static void kill(Process p) throws InterruptedException {
        // Each waited for, so none is still writing into the folder when the caller reads or deletes it.
        long freezeBy = System.nanoTime() + KILL_FREEZE.toNanos();
        List<ProcessHandle> below = killChildFirst(p, freezeBy);
        p.waitFor();
        for (ProcessHandle h : below) h.destroyForcibly();
        awaitGone(below);
        ChildSession.end(p.pid(), freezeBy, true);
        endMark(p, freezeBy);
    }

    /**
     * Kills what a child that exited of itself left running in its session (a double fork) or
     * anywhere with its mark (a process that started a session of its own), and waits for it;
     * two readings of {@code /proc} where nothing is left.
     */
    static void endSession(Process p) throws InterruptedException {
        long freezeBy = System.nanoTime() + KILL_FREEZE.toNanos();
        ChildSession.end(p.pid(), freezeBy, true);
        endMark(p, freezeBy);
    }

    /** Sweeps what carries {@code p}'s mark ({@link ChildMark}), then forgets the mark. */
    private static void endMark(Process p, long freezeBy) throws InterruptedException {
        String token = MARKS.get(p);
        if (token == null) return;
        ChildMark.end(Set.of(token), freezeBy, true);
        MARKS.remove(p);
    }

    /** Waits for each of {@code killed} to go: as {@link #kill} waits for a child's descendants. */
    static void awaitGone(java.util.Collection<ProcessHandle> killed) throws InterruptedException {
        for (ProcessHandle h : killed) {
            // one that will not die in 10 s (stuck in the kernel) is left to the system. Polled, not
            // h.onExit(): for a process not the JVM's own child, that looks first after 300 ms, then
            // 330 ms later, and so on (ProcessHandleImpl.completion, JDK 17), one handle at a time.
            // An exited one not yet reaped (a zombie) is alive to Java but writes nothing: done too
            // (an init that reaps orphans late, as in some containers, kept each for up to 2 s).
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (h.isAlive() && !(PROC && threadsIn(h.pid(), "ZXx")) && System.nanoTime() - until < 0) Thread.sleep(5);
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
        endSession(p);
        return new Ending(p.exitValue(), null);
    }
}
