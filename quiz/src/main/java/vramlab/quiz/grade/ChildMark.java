package vramlab.quiz.grade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A mark in the environment of every process a child starts, so that what it leaves behind can
 * be found even outside its tree and its session. {@link ChildWatch} kills a child's descendants
 * and {@link ChildSession} what is left in its session, but a process that starts a session of
 * its own and whose parent exits ({@code ( setsid sleep 300 & )} in a shell, {@code setsid -f},
 * a daemon's double fork with {@code setsid()} between the forks, Python's {@code
 * start_new_session}) is in neither: it went on running after the grader had moved on. It still
 * has the environment it was started with, though, and so does everything it starts.
 *
 * <p>Each child is started with {@value #VARIABLE}{@code =<token>}, a token of its own (this
 * grader's random prefix and a count), which every process below it inherits. When the child is
 * stopped, and after it exits of itself, every process of the grader's user ({@code /proc/<pid>}'s
 * owner) whose {@code /proc/<pid>/environ} holds that exact entry is frozen and killed, as what is
 * left in the child's session is ({@link ChildWatch#sweep}). That file is the memory the
 * environment was placed in when the process was started ({@code environ_read} reads
 * {@code mm->env_start} to {@code env_end}, fs/proc/base.c, Linux 2.6 to 6.x): a process that
 * removes the variable from its own environment ({@code unsetenv}) is still found, though what it
 * starts after that is not. A process with no mark, one whose
 * file cannot be read (another user's: it is the owner's alone; one that exited meanwhile) is
 * skipped. Another child's processes carry another token, so children graded side by side
 * ({@code --jobs}) never sweep each other's. The sweep runs when the child ends, not between its
 * items: the child itself carries the mark.
 *
 * <p>Limits: what still escapes is a process started with an environment without the mark ({@code
 * env -i}, a {@code ProcessBuilder} whose environment was cleared, a shell's {@code exec -c}),
 * one that overwrites the memory its environment was placed in, one that makes itself
 * non-dumpable ({@code prctl(PR_SET_DUMPABLE, 0)}: its {@code /proc} files then belong to root,
 * so it is not the user's to read), and one started for it by a server already running (a
 * {@code systemd --user} unit, a tmux server, {@code at}): only a cgroup would hold those, and
 * making one takes privileges the grader does not ask for. Where there is no {@code
 * /proc/self/environ} (macOS, Windows) no mark is set and nothing is swept: there a child's
 * descendants are killed and nothing else.
 */
final class ChildMark {
    private ChildMark() {}

    /** The environment variable that carries a child's token. */
    static final String VARIABLE = "VRAMLAB_GRADE_RUN";

    private static final Path PROC = Path.of("/proc");
    /** The grader's user ({@code /proc/self}'s owner), or -1 where there is no {@code /proc} to sweep. */
    private static final long UID = ownUid();
    /** This grader's tokens begin with it: 16 random hex digits, so no other grader's match. */
    private static final String PREFIX = randomHex();
    private static final AtomicLong COUNT = new AtomicLong();

    /** True where children are marked and what carries a mark is found and killed (Linux). */
    static boolean available() { return UID >= 0; }

    /**
     * Puts a new token in {@code environment} (a child's, before it starts) and returns it; null,
     * and {@code environment} left as it was, where nothing could be swept for it.
     */
    static String mark(Map<String, String> environment) {
        if (!available()) return null;
        String token = PREFIX + "-" + COUNT.incrementAndGet();
        environment.put(VARIABLE, token);
        return token;
    }

    /**
     * Freezes and kills every process that carries one of {@code tokens} ({@link ChildWatch#sweep}:
     * freezing rounds, then SIGKILL, with {@code wait} waiting for each to go). One reading of
     * {@code /proc} where none is left; nothing where {@link #available} is false or no token is given.
     */
    static void end(Set<String> tokens, long freezeBy, boolean wait) throws InterruptedException {
        if (!available() || tokens.isEmpty()) return;
        ChildWatch.sweep(() -> carrying(tokens), freezeBy, wait);
    }

    /**
     * The live processes of the grader's user, other than this JVM, whose environment holds
     * {@value #VARIABLE} with one of {@code tokens}. As {@link ChildSession#members}, each handle
     * (a pid and a start time) is taken before the file is read and kept only if still alive after:
     * the same process throughout, not one that took the pid of one that had just exited. A zombie's
     * environment reads empty, so it is never listed.
     */
    static List<ProcessHandle> carrying(Set<String> tokens) {
        List<ProcessHandle> found = new ArrayList<>();
        if (!available() || tokens.isEmpty()) return found;
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(PROC, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path dir : procs) {
                long pid = Long.parseLong(dir.getFileName().toString());
                if (pid == self || uidOf(dir) != UID) continue;
                ProcessHandle h = ProcessHandle.of(pid).orElse(null);
                if (h == null) continue;
                byte[] environ;
                try {
                    environ = Files.readAllBytes(dir.resolve("environ"));
                } catch (IOException | RuntimeException e) {
                    continue;                                  // gone meanwhile, or not ours to read
                }
                if (carries(environ, tokens) && h.isAlive()) found.add(h);
            }
        } catch (IOException | DirectoryIteratorException | NumberFormatException e) {
            // what was listed so far
        }
        return found;
    }

    /**
     * Whether {@code environ} (the entries of {@code /proc/<pid>/environ}, each ended by a NUL)
     * holds {@value #VARIABLE}{@code =<token>} for one of {@code tokens}: the whole entry, so
     * token {@code x-1} is not {@code x-10}.
     */
    static boolean carries(byte[] environ, Set<String> tokens) {
        byte[] name = (VARIABLE + "=").getBytes(StandardCharsets.US_ASCII);
        int start = 0;
        while (start < environ.length) {
            int end = start;
            while (end < environ.length && environ[end] != 0) end++;
            int value = start + name.length;
            if (end > value && Arrays.equals(environ, start, value, name, 0, name.length)
                    && tokens.contains(new String(environ, value, end - value, StandardCharsets.UTF_8))) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** The owner of {@code /proc/<pid>} (the process's user), or -2 when it cannot be read. */
    private static long uidOf(Path dir) {
        try {
            return ((Number) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
        } catch (IOException | RuntimeException e) {
            return -2;
        }
    }

    /** The grader's user, where its own environment can be read back from {@code /proc}; else -1. */
    private static long ownUid() {
        if (System.getProperty("os.name", "").startsWith("Windows")) return -1;
        Path self = PROC.resolve(Long.toString(ProcessHandle.current().pid()));
        if (!Files.isReadable(self.resolve("environ"))) return -1;
        long uid = uidOf(self);
        return uid < 0 ? -1 : uid;
    }

    private static String randomHex() {
        byte[] b = new byte[8];
        new java.security.SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
