package vramlab.quiz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Scores graded tests and writes {@code target/grading/scores.tsv} in the module being tested,
 * one row per graded item (see {@link GradedItems} for the rules: a class that fails to
 * initialise still gets a row per graded test, with 0 and the reason). The file is rewritten
 * after every graded item, starting with every item at 0, so a test JVM that a submission ends
 * with {@code System.exit} leaves the rows it had and a reason for the rest. Registered through
 * {@code META-INF/services}, so any module with the harness on its test classpath is scored.
 * The report module adds the rows of every module into one table, {@code results.json} and a
 * gradebook row.
 */
public final class ScoreListener implements TestExecutionListener {
    /** What an item that never reported shows when the test JVM died (System.exit, a crash). */
    static final String DIED = "the test JVM stopped before this test finished (System.exit or a crash?)";

    private final GradedItems items = new GradedItems(row -> write());
    private final Path out;
    private boolean started;

    public ScoreListener() { this(Path.of("target", "grading", "scores.tsv")); }

    public ScoreListener(Path out) { this.out = out; }

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        items.start(plan);
        started = true;
        write();                // every item at 0 first, so a JVM that dies still leaves its rows
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) { items.finished(id, result); }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) { items.skipped(id, reason); }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) { save(items.finish()); }

    private void write() {
        if (started) save(items.snapshot(DIED));
    }

    private void save(List<ScoreRow> rows) {
        if (rows.isEmpty()) return;
        try {
            Files.createDirectories(out.toAbsolutePath().getParent());
            StringBuilder sb = new StringBuilder();
            for (ScoreRow r : rows) sb.append(r.toTsv()).append('\n');
            Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
