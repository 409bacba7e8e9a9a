package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import vramlab.labgen.LabGenerator;

/**
 * A student's labs/ made for a test, in a scratch folder: the generator's output for
 * {@code solutions/}, except that the steps named are written (the reference's body stays), and
 * an edit may change a file's text (a wrong body, a syntax error).
 */
final class ScratchLabs {
    private ScratchLabs() {}

    /** Writes {@code dir/src/main/java/...} with {@code written} steps kept; returns {@code dir}. */
    static Path make(Path root, Path dir, Collection<String> written, Map<String, UnaryOperator<String>> edits)
            throws IOException {
        Path src = root.resolve("solutions/src/main/java");
        for (Path p : LabGenerator.steps(root.resolve("solutions")).stream()
                .map(s -> src.resolve(s.file().substring("labs/src/main/java/".length()))).distinct().toList()) {
            if (!Files.isRegularFile(p)) throw new IllegalStateException("no step file " + p);
        }
        try (var files = Files.walk(src)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String rel = src.relativize(p).toString().replace('\\', '/');
                String text = keep(Files.readString(p, StandardCharsets.UTF_8), written);
                text = LabGenerator.transform(text, "labs/src/main/java/" + rel);
                UnaryOperator<String> edit = edits.get(p.getFileName().toString());
                if (edit != null) text = edit.apply(text);
                Path to = dir.resolve("src/main/java").resolve(rel);
                Files.createDirectories(to.getParent());
                Files.writeString(to, text, StandardCharsets.UTF_8);
            }
        }
        return dir;
    }

    /** The source with the markers of the written steps removed, so their bodies stay. */
    static String keep(String source, Collection<String> written) {
        StringBuilder out = new StringBuilder();
        boolean dropEnd = false;
        for (String line : source.lines().toList()) {
            var m = java.util.regex.Pattern.compile("^\\s*// lab:begin (\\d+\\.\\d+) .*$").matcher(line);
            if (m.matches() && written.contains(m.group(1))) {
                dropEnd = true;
                continue;
            }
            if (dropEnd && line.strip().equals("// lab:end")) {
                dropEnd = false;
                continue;
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** Every step before {@code step} in its chapter, in order ("3.3" -> 3.1, 3.2). */
    static java.util.List<String> before(Path root, String step) {
        String chapter = step.substring(0, step.indexOf('.') + 1);
        return LabGenerator.steps(root.resolve("solutions")).stream().map(LabGenerator.Step::id)
                .filter(id -> id.startsWith(chapter))
                .filter(id -> CheckReport.key(id).compareTo(CheckReport.key(step)) < 0)
                .sorted(java.util.Comparator.comparing(CheckReport::key)).collect(Collectors.toList());
    }
}
