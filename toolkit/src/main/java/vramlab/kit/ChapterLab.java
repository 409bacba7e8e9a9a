package vramlab.kit;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A chapter's lab, as the launcher finds it: each chapter module registers one in
 * {@code META-INF/services/vramlab.kit.ChapterLab}. Chapters are named by number
 * ({@code 4}, {@code 04}, {@code ch04}) or by slug ({@code real-oom}).
 */
public interface ChapterLab {
    /** The chapter's number in teaching order (ARCHITECTURE.md's table). */
    int number();

    /** The chapter's slug, for example {@code real-oom}. */
    String slug();

    String title();

    /**
     * The student's cores this chapter runs (its lab, figures, JShell session and quiz), by name,
     * each with the cores it needs: of {@code base} ({@code vramlab.units}, {@code vramlab.lab}),
     * {@code gmmu}, {@code driver}, {@code alloc}, {@code buddy}, {@code kv}, {@code pinned} and
     * {@code contest} (the launcher's list, with their packages: {@code vramlab.quiz.build.CoreBuild.CORES}).
     * In a student's copy {@code lab N} and {@code jshell N} compile these from {@code labs/} and
     * run every other core as handed out. Declared here, not discovered: the launcher's
     * {@code ChapterCoresLoadedTest} runs each lab whole and fails when it loads a class of a
     * core left out of this list, {@code ChapterCoresTest} when the JShell session imports one.
     */
    List<String> cores();

    /** Runs the chapter's lab scenarios, printing what the notes show. */
    void run(PrintStream out);

    /**
     * The lab's scenarios, each run on its own by {@code ./vramlab lab} so that one that needs a
     * step not written yet stops alone (see {@link Scenario#runAll}). By default the whole lab is
     * one scenario.
     */
    default List<Scenario> scenarios() { return List.of(new Scenario("", this::run)); }

    /**
     * The JShell startup snippets: imports and a {@code help()} listing what to try. By default
     * the resource {@code startup.jsh} beside the implementing class (a chapter's
     * {@code src/main/jshell/startup.jsh}, copied there by its build).
     */
    default String jshellStartup() {
        try (InputStream in = getClass().getResourceAsStream("startup.jsh")) {
            if (in == null) throw new IllegalStateException(id() + ": no startup.jsh beside " + getClass().getName());
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The chapter's homework, in the order its notes number it (none by default). */
    default java.util.List<Exercise> exercises() { return java.util.List.of(); }

    /** {@code ch04-real-oom}. */
    default String id() { return String.format("ch%02d-%s", number(), slug()); }
}
