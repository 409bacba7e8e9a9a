package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes an {@code --html} page; a path that cannot be written is a usage error, checked before the work. */
final class HtmlPage {
    private HtmlPage() {}

    static void checkWritable(String where, String page) {
        OutputFile.check(where, "--html", page);
    }

    static void write(String where, String page, String html) {
        try {
            Files.writeString(Path.of(page), html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException(where, "--html " + page + ": cannot write (" + e.getMessage() + ")");
        }
    }
}
