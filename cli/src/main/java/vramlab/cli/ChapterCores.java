package vramlab.cli;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import vramlab.kit.ChapterLab;
import vramlab.quiz.build.CoreBuild;

/**
 * Which of the student's cores a chapter's {@code lab} and {@code jshell} compile: those its
 * {@link ChapterLab#cores()} declares, with the cores they need. {@code lab 3} then compiles base,
 * gmmu, driver and alloc, not pinned or contest (which only chapters 7 and 8 use), so a change to
 * {@code alloc} does not recompile them, nor does a pinned core that does not compile print its
 * errors before chapter 3's lab. A core not in the list still runs, as handed out
 * ({@link StudentCores#forCores}), so nothing is ever missing from the class path.
 *
 * <p>What keeps a declaration honest: {@code ChapterCoresLoadedTest} runs each chapter's lab whole
 * and holds every core package it loaded a class from to this list; {@code ChapterCoresTest} the
 * packages its JShell session imports.
 */
final class ChapterCores {
    private ChapterCores() {}

    /** The cores chapter {@code c} runs, with those they need, in {@link CoreBuild#CORES} order. */
    static List<String> of(ChapterLab c) {
        try {
            return withNeeds(c.cores());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(c.id() + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code cores}, every core they need and base, in {@link CoreBuild#CORES} order; a name that is
     * no core is refused.
     */
    static List<String> withNeeds(Collection<String> cores) {
        Set<String> wanted = new HashSet<>(List.of("base"));
        for (String name : cores) {
            CoreBuild.Core core = CoreBuild.CORES.stream().filter(k -> k.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no core '" + name + "' (the cores: "
                            + String.join(", ", StudentCores.allCores()) + ")"));
            wanted.add(core.name());
            wanted.addAll(core.needs());
        }
        return CoreBuild.CORES.stream().map(CoreBuild.Core::name).filter(wanted::contains).toList();
    }
}
