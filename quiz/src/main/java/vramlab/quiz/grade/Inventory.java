package vramlab.quiz.grade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vramlab.quiz.ScoreRow;

/**
 * The inventory: every graded lab item the kit declares, by its unique id with its zero row (step,
 * name, points), listed once in a child JVM on the reference cores, and the test folder each
 * item's class lives in (the declared totals are checked folder by folder).
 */
final class Inventory {
    /** The listing child's folder in the work area; no student's area is named so ({@link Grader#folderName}). */
    static final String AREA = "_inventory";

    private final Kit kit;
    private final LabItems children;
    private final Path work;
    private Map<String, ScoreRow> items;
    private Map<String, Path> rootOf;

    Inventory(Kit kit, LabItems children, Path work) {
        this.kit = kit;
        this.children = children;
        this.work = work;
    }

    /** Every lab item, listed on the first call. */
    synchronized Map<String, ScoreRow> items() throws IOException, InterruptedException {
        if (items != null) return items;
        Path area = Files.createDirectories(work.resolve(AREA));
        ChildRun run = new ChildRun(children.command(area, List.of(kit.referenceCore()), "list", null), area, 0);
        run.run(Map.of(), Duration.ofMinutes(2), System.nanoTime() + Duration.ofMinutes(2).toNanos(), children.outputCap());
        Map<String, ScoreRow> listed = new LinkedHashMap<>();
        for (String line : Files.readAllLines(run.results(), StandardCharsets.UTF_8)) {
            int mac = line.lastIndexOf('\t');
            String[] f = line.substring(0, Math.max(0, mac)).split("\t", 3);
            if (f.length == 3 && f[0].equals("ITEM") && !f[2].startsWith("q")) listed.put(f[1], ScoreRow.fromTsv(f[2]));
        }
        if (!run.completed()) throw new IllegalStateException("could not list the kit's graded tests; see " + area);
        use(listed);
        return items;
    }

    /** Takes {@code listed} (as {@link #items()} returns them) instead of listing them in a child. */
    synchronized void use(Map<String, ScoreRow> listed) {
        Map<String, Path> roots = new LinkedHashMap<>();
        for (String uid : listed.keySet()) roots.put(uid, rootOfUid(uid));
        rootOf = roots;
        items = new LinkedHashMap<>(listed);
    }

    /** The test folder that holds item {@code uid}'s class, or null. */
    synchronized Path rootOf(String uid) { return rootOf.get(uid); }

    private Path rootOfUid(String uid) {
        int at = uid.indexOf("[class:");
        if (at < 0) return null;
        int end = uid.indexOf(']', at);
        String cls = uid.substring(at + "[class:".length(), end).replace('.', '/') + ".class";
        for (Path root : kit.testRoots()) if (Files.isRegularFile(root.resolve(cls))) return root;
        return null;
    }
}
