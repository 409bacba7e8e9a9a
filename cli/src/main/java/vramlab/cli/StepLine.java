package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.StepPlaces;

/**
 * Where {@code check} sends a student for a step: the file and the line of the method the step
 * asks them to write, read from their own copy of the file when {@code check} runs (lines they
 * added above it move it), as {@code labs/src/main/java/vramlab/alloc/ToyPolicy.java:36}, the
 * form editors and terminals open at the line. The file is named from where the student runs
 * {@code check} ({@link KitPaths#fromCwd}, the rule the {@code Reread:} line's notes follow):
 * {@code labs/src/main/java/...} from the copy's root, {@code src/main/java/...} from {@code labs/}.
 * When their file no longer declares the method (a rename), the file alone, and that the method
 * was not found.
 *
 * @param file   the student's file as it opens from where they stand: {@code labs/src/main/java/...}
 *               from the copy's root
 * @param method the method's simple name with its class, {@code ToyPolicy.roundSize}; null when
 *               the kit's own copy of the file has no method around the step
 * @param line   the method's line in the student's file (1-based), 0 when not found there
 */
record StepLine(String file, String method, int line) {
    /** The place as the step's heading says it: {@code file:line}, or the file and why no line. */
    String place() {
        if (line > 0) return file + ":" + line;
        if (method == null) return file;
        return file + ", method " + method + " not found";
    }

    /** The line under a failed test: where to look. */
    String lookAt() {
        if (line > 0) return "your method " + method + ": " + file + ":" + line;
        if (method == null) return "your code: " + file;
        return "your method " + method + " was not found in " + file + " (renamed? the graded tests call it by that name)";
    }

    /**
     * Step {@code step}'s place in the student's {@code labs/} of the kit at {@code root}, named for
     * someone standing in {@code cwd}: the kit's {@code solutions/} (in a release, {@code cores/})
     * says which method it is, the student's file where it is now. The file named is the one
     * {@code check} compiles ({@link StudentCores#sources}: another {@code labs/} when
     * {@code -Dvramlab.labs} names one), so the place opens the file the student edits.
     */
    static StepLine of(Path root, Path cwd, LabGenerator.Step step) {
        String rel = step.file().substring(step.file().indexOf("src/main/java/") + "src/main/java/".length());
        Path module = Files.isDirectory(root.resolve("solutions/src/main/java")) ? root.resolve("solutions") : root.resolve("cores");
        List<String> reference = read(module.resolve("src/main/java").resolve(rel));
        String className = rel.substring(rel.lastIndexOf('/') + 1, rel.length() - ".java".length());
        String name = reference.isEmpty() || step.line() > reference.size() ? null : StepPlaces.methodAbove(reference, step.line() - 1);
        Path mine = StudentCores.sources(root).resolve(rel);
        String file = KitPaths.fromCwd(mine, cwd);
        if (name == null) return new StepLine(file, null, 0);
        String method = className + "." + (name.equals("<init>") ? className : name);
        OptionalInt at = StepPlaces.methodLine(read(mine), step.id(), reference, step.line());
        return new StepLine(file, method, at.orElse(0));
    }

    private static List<String> read(Path p) {
        try {
            return Files.isRegularFile(p) ? Files.readAllLines(p, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            return List.of();      // unreadable (not UTF-8, a permission): no line, the file alone
        }
    }
}
