package vramlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import vramlab.kit.ChapterLab;

/**
 * A chapter's lab scenarios as JShell files ({@code src/main/jshell/snippets/*.jsh}, each opening
 * with a one-line {@code //} comment that says what it shows), so a student can replay the
 * notes' examples line by line with {@code /open FILE}. In a kit the files are read where they
 * are in the chapter's sources; otherwise they are copied out of the chapter's jar.
 */
final class Snippets {
    /** One file and what it shows. */
    record Snippet(Path file, String description) {}

    private final List<Snippet> list;

    private Snippets(List<Snippet> list) { this.list = list; }

    List<Snippet> list() { return list; }

    static Snippets of(ChapterLab chapter) {
        try {
            Path dir = sourceFolder(chapter);
            if (dir == null) dir = extracted(chapter);
            List<Snippet> out = new ArrayList<>();
            if (dir != null && Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    for (Path f : s.filter(p -> p.toString().endsWith(".jsh")).sorted().toList()) {
                        out.add(new Snippet(f, description(f)));
                    }
                }
            }
            return new Snippets(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code chapters/<id>/src/main/jshell/snippets} in the kit, or null. */
    private static Path sourceFolder(ChapterLab chapter) {
        try {
            Path dir = StudentCores.root().resolve("chapters").resolve(chapter.id()).resolve("src/main/jshell/snippets");
            return Files.isDirectory(dir) ? dir : null;
        } catch (IllegalStateException e) {
            return null;                            // not run from a kit
        }
    }

    /** The snippet files of the chapter's jar (or classes folder), copied to a temporary folder. */
    private static Path extracted(ChapterLab chapter) throws IOException {
        String prefix = chapter.getClass().getPackageName().replace('.', '/') + "/snippets/";
        Path from;
        try {
            from = Path.of(chapter.getClass().getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
        if (Files.isDirectory(from)) return from.resolve(prefix);
        Path to = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "vramlab-snippets", chapter.id()));
        try (ZipFile jar = new ZipFile(from.toFile())) {
            for (Enumeration<? extends ZipEntry> e = jar.entries(); e.hasMoreElements(); ) {
                ZipEntry z = e.nextElement();
                String name = z.getName();
                if (!name.startsWith(prefix) || !name.endsWith(".jsh") || name.substring(prefix.length()).contains("/")) {
                    continue;
                }
                try (InputStream in = jar.getInputStream(z)) {
                    Files.write(to.resolve(name.substring(prefix.length())), in.readAllBytes());
                }
            }
        }
        return to;
    }

    /** The file's first line without its {@code //}. */
    private static String description(Path f) throws IOException {
        String first = Files.readAllLines(f, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
        return first.startsWith("//") ? first.substring(2).strip() : "";
    }

    /** How a student types the path: relative to the working folder when it lies inside it. */
    static String shown(Path file) {
        Path cwd = Path.of("").toAbsolutePath();
        Path abs = file.toAbsolutePath().normalize();
        return (abs.startsWith(cwd) ? cwd.relativize(abs) : abs).toString().replace('\\', '/');
    }

    /** What {@code help()} prints below the chapter's list: one {@code /open} line per file. */
    String text() {
        if (list.isEmpty()) return "";
        StringBuilder sb = new StringBuilder("The lab's scenarios, to replay line by line:\n");
        int width = list.stream().mapToInt(s -> shown(s.file()).length()).max().orElse(0) + 6;
        for (Snippet s : list) {
            sb.append(String.format("  %-" + width + "s %s%n", "/open " + shown(s.file()), s.description()));
        }
        return sb.toString();
    }

    /** The JShell method {@code snippets()} that a chapter's {@code help()} calls. */
    String jshellMethod() {
        return "void snippets() { System.out.print(" + javaString(text()) + "); }\n";
    }

    static String javaString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
