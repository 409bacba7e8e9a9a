package vramlab.site;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository the tests run in: surefire starts in {@code site/}, so it is the parent. */
final class Repo {
    private Repo() {}

    static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("chapters"))) p = p.getParent();
        if (p == null) throw new IllegalStateException("no chapters/ above " + Path.of("").toAbsolutePath());
        return p;
    }
}
