package vramlab.quiz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Scores graded tests as they finish and writes {@code target/grading/scores.tsv} in the module
 * being tested, one row per graded test. Registered through {@code META-INF/services}, so any
 * module with the harness on its test classpath is scored. The report module adds the rows of
 * every module into one table and one {@code Score: X/Y} line.
 */
public final class ScoreListener implements TestExecutionListener {
    private final List<ScoreRow> rows = new ArrayList<>();

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (!id.isTest()) return;
        graded(id).ifPresent(g -> rows.add(ScoreRow.of(g, id.getDisplayName(), result)));
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (!id.isTest()) return;
        graded(id).ifPresent(g -> rows.add(new ScoreRow(g.step(), id.getDisplayName(), g.points(), 0,
                "SKIPPED", reason)));
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        if (rows.isEmpty()) return;
        Path out = Path.of("target", "grading", "scores.tsv");
        try {
            Files.createDirectories(out.getParent());
            StringBuilder sb = new StringBuilder();
            for (ScoreRow r : rows) sb.append(r.toTsv()).append('\n');
            Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<Graded> graded(TestIdentifier id) {
        return id.getSource()
                .filter(MethodSource.class::isInstance)
                .map(MethodSource.class::cast)
                .map(ScoreListener::method)
                .map(m -> m.getAnnotation(Graded.class));
    }

    private static Method method(MethodSource s) {
        try {
            return s.getJavaMethod();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
