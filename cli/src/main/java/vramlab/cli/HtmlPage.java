package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.InvalidPathException;

/** Writes an {@code --html} page; a path that cannot be written is a usage error, checked before the work. */
final class HtmlPage {
    private HtmlPage() {}

    static void checkWritable(String where, String page) {
        Path p;
        try {
            p = Path.of(page).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw new UsageException(where, "--html '" + page + "': not a path (" + e.getReason() + ")");
        }
        Path dir = p.getParent();
        if (Files.isDirectory(p)) throw new UsageException(where, "--html " + page + ": is a directory, expected a file");
        if (dir == null || !Files.isDirectory(dir)) {
            throw new UsageException(where, "--html " + page + ": no such directory " + dir);
        }
        if (!Files.isWritable(dir)) throw new UsageException(where, "--html " + page + ": cannot write in " + dir);
    }

    static void write(String where, String page, String html) {
        try {
            Files.writeString(Path.of(page), html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException(where, "--html " + page + ": cannot write (" + e.getMessage() + ")");
        }
    }
}
