package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files a chapter's notes tell a student to open, and which of them a release lacks. The
 * notes name files by their path from the top of the kit ({@code chapters/ch05-.../examples/x.pickle},
 * {@code toolkit/src/test/resources/triage-corpus/015-cobra.txt}); {@code release} runs this on
 * what it wrote, so a folder the notes cite and the release does not copy stops the release
 * instead of reaching a student as a missing file.
 *
 * <p>What is read: the prose of every {@code chapters/*}{@code /src/docs/asciidoc/*.adoc} (both
 * editions show the same prose; they differ in listings). Attribute entries ({@code :core: ../..})
 * and include directives are the renderer's, not the reader's, and are skipped; so are comment lines,
 * and a link to another site with its text: a citation's text names a file of PyTorch's
 * ({@code docs/source/notes/cuda.rst}), not one of the kit's.
 */
final class NotesPaths {
    private NotesPaths() {}

    /** The kit's top-level folders: a path in the notes that starts with one of these is a file of the kit. */
    static final Pattern PATH = Pattern.compile(
            "(?<![\\w./-])((?:chapters|toolkit|labs|cores|quiz|cli|labgen|solutions|slides|site|bench|instructor"
                    + "|playground|docs)/[\\w./-]*)");

    /** A link to another site with its text, {@code link:https://...[text]} or {@code https://...[text]}; a {@code \]} is in the text. */
    static final Pattern EXTERNAL_LINK = Pattern.compile("(?:link:)?https?://[^\\s\\[]+\\[(?:\\\\]|[^\\]])*]");

    /** One path the notes name, where: {@code file} relative to the release, 1-based {@code line}. */
    record Cited(String file, int line, String path) {
        @Override
        public String toString() { return file + ":" + line + ": " + path; }
    }

    /** Every path named in the notes under {@code dir}, in file and line order. */
    static List<Cited> cited(Path dir) throws IOException {
        List<Cited> out = new ArrayList<>();
        Path chapters = dir.resolve("chapters");
        if (!Files.isDirectory(chapters)) return out;
        List<Path> notes;
        try (Stream<Path> s = Files.walk(chapters)) {
            notes = s.filter(p -> p.toString().endsWith(".adoc"))
                    .filter(p -> p.getParent().endsWith(Path.of("src/docs/asciidoc"))).sorted().toList();
        }
        for (Path f : notes) {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith(":") || line.startsWith("include::") || line.startsWith("//")) continue;
                Matcher m = PATH.matcher(EXTERNAL_LINK.matcher(line).replaceAll(""));
                while (m.find()) {
                    String p = m.group(1).replaceAll("[.]+$", "");      // a sentence's full stop is not the path's
                    out.add(new Cited(dir.relativize(f).toString().replace('\\', '/'), i + 1, p));
                }
            }
        }
        return out;
    }

    /** The paths the notes under {@code dir} name that are not in {@code dir}, one line each. */
    static List<String> missingIn(Path dir) throws IOException {
        List<String> missing = new ArrayList<>();
        for (Cited c : cited(dir)) {
            if (!Files.exists(dir.resolve(c.path()))) missing.add(c + " (not in the release)");
        }
        return missing;
    }
}
