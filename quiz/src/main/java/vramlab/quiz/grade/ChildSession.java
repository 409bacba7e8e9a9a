package vramlab.quiz.grade;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A child started in a session of its own, so that what it leaves behind can be found and killed.
 * {@link ChildWatch} kills a child with its descendants, but a process whose parent exits (a
 * daemon's double fork: {@code (sleep 300 &)} in a shell, or a Java main that starts a process
 * that starts another and returns) is reparented to init and is nobody's descendant any more: it
 * went on running, writing files or holding a core, after the grader had moved on. It stays in
 * its session, though: a process leaves a session only by starting one of its own.
 *
 * <p>On Linux a child is started as {@code setsid -w COMMAND} (util-linux; one with no {@code
 * -w}, as busybox's or an old util-linux's, without it): a child of the JVM is never a
 * process group leader, and util-linux's {@code setsid} forks only for one ({@code getpgrp() ==
 * getpid()}, sys-utils/setsid.c, util-linux 2.38.1), so it starts the session and execs the
 * command in the same process, which keeps its pid (the session's id from then on), its exit
 * status and its standard streams. That is checked once, by a probe, before the first child: a
 * {@code setsid} that forks anyway (toybox's calls {@code setpgid(0, 0)} first) is not used. When
 * the child is stopped, and after it exits of itself, every process still in that session
 * ({@code /proc/<pid>/stat}'s sixth field, proc(5)) is frozen and killed. The kernel frees a
 * pid only when no process uses it as its pid, thread group, process group or session ({@code
 * __change_pid}, kernel/pid.c: the same loop in Linux 2.6.32 and 6.x), so the id cannot name a
 * stranger's session while something of the child's is left in it.
 *
 * <p>Limits: a process that starts a session of its own ({@code setsid()}, Python's {@code
 * start_new_session}, the {@code setsid} command) escapes this; {@link ChildMark} finds it by
 * the mark in its environment, unless it was started without one. Where there is no {@code
 * setsid} (an image without util-linux or busybox) the child is started as before, and what it
 * leaves is found by its descendants and that mark alone; where there is no {@code /proc} either
 * (macOS, Windows) only its descendants are killed, and the grader says so once on its standard
 * error. A child in a session of its own no longer gets the terminal's Ctrl-C itself:
 * the grader's shutdown hook (SIGINT, SIGTERM, SIGHUP) kills it; a SIGKILL of the grader's
 * process group no longer reaches it.
 */
final class ChildSession {
    private ChildSession() {}

    private static final Path PROC = Path.of("/proc");
    /** The {@code setsid} command and its options, or null where children run in the grader's session. */
    private static final List<String> SETSID;
    /** Why children run in the grader's session, or null where they have their own. */
    private static final String MISSING;
    private static final AtomicBoolean SAID = new AtomicBoolean();

    static {
        List<String> setsid = null;
        String missing;
        if (System.getProperty("os.name", "").startsWith("Windows")) {
            missing = "Windows has no sessions";
        } else if (!Files.isDirectory(PROC.resolve("self"))) {
            missing = "no /proc to find a session's processes in";
        } else {
            String found = onPath("setsid", System.getenv("PATH"), Path.of(""));
            missing = found == null ? "no setsid command (util-linux) on the PATH" : "setsid does not start a session keeping the pid and exit status";
            for (List<String> options : List.of(List.of("-w"), List.<String>of())) {
                if (found == null) break;
                List<String> candidate = new ArrayList<>(List.of(found));
                candidate.addAll(options);
                if (keepsPidAndStatus(candidate)) {
                    setsid = List.copyOf(candidate);
                    missing = null;
                    break;
                }
            }
        }
        SETSID = setsid;
        MISSING = missing;
    }

    /** True where children start in sessions of their own and what they leave is killed. */
    static boolean available() { return SETSID != null; }

    /** Why children do not start in sessions of their own here, or null where they do. */
    static String missing() { return MISSING; }

    /**
     * {@code command} to be run in a session of its own, or {@code command} itself where that
     * cannot be (saying so once where {@link ChildMark} cannot sweep either), or where its program
     * cannot be found as {@code setsid} would look for it: then {@link ProcessBuilder#start} fails
     * for it as before, rather than {@code setsid} exiting with a status of its own.
     */
    static List<String> wrap(List<String> command, Map<String, String> environment, File directory) {
        if (SETSID == null) {
            if (!ChildMark.available() && !SAID.getAndSet(true)) {
                System.err.println("note: " + MISSING + ": a process a submission's tests start and leave running"
                        + " (a double fork) is not stopped with its test JVM (quiz/README.adoc, Limits)");
            }
            return command;
        }
        Path dir = directory == null ? Path.of("") : directory.toPath();
        if (command.isEmpty() || onPath(command.get(0), environment.get("PATH"), dir) == null) return command;
        List<String> wrapped = new ArrayList<>(SETSID);
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Freezes and kills every process in the session {@code sid} (the pid of a child started by
     * {@link #wrap}), as {@link ChildWatch#sweep} does: with {@code wait}, waits for each to go,
     * so none is still writing into the child's folder. Where nothing is left, one reading of
     * {@code /proc}; nothing at all where {@link #available} is false.
     */
    static void end(long sid, long freezeBy, boolean wait) throws InterruptedException {
        if (SETSID == null) return;
        ChildWatch.sweep(() -> members(sid), freezeBy, wait);
    }

    /**
     * The live processes (not zombies) in session {@code sid}, other than this JVM; none for this
     * JVM's own session, whatever asks. Each handle is taken before its {@code stat} is read and
     * kept only if it is still alive after: the same process throughout (a handle is a pid and a
     * start time), not one that took the pid of one that had just exited.
     */
    static List<ProcessHandle> members(long sid) {
        List<ProcessHandle> found = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        if (sid <= 1 || sid == sessionOf(self)) return found;
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(PROC, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path dir : procs) {
                long pid = Long.parseLong(dir.getFileName().toString());
                if (pid == self) continue;
                ProcessHandle h = ProcessHandle.of(pid).orElse(null);
                if (h == null) continue;
                String[] f = statFields(pid);
                if (f == null || "ZXx".indexOf(f[0].charAt(0)) >= 0 || Long.parseLong(f[3]) != sid) continue;
                if (h.isAlive()) found.add(h);
            }
        } catch (IOException | DirectoryIteratorException | NumberFormatException e) {
            // what was listed so far
        }
        return found;
    }

    /** The session id of {@code pid}, or -1 when it cannot be read. */
    static long sessionOf(long pid) {
        String[] f = statFields(pid);
        return f == null ? -1 : Long.parseLong(f[3]);
    }

    /**
     * The fields of {@code /proc/<pid>/stat} after the command name (which may hold spaces and
     * parentheses, so it ends at the last {@code )}): state, ppid, process group, session, ...;
     * null when the process has gone.
     */
    private static String[] statFields(long pid) {
        try {
            String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.US_ASCII);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return f.length > 3 ? f : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Where {@code program} is found as {@code execvp} finds it: as given when it has a slash
     * (relative to {@code dir}, the child's folder), else in the folders of {@code path}; null
     * when it is not there or not executable.
     */
    static String onPath(String program, String path, Path dir) {
        if (program.contains("/")) return Files.isExecutable(dir.resolve(program)) ? program : null;
        if (path == null) return null;
        for (String folder : path.split(File.pathSeparator)) {
            Path candidate = Path.of(folder.isEmpty() ? "." : folder).resolve(program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return candidate.toAbsolutePath().toString();
        }
        return null;
    }

    /**
     * Whether {@code setsid} (with its options) runs a command in the same process, in a session
     * of its own, and passes its exit status on: a shell that prints its pid and its session's
     * and exits with 7. One such run per grader, at its first child.
     */
    private static boolean keepsPidAndStatus(List<String> setsid) {
        List<String> probe = new ArrayList<>(setsid);
        probe.addAll(List.of("/bin/sh", "-c", "read -r pid name state ppid group session rest < /proc/$$/stat; echo $$ $session; exit 7"));
        try {
            Process p = new ProcessBuilder(probe).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            return p.exitValue() == 7 && out.equals(p.pid() + " " + p.pid());
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
