package vramlab.quiz.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Cores already compiled in this JVM, shared by every {@link CoreBuild} the batch grader makes: a
 * class of submissions whose cores are unchanged (the untouched labs, copies of one another, a
 * resubmission) compiles each distinct core once, not once per submission.
 *
 * <p>An entry is found by the core's {@link CoreBuild} fingerprint (the core's name, every
 * source's path and bytes, the fingerprints of the cores it is compiled against, the reference
 * it falls back on), so a changed source or a changed core below it is a miss and is compiled.
 * It lives in this JVM's memory only, so every entry was compiled by the JDK now running, with
 * the options {@link CoreBuild} always passes; nothing is kept on disk between runs. An entry
 * holds the output's bytes as javac wrote them (or, for a core that did not compile, its errors
 * and the reference's classes): the graded tests, which run afterwards in the student's work
 * area and can write there, never reach it, and each build gets its own copy.
 *
 * <p>It holds a bounded number of bytes of class files ({@link #SHARED}: 64 MiB, some 70 builds of
 * every core); past that, builds compile as they would without it.
 *
 * <p>Submissions graded at the same moment (the batch grader's jobs) that need a core of one
 * fingerprint compile it once: a build holds {@link #lock} of its fingerprint from its look in
 * the cache to its own entry, so the second waits for the first's classes and copies them. Before,
 * each job missed the cache while the other was still compiling, and a class's first submissions
 * each compiled the untouched cores they all share.
 */
public final class CoreCache {
    /** The grader's: one per JVM, as one {@code ./vramlab grade} grades one class. */
    public static final CoreCache SHARED = new CoreCache(64L << 20);

    /** What one build of one core left: whose classes, the compiler's errors, and the class files. */
    record Entry(List<String> stamp, Map<String, byte[]> files, long bytes) {}

    private final long capBytes;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Map<String, Object> locks = new ConcurrentHashMap<>();
    private final AtomicLong held = new AtomicLong();

    CoreCache(long capBytes) { this.capBytes = capBytes; }

    /**
     * The one lock of builds of this fingerprint: held from {@link #get} to {@link #put}, it makes
     * a second build of the same core wait for the first's entry instead of compiling it too.
     */
    Object lock(String fingerprint) { return locks.computeIfAbsent(fingerprint, k -> new Object()); }

    /** The entry of a core with this fingerprint, or null. */
    Entry get(String fingerprint) { return entries.get(fingerprint); }

    /**
     * Keeps {@code out} (the folder the core's classes were written to) under {@code fingerprint},
     * with the build's {@code stamp} lines (whose classes, then its errors); nothing when the
     * cache is full.
     */
    void put(String fingerprint, List<String> stamp, Path out) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        long bytes = 0;
        if (Files.isDirectory(out)) {
            try (Stream<Path> s = Files.walk(out)) {
                for (Path f : s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList()) {
                    byte[] b = Files.readAllBytes(f);
                    files.put(out.relativize(f).toString().replace('\\', '/'), b);
                    bytes += b.length;
                }
            }
        }
        if (held.addAndGet(bytes) > capBytes) {
            held.addAndGet(-bytes);
            return;
        }
        if (entries.putIfAbsent(fingerprint, new Entry(List.copyOf(stamp), files, bytes)) != null) {
            held.addAndGet(-bytes);
        }
    }

    /** Writes an entry's class files into {@code out}. */
    static void copy(Entry e, Path out) throws IOException {
        Files.createDirectories(out);
        for (Map.Entry<String, byte[]> f : e.files().entrySet()) {
            Path to = out.resolve(f.getKey());
            Files.createDirectories(to.getParent());
            Files.write(to, f.getValue());
        }
    }

    /** How many bytes of class files it holds. */
    long bytesHeld() { return held.get(); }
}
