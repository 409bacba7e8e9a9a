package vramlab.quiz;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the kit's folders are: the root holds {@code labs/}, and {@code solutions/} or a release marker. */
public final class KitPaths {
    /** The file at the root of a student release ({@code ./vramlab release}): no reference there. */
    public static final String RELEASE_MARKER = "RELEASE.txt";

    private KitPaths() {}

    /** {@code -Dvramlab.home}, else the nearest folder above the working one that is a kit. */
    public static Path root() {
        String home = System.getProperty("vramlab.home");
        if (home != null && !home.isBlank()) return Path.of(home).toAbsolutePath();
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !isKit(p)) p = p.getParent();
        if (p == null) throw new IllegalStateException("no kit (solutions/ and labs/) above " + Path.of("").toAbsolutePath());
        return p;
    }

    private static boolean isKit(Path p) {
        return Files.isDirectory(p.resolve("labs"))
                && (Files.isDirectory(p.resolve("solutions")) || Files.isRegularFile(p.resolve(RELEASE_MARKER)));
    }

    /**
     * {@code file} as a terminal shows it to someone standing in {@code cwd}, to open from there:
     * the path from {@code cwd} with {@code /} between names ({@code labs/src/...} from the copy's
     * root, {@code ../labs/src/...} from {@code labs/}), or the absolute path where the two are on
     * different filesystem roots (another drive), which no relative path reaches. The one rule for
     * every place a command names for a student to open: {@code check}'s step and failure lines,
     * and the notes' {@code path:line} of a reread ({@link NotesSection#named(Path, Path)}).
     */
    public static String fromCwd(Path file, Path cwd) {
        Path f = file.toAbsolutePath().normalize();
        Path here = cwd.toAbsolutePath().normalize();
        return f.getRoot() != null && f.getRoot().equals(here.getRoot())
                ? here.relativize(f).toString().replace('\\', '/') : f.toString();
    }

    /** True in a student release: the cores are the student's, and there is no reference simulator. */
    public static boolean isRelease(Path root) { return Files.isRegularFile(root.resolve(RELEASE_MARKER)); }

    /**
     * The compiled classes that stand in for a core of the student's that does not compile: the
     * reference ({@code solutions/target/classes}), or in a release the cores as handed out
     * ({@code cores/target/classes}, every step a Todo), so a broken core costs its steps there too.
     */
    public static Path standIn(Path root) {
        return isRelease(root) ? root.resolve("cores/target/classes") : root.resolve("solutions/target/classes");
    }
}
