package vramlab.kit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the maintainers' set of real PyTorch memory snapshots lives: the tests that replay real
 * runs read it, no command does. It sits beside the kit, not in it ({@code ../shared/real-snapshots},
 * with {@code manifest.json} and {@code snapshots/*.gz}), so a fresh clone has none.
 *
 * <p>Without it those tests skip, each with {@link #MISSING}'s one line; a plain {@code mvn test}
 * stays green. CI sets {@code VRAMLAB_REQUIRE_SHARED=1} (or {@code -Dvramlab.requireShared=true}),
 * and then a missing set is an error instead of a skip, so the tests cannot quietly stop running
 * there.
 */
public final class RealSnapshotsFolder {
    /** What a skipped test says: what is missing and how to run it. */
    public static final String MISSING = "skipped: no real PyTorch snapshots beside this clone"
            + " (../shared/real-snapshots, or -Dvramlab.realSnapshots.dir=DIR); see README, \"Tests, grading and speed\"";

    private RealSnapshotsFolder() {}

    /** {@code -Dvramlab.realSnapshots.dir}, else {@code ../shared/real-snapshots} beside the kit's root. */
    public static Path expected() {
        String given = System.getProperty("vramlab.realSnapshots.dir");
        if (given != null && !given.isBlank()) return Path.of(given).toAbsolutePath().normalize();
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("labs"))) p = p.getParent();
        Path root = p == null ? Path.of("").toAbsolutePath() : p;
        return root.resolve("../shared/real-snapshots").normalize();
    }

    /**
     * The set's folder when it holds a {@code manifest.json}; empty when it is missing, unless the
     * set is required here, which throws naming the folder.
     */
    public static Optional<Path> find() {
        Path dir = expected();
        if (Files.isRegularFile(dir.resolve("manifest.json")) && Files.isDirectory(dir.resolve("snapshots"))) {
            return Optional.of(dir);
        }
        if (required()) {
            throw new IllegalStateException("the real snapshots are required here (VRAMLAB_REQUIRE_SHARED or"
                    + " -Dvramlab.requireShared) but " + dir + " has no manifest.json and snapshots/;"
                    + " set -Dvramlab.realSnapshots.dir=DIR to read them elsewhere");
        }
        return Optional.empty();
    }

    /** The folder of the {@code .gz} files, when the set is there. */
    public static Optional<Path> snapshots() { return find().map(d -> d.resolve("snapshots")); }

    /** True where CI asks for the set: a missing one then fails instead of skipping. */
    public static boolean required() {
        String env = System.getenv("VRAMLAB_REQUIRE_SHARED");
        return Boolean.getBoolean("vramlab.requireShared") || (env != null && !env.isBlank() && !"0".equals(env));
    }
}
