package vramlab.quiz.grade;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vramlab.quiz.ScoreRow;

/**
 * One child JVM over a set of graded items, watched from outside: the child reports each
 * descriptor it starts and each item it finishes; the watcher kills it when one item runs past
 * its timeout, when it prints past the cap, or when the submission's time is up, and books 0
 * with that reason for the item (or class) that was running. Items the child never reached are
 * left for the next child.
 */
final class ChildRun {
    private final List<String> command;
    private final Path area;
    private final Path results;
    private final Path stdout;
    private final Map<String, ScoreRow> booked = new LinkedHashMap<>();
    private final Set<String> open = new LinkedHashSet<>();
    private final byte[] key = new byte[32];
    private final ChildRunner.Signer signer;
    private long offset;
    private boolean done;
    private boolean started;
    private int forged;
    private String stoppedBy;
    /**
     * Where the test running long was, as the child last said ({@code WHERE}): the method, then
     * a TAB and the step's section when known; null when it did not say.
     */
    private String where;

    /** How long a child may take to start and discover tests before its first test begins. */
    static final Duration STARTUP = Duration.ofSeconds(60);
    /**
     * The most a child may add to its working folder (its {@code java.io.tmpdir} is inside) in
     * files; measured about once a second. A child that writes elsewhere is not seen: there is no
     * sandbox beyond the process (quiz/README.adoc, "Limits").
     */
    static final long DISK_CAP = 256L << 20;
    private long diskCap = DISK_CAP;

    ChildRun(List<String> command, Path area, int attempt) {
        this.command = command;
        this.area = area;
        this.results = area.resolve("results-" + attempt + ".txt");
        this.stdout = area.resolve("stdout-" + attempt + ".txt");
        new java.security.SecureRandom().nextBytes(key);
        this.signer = new ChildRunner.Signer(key);
    }

    /** The same run with another cap on the files it may write (for tests). */
    ChildRun withDiskCap(long bytes) {
        diskCap = bytes;
        return this;
    }

    /** Lines in the results file that did not carry this child's MAC: written by something else. */
    int forged() { return forged; }

    /** Why the watcher stopped the child (a time-out, an exit, too much output), or null. */
    String stoppedBy() { return stoppedBy; }

    /** The most a child may print past its cap (only by going around System.out) before it is stopped. */
    static long killAt(long outputCap) { return ChildWatch.killAt(outputCap); }

    Path results() { return results; }

    /** Items finished in this run, by unique id. */
    Map<String, ScoreRow> booked() { return booked; }

    /** The first line the child printed, for a child that died before its first test. */
    String firstOutput() {
        try {
            return Files.lines(stdout).findFirst().map(l -> l.length() > 200 ? l.substring(0, 200) : l).orElse("");
        } catch (IOException | java.io.UncheckedIOException e) {
            return "";
        }
    }

    /** True when the child ran to its end (DONE), so unreported items were not selectable. */
    boolean completed() { return done; }

    /**
     * Runs the child to its end or until a bound trips; {@code items} gives each item's zero
     * row, to book the one that was running when the child had to be stopped.
     */
    void run(Map<String, ScoreRow> items, Duration itemTimeout, long deadlineNanos, long outputCap)
            throws IOException, InterruptedException {
        Files.deleteIfExists(results);          // the child appends: start from nothing
        Files.deleteIfExists(stdout);
        ProcessBuilder pb = new ProcessBuilder(command).directory(area.toFile())
                .redirectErrorStream(true).redirectOutput(stdout.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("VRAMLAB_"));   // the salt stays here
        Process p = ChildWatch.start(pb);             // killed with the grader's JVM if still running then
        var lifeline = p.getOutputStream();           // open until the child ends: its end tells the child
        try {                                         // the grader is gone (Lifeline)
            lifeline.write((java.util.HexFormat.of().formatHex(key) + "\n").getBytes(StandardCharsets.US_ASCII));
            lifeline.flush();
        } catch (IOException e) {
            // the child died at once; what it left is read below
        }
        try {
            watch(p, items, itemTimeout, deadlineNanos, outputCap);
        } finally {
            try {
                lifeline.close();
            } catch (IOException e) {
                // the child is gone already
            }
        }
    }

    private void watch(Process p, Map<String, ScoreRow> items, Duration itemTimeout, long deadlineNanos, long outputCap)
            throws IOException, InterruptedException {
        long lastEvent = System.nanoTime();
        long baseline = treeSize(area);
        long lastDiskCheck = System.nanoTime();
        String stopped = null;
        while (true) {
            boolean exited = p.waitFor(20, java.util.concurrent.TimeUnit.MILLISECONDS);
            if (poll()) lastEvent = System.nanoTime();
            if (exited) {
                ChildWatch.endSession(p);      // what it left running (a double fork), before its files are read
                poll();
                if (!done) stopped = "the JVM exited with status " + p.exitValue()
                        + " during this test (System.exit, or a crash)";
                break;
            }
            long now = System.nanoTime();
            if (now - lastEvent > (started ? itemTimeout : STARTUP).toNanos()) {
                stopped = ChildWatch.timedOut(itemTimeout) + " " + (where == null ? "(an infinite loop?)"
                        : where.replaceFirst("\t.*", "") + " (a loop that never ends?)"
                        + (where.contains("\t") ? "\nReread: " + where.substring(where.indexOf('\t') + 1) + "." : ""));
            } else if (Files.size(stdout) > killAt(outputCap)) {
                stopped = ChildWatch.overCap(outputCap);
            } else if (now > deadlineNanos) {
                stopped = "not finished: the submission's time bound was used up";
            } else if (now - lastDiskCheck > 1_000_000_000L) {
                lastDiskCheck = now;
                if (treeSize(area) - baseline > diskCap) {
                    stopped = "wrote files past the " + (diskCap >> 20) + " MiB cap on what a test may write";
                }
            }
            if (stopped != null) {
                ChildWatch.kill(p);
                poll();
                break;
            }
        }
        stoppedBy = stopped;
        if (stopped != null) blame(items, stopped);
    }

    /** The bytes of the plain files under {@code dir} (links not followed); what cannot be read counts 0. */
    static long treeSize(Path dir) {
        long[] sum = {0};
        try {
            Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) {
                    if (a.isRegularFile()) sum[0] += a.size();
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // counted what could be read
        }
        return sum[0];
    }

    /** Books 0 for every unfinished item inside, or containing, the deepest open descriptor. */
    private void blame(Map<String, ScoreRow> items, String why) {
        String deepest = open.stream().reduce((a, b) -> b.length() >= a.length() ? b : a).orElse(null);
        if (deepest == null) return;
        for (Map.Entry<String, ScoreRow> e : items.entrySet()) {
            String uid = e.getKey();
            if (booked.containsKey(uid)) continue;
            if (uid.startsWith(deepest) || deepest.startsWith(uid)) {
                ScoreRow z = e.getValue();
                booked.put(uid, ScoreRow.zero(z.step(), z.name(), z.points(), "FAILED", why));
            }
        }
    }

    /** Reads the complete lines the child added since the last poll; true when any was progress (not {@code WHERE}). */
    private boolean poll() throws IOException {
        if (!Files.exists(results)) return false;
        List<String> lines = new ArrayList<>();
        try (RandomAccessFile f = new RandomAccessFile(results.toFile(), "r")) {
            if (f.length() <= offset) return false;
            f.seek(offset);
            byte[] b = new byte[(int) (f.length() - offset)];
            f.readFully(b);
            int last = -1;
            for (int i = 0; i < b.length; i++) if (b[i] == '\n') last = i;
            if (last < 0) return false;
            offset += last + 1;
            lines.addAll(List.of(new String(b, 0, last, StandardCharsets.UTF_8).split("\n")));
        }
        boolean progress = false;
        for (String signed : lines) {
            String line = signer.check(signed);
            if (line == null) {
                forged++;
                continue;
            }
            String[] f = line.split("\t", 3);
            progress |= !f[0].equals("WHERE");
            switch (f[0]) {
                case "START" -> { open.add(f[1]); started = true; where = null; }
                case "FIN" -> open.remove(f[1]);
                case "END" -> booked.putIfAbsent(f[1], ScoreRow.fromTsv(f[2]));
                case "DONE" -> done = true;
                case "WHERE" -> where = f.length > 2 && open.contains(f[1]) ? f[2] : where;
                default -> { }
            }
        }
        return progress;
    }

    static String classpath(List<Path> parts) {
        StringBuilder sb = new StringBuilder();
        for (Path p : parts) sb.append(sb.length() == 0 ? "" : File.pathSeparator).append(p.toAbsolutePath());
        return sb.toString();
    }
}
