package vramlab.quiz.grade;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * One student's copy, brought into a fresh build area: only the Java sources of
 * {@code labs/src/main/java} and the answer sheets ({@code labs/answers/*.txt} or
 * {@code answers/*.txt}) are copied; tests, build files and everything else in the submission
 * are ignored. The grader then compiles the copied sources one core at a time
 * ({@link vramlab.quiz.build.CoreBuild}).
 */
final class Submission {
    static final int MAX_FILES = 1000;
    static final long MAX_FILE = 1 << 20;

    final Path dir;
    final Path sources;
    final Path classes;
    final Path answers;

    Submission(Path dir, Path area) {
        this.dir = dir;
        this.sources = area.resolve("src");
        this.classes = area.resolve("classes");
        this.answers = area.resolve("answers");
    }

    /**
     * Where the submission keeps its lab sources: {@code DIR/labs/src/main/java} or
     * {@code DIR/src/main/java} ({@code DIR} as {@link SubmissionIntake} found it: no link on the
     * way); null when it has neither.
     */
    Path labSources() {
        if (dir == null) return null;
        Path labs = dir.resolve("labs/src/main/java");
        if (SubmissionIntake.isFolder(labs)) return labs;
        return SubmissionIntake.isFolder(dir.resolve("src/main/java")) ? dir.resolve("src/main/java") : null;
    }

    /** Copies sources and answer sheets; returns how many sources were copied. */
    int copy() throws IOException {
        Files.createDirectories(sources);
        Files.createDirectories(classes);
        Files.createDirectories(answers);
        int n = 0;
        Path from = labSources();
        if (from != null) {
            try (Stream<Path> s = Files.walk(from)) {
                for (Path p : s.filter(Submission::plainFile).filter(vramlab.quiz.build.CoreBuild::isSource).toList()) {
                    if (++n > MAX_FILES) throw new IOException("more than " + MAX_FILES + " source files");
                    Path to = sources.resolve(from.relativize(p).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(p, to);
                }
            }
        }
        for (Path d : dir == null ? List.<Path>of() : List.of(dir.resolve("labs/answers"), dir.resolve("answers"))) {
            if (!SubmissionIntake.isFolder(d)) continue;
            try (Stream<Path> s = Files.list(d)) {
                for (Path p : s.filter(Submission::plainFile).filter(p -> p.getFileName().toString().matches("ch\\d\\d\\.txt"))
                        .toList()) {
                    Path to = answers.resolve(p.getFileName().toString());
                    if (!Files.exists(to)) Files.copy(p, to);
                }
            }
        }
        return n;
    }

    private static boolean plainFile(Path p) {
        try {
            return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && Files.size(p) <= MAX_FILE;
        } catch (IOException e) {
            return false;
        }
    }
}
