package vramlab.gradecheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import vramlab.labgen.LabGenerator;

/**
 * One step's place in its reference source file: the file's lines, the {@code lab:begin} and
 * {@code lab:end} lines, and the header of the method whose body the step is.
 *
 * @param step     the step as the generator lists it
 * @param relative the file, relative to {@code src/main/java}
 * @param lines    the reference file's lines
 * @param begin    index of the {@code lab:begin} line
 * @param end      index of its {@code lab:end} line
 */
record StepSource(LabGenerator.Step step, String relative, List<String> lines, int begin, int end) {
    private static final Pattern END = Pattern.compile("^\\s*// lab:end\\s*$");
    private static final Pattern HEADER = Pattern.compile("^\\s*[^*/\\s].*\\b\\w+\\s*\\(.*\\{\\s*$");

    static StepSource of(LabGenerator.Step step, Path solutionsModule) throws IOException {
        String prefix = "labs/src/main/java/";
        if (!step.file().startsWith(prefix)) {
            throw new IllegalArgumentException("step " + step.id() + ": file " + step.file());
        }
        String rel = step.file().substring(prefix.length());
        Path source = solutionsModule.resolve("src/main/java").resolve(rel);
        List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
        int begin = step.line() - 1;
        if (!lines.get(begin).contains("// lab:begin " + step.id() + " ")) {
            throw new IllegalStateException(rel + ":" + step.line() + ": expected the lab:begin of step " + step.id());
        }
        int end = begin + 1;
        while (!END.matcher(lines.get(end)).matches()) end++;
        return new StepSource(step, rel, lines, begin, end);
    }

    /** The reference body: the lines strictly between the markers. */
    List<String> body() { return lines.subList(begin + 1, end); }

    String beginLine() { return lines.get(begin); }

    /** The nearest line above the step that opens a method. */
    String header() {
        for (int i = begin - 1; i >= 0; i--) {
            if (HEADER.matcher(lines.get(i)).matches()) return lines.get(i);
        }
        throw new IllegalStateException(relative + ": no method header above step " + step.id());
    }

    /** The file's text with the step's body replaced by {@code body}. */
    String with(List<String> body) {
        List<String> out = new ArrayList<>(lines.subList(0, begin + 1));
        out.addAll(body);
        out.addAll(lines.subList(end, lines.size()));
        return String.join("\n", out) + "\n";
    }

    /** The reference file's text. */
    String reference() { return String.join("\n", lines) + "\n"; }
}
