package vramlab.quiz.grade;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import vramlab.quiz.Question;

/**
 * What grading takes from the kit, never from a submission: the reference cores, the compiled
 * graded tests, the classes they run with, and the quiz questions (loaded here, on the
 * reference cores, so keys come from the reference simulator).
 *
 * @param referenceCore the compiled reference cores ({@code solutions/target/classes})
 * @param testRoots     the compiled test folders whose {@code @Graded} tests are the lab items
 * @param runtime       what the graded tests need besides the cores, kit first
 * @param questions     every chapter's quiz questions
 */
public record Kit(Path referenceCore, List<Path> testRoots, List<Path> runtime, List<Question> questions) {

    /** The kit built under {@code root} ({@code mvn -q -DskipTests package} compiles everything needed). */
    public static Kit locate(Path root) throws IOException {
        Path core = need(root.resolve("solutions/target/classes"));
        List<Path> tests = new ArrayList<>();
        List<Path> runtime = new ArrayList<>();
        runtime.add(need(root.resolve("quiz/target/classes")));
        try (Stream<Path> s = Files.list(root.resolve("chapters"))) {
            for (Path ch : s.sorted().toList()) {
                if (Files.isDirectory(ch.resolve("target/test-classes"))) tests.add(ch.resolve("target/test-classes"));
                if (Files.isDirectory(ch.resolve("target/classes"))) runtime.add(ch.resolve("target/classes"));
            }
        }
        if (Files.isDirectory(root.resolve("toolkit/target/classes"))) runtime.add(root.resolve("toolkit/target/classes"));
        for (String jar : Files.readString(need(root.resolve("quiz/target/grader.classpath"))).strip()
                .split(File.pathSeparator)) {
            if (!jar.isBlank()) runtime.add(Path.of(jar));
        }
        return new Kit(core, tests, runtime, registeredQuestions());
    }

    /** The questions this JVM's chapters register, on this JVM's (the reference) cores. */
    public static List<Question> registeredQuestions() {
        List<Question> out = new ArrayList<>();
        ServiceLoader.load(Question.class).forEach(out::add);
        return out;
    }

    /** The same kit with more graded test folders (a fixture's, in the grader's own tests). */
    public Kit withTests(List<Path> more) {
        List<Path> t = new ArrayList<>(testRoots);
        t.addAll(more);
        return new Kit(referenceCore, t, runtime, questions);
    }

    private static Path need(Path p) {
        if (!Files.exists(p)) {
            throw new IllegalStateException("the kit is not built (" + p + " is missing): run mvn -q -DskipTests package");
        }
        return p;
    }
}
