package vramlab.quiz.grade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vramlab.quiz.ScoreRow;

/**
 * Lab items: the kit's {@code @Graded} tests run in child JVMs on compiled cores (a submission's,
 * or the reference), under the grader's bounds. The kit's classes come first on a child's class
 * path, so a submission cannot replace a test or the harness. An item is all or nothing. A loop,
 * {@code System.exit}, a crash or a flood of output costs the item that was running (0 and the
 * reason) and a new child runs the items left; after a submission's first time-out its items get
 * a shorter bound, and the whole submission has a time budget. What a child says is believed only
 * with the child's MAC ({@link ChildRunner}), and only as "passed" or "failed": steps, names and
 * points are the kit's.
 */
final class LabItems {
    private final Kit kit;
    private final Grader.Options options;

    LabItems(Kit kit, Grader.Options options) {
        this.kit = kit;
        this.options = options;
    }

    /** What a child keeps of its output. */
    long outputCap() { return options.outputCap(); }

    /** What went wrong in a submission's children, for its flags. */
    static final class Stats {
        int timeouts;
        int exits;
        int floods;
        int forged;
        int disk;
        boolean outOfTime;

        List<String> flags() {
            List<String> out = new ArrayList<>();
            if (timeouts > 0) out.add("timed out: " + timeouts + (timeouts == 1 ? " item" : " items"));
            if (exits > 0) out.add("the test JVM exited or crashed: " + exits + (exits == 1 ? " time" : " times"));
            if (floods > 0) out.add("wrote output around the cap: " + floods + (floods == 1 ? " time" : " times"));
            if (disk > 0) out.add("wrote files past the cap on what a test may write: " + disk + (disk == 1 ? " time" : " times"));
            if (outOfTime) out.add("the submission's time bound was used up");
            if (forged > 0) {
                out.add("forged results: " + forged + " line(s) in a results file did not come from the grader");
            }
            return out;
        }
    }

    /**
     * The rows of {@code items} (unique id to zero row, in inventory order) run on {@code cores}
     * (class folders in dependency order), in child JVMs working in {@code area}; what went wrong
     * is counted in {@code stats}.
     */
    Map<String, ScoreRow> run(List<Path> cores, Map<String, ScoreRow> items, Path area, Stats stats)
            throws IOException, InterruptedException {
        Files.createDirectories(area);
        Map<String, ScoreRow> booked = new LinkedHashMap<>();
        long deadline = System.nanoTime() + options.submissionTime().toNanos();
        String stoppedEarly = "not run: the test JVM stopped before it";
        for (int attempt = 1; booked.size() < items.size() && attempt <= items.size() + 1; attempt++) {
            List<String> left = items.keySet().stream().filter(u -> !booked.containsKey(u)).toList();
            Path list = area.resolve("uids-" + attempt + ".txt");
            Files.write(list, left, StandardCharsets.UTF_8);
            ChildRun run = new ChildRun(command(area, cores, "run", list), area, attempt);
            Duration bound = stats.timeouts > 0 ? options.afterTimeout() : options.itemTimeout();
            run.run(items, bound, deadline, options.outputCap());
            stats.forged += run.forged();
            String stop = run.stoppedBy();
            if (stop != null) {
                if (stop.startsWith("timed out")) stats.timeouts++;
                else if (stop.startsWith("the JVM exited")) stats.exits++;
                else if (stop.startsWith("wrote more")) stats.floods++;
                else if (stop.startsWith("wrote files")) stats.disk++;
                else stats.outOfTime = true;
            }
            // Steps, names and points are the kit's; the child only says whether each item passed.
            run.booked().forEach((uid, r) -> {
                ScoreRow z = items.get(uid);
                if (z == null) return;
                booked.putIfAbsent(uid, r.passed()
                        ? new ScoreRow(z.step(), z.name(), z.points(), z.points(), ScoreRow.PASSED, "")
                        : ScoreRow.zero(z.step(), z.name(), z.points(),
                                ScoreRow.SKIPPED.equals(r.status()) ? ScoreRow.SKIPPED : ScoreRow.FAILED, hint(r.reason())));
            });
            if (run.booked().isEmpty() && !run.completed()) {
                stoppedEarly = "not run: the test JVM stopped before its first test: " + run.firstOutput();
            }
            if (run.completed() || run.booked().isEmpty() || System.nanoTime() > deadline) break;
        }
        boolean late = System.nanoTime() > deadline;
        if (late && booked.size() < items.size()) stats.outOfTime = true;
        String why = late ? "not run: the submission's time bound (" + options.submissionTime().toSeconds()
                + " s) was used up" : stoppedEarly;
        Map<String, ScoreRow> out = new LinkedHashMap<>();
        items.forEach((uid, z) -> out.put(uid, booked.getOrDefault(uid, zero(z, why))));
        return out;
    }

    /** An item's row with no points, failed, and why. */
    static ScoreRow zero(ScoreRow z, String why) {
        return ScoreRow.zero(z.step(), z.name(), z.points(), ScoreRow.FAILED, why);
    }

    /** A linkage error usually means a changed signature: say so under the reason. */
    static String hint(String reason) {
        if (reason.matches("(?s).*\\b(NoSuchMethodError|NoSuchFieldError|AbstractMethodError|NoClassDefFoundError"
                + "|IncompatibleClassChangeError)\\b.*")) {
            return reason + "\n(a class or method the kit's tests use is missing, or has another signature, in your"
                    + " labs/: keep the names and signatures as they were handed out)";
        }
        return reason;
    }

    /**
     * The command line of a child JVM that lists ({@code mode} "list") or runs ("run") the graded
     * items named in {@code uids}: the harness first on the class path, then the kit's tests and
     * runtime, the cores last.
     */
    List<String> command(Path area, List<Path> cores, String mode, Path uids) throws IOException {
        // The child works in the area itself (ChildRun), so every path it is handed is absolute: a
        // relative one (grades/.work/..., as an existing folder comes back from createDirectories)
        // would be looked for under the area, and the child would die before its first test.
        area = area.toAbsolutePath();
        uids = uids == null ? null : uids.toAbsolutePath();
        List<Path> cp = new ArrayList<>();
        cp.add(kit.runtime().get(0));               // the harness first: a submission cannot shadow it
        cp.addAll(kit.testRoots());
        cp.addAll(kit.runtime().subList(1, kit.runtime().size()));
        cp.addAll(cores);                           // the student's cores last
        Path roots = area.resolve("roots.txt");
        Files.write(roots, kit.testRoots().stream().map(p -> p.toAbsolutePath().toString()).toList());
        Files.createDirectories(area.resolve("tmp"));
        return new ArrayList<>(List.of(javaBin(), "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + area.resolve("tmp"), "-cp", ChildRun.classpath(cp), ChildRunner.class.getName(),
                mode, area.resolve("results-" + (uids == null ? 0 : attemptOf(uids)) + ".txt").toString(),
                roots.toString(), uids == null ? "-" : uids.toString(), Long.toString(options.outputCap())));
    }

    private static String attemptOf(Path uids) {
        String n = uids.getFileName().toString();
        return n.substring("uids-".length(), n.length() - ".txt".length());
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The items of {@code inventory} whose ids are in {@code uids}, in the inventory's order. */
    static Map<String, ScoreRow> select(Map<String, ScoreRow> inventory, Set<String> uids) {
        Map<String, ScoreRow> items = new LinkedHashMap<>();
        inventory.forEach((uid, z) -> { if (uids.contains(uid)) items.put(uid, z); });
        return items;
    }
}
