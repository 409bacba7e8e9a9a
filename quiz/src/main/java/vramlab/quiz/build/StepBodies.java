package vramlab.quiz.build;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import vramlab.labgen.LabGenerator;

/**
 * Finds a graded step's body where a student could read it. A step's body is known by its
 * telling lines: the reference's lines between {@code // lab:begin} and {@code // lab:end} that
 * are at least {@value #TELLING} characters long and appear nowhere in the generated labs, not
 * even inside a longer line. Any
 * text file holding one (Java, AsciiDoc, HTML with its tags stripped and entities decoded, ...)
 * shows that step; so does any compiled class or jar, since a release ships sources only.
 */
public final class StepBodies {
    /** The shortest line that tells a body apart from everything else. */
    public static final int TELLING = 24;
    static final Pattern BEGIN = Pattern.compile("^\\s*// lab:begin (\\d+\\.\\d+) .*$");
    static final Set<String> TEXT = Set.of("java", "adoc", "asciidoc", "html", "htm", "js", "jsh", "txt", "md", "xml",
            "css", "json", "yml", "yaml", "sh", "cmd", "properties", "svg", "csv", "tsv");

    /** Each step's telling lines, whitespace collapsed. */
    private final Map<String, List<String>> telling;

    private StepBodies(Map<String, List<String>> telling) { this.telling = telling; }

    /** The telling lines of every step marked in {@code solutionsModule}. */
    public static StepBodies of(Path solutionsModule) throws IOException {
        StringBuilder generated = new StringBuilder();
        for (String text : LabGenerator.generate(solutionsModule).values()) generated.append(squash(text)).append('\n');
        String everywhere = generated.toString();
        Map<String, List<String>> out = new LinkedHashMap<>();
        lines(solutionsModule).forEach((step, lines) -> {
            for (String line : lines) {
                String sq = squash(line);
                if (sq.length() >= TELLING && !everywhere.contains(sq)) {   // nowhere in labs
                    out.computeIfAbsent(step, k -> new ArrayList<>()).add(sq);
                }
            }
        });
        return new StepBodies(out);
    }

    /** Each step's body as written in {@code solutionsModule}: the lines between its markers, by step id. */
    public static Map<String, List<String>> lines(Path solutionsModule) throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Path src = solutionsModule.resolve("src/main/java");
        try (Stream<Path> s = Files.walk(src)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String step = null;
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    Matcher m = BEGIN.matcher(line);
                    if (m.matches()) {
                        step = m.group(1);
                        continue;
                    }
                    if (line.strip().equals("// lab:end")) step = null;
                    if (step != null) out.computeIfAbsent(step, k -> new ArrayList<>()).add(line);
                }
            }
        }
        return out;
    }

    /** The steps that have telling lines (a step whose every line also appears elsewhere has none). */
    public Set<String> steps() { return telling.keySet(); }

    /** One line per file under {@code dir} that shows a step's body, or is compiled code. */
    public List<String> shownIn(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
                String rel = dir.relativize(f).toString().replace('\\', '/');
                String ext = rel.contains(".") ? rel.substring(rel.lastIndexOf('.') + 1).toLowerCase() : "";
                if (ext.equals("class") || ext.equals("jar")) {
                    out.add(rel + ": compiled code (a release ships sources only)");
                    continue;
                }
                if (!TEXT.contains(ext) || Files.size(f) > (16 << 20)) continue;
                String text = Files.readString(f, StandardCharsets.UTF_8);
                if (ext.startsWith("htm") || ext.equals("svg")) text = plain(text);
                String hay = squash(text.replace("\r", ""));
                Set<String> shown = new java.util.TreeSet<>();
                telling.forEach((step, lines) -> {
                    for (String l : lines) if (hay.contains(l)) shown.add(step);
                });
                if (!shown.isEmpty()) out.add(rel + ": shows the body of step " + String.join(", ", shown));
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return out;
    }

    /** HTML as a reader sees it: tags removed, entities decoded. */
    public static String plainText(String html) { return plain(html); }

    /** HTML as a reader sees it: tags removed, entities decoded. */
    static String plain(String html) {
        String t = html.replaceAll("(?s)<[^>]*>", "");
        return t.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&#8217;", "'").replace("&nbsp;", " ").replace("&amp;", "&");
    }

    /** A line, or a text, with every run of whitespace made one space, trimmed. */
    static String squash(String s) { return s.strip().replaceAll("\\s+", " "); }
}
