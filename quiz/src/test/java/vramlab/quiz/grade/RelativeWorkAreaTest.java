package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The work area named relative to the grader's folder, as {@code ./vramlab grade submissions/*}
 * names it ({@code grades/.work}): a child works in its own area, so every path it is handed
 * must still lead there from its own folder. {@code Files.createDirectories} hands a new folder
 * back absolute but one that exists as it was given, so the first grading into {@code grades/}
 * worked and every later one ("grading some students again keeps everyone else's rows") ended
 * in "error: grade: grades/.work/_inventory/results-0.txt (an internal error of the kit)": the
 * listing child, in {@code grades/.work/_inventory}, looked for
 * {@code grades/.work/_inventory/roots.txt} under that folder.
 */
class RelativeWorkAreaTest {
    /** Relative to this JVM's folder, as {@code grades/} is to the instructor's shell. */
    final Path work = Path.of("target", "relative-work-" + ProcessHandle.current().pid());

    @AfterEach
    void clean() throws Exception {
        if (!Files.exists(work)) return;
        try (var s = Files.walk(work)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    @Test
    @DisplayName("a child handed an area named relative to the grader's folder, which exists already, finds its files")
    void secondRunIntoTheSameRelativeFolder() throws Exception {
        Path noTests = Files.createDirectories(work.resolve("no-tests")).toAbsolutePath();
        List<Path> classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(Path::of).toList();
        LabItems children = new LabItems(new Kit(noTests, List.of(noTests), classpath, List.of()),
                Grader.Options.defaults());
        Path area = work.resolve("_inventory");
        Files.createDirectories(area);
        assertThat(Files.createDirectories(area)).as("an existing folder comes back as given").isRelative();
        ChildRun run = new ChildRun(children.command(area, List.of(noTests), "list", null), area, 0);
        run.run(Map.of(), Duration.ofMinutes(2), System.nanoTime() + Duration.ofMinutes(2).toNanos(), children.outputCap());
        assertThat(run.completed()).as("the listing child ran to its end (its first line: %s)", run.firstOutput()).isTrue();
        assertThat(run.results()).exists();
    }
}
