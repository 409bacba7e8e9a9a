package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;

/**
 * Which of the student's cores each chapter's lab and JShell session compile: read from the
 * chapter's class files and the kit classes they use. {@code lab 3} compiled all eight cores,
 * so a change to alloc recompiled pinned and contest too, and a pinned core that did not compile
 * printed its errors before chapter 3's lab ({@code StudentCores.forChapter}).
 */
class ChapterCoresTest {
    @Test
    @DisplayName("each chapter compiles the cores its classes use and those they need, no more: lab 3 neither pinned nor contest")
    void eachChaptersCores() {
        Map<Integer, List<String>> got = new LinkedHashMap<>();
        for (ChapterLab c : Chapters.all()) got.put(c.number(), ChapterCores.of(c));
        List<String> toAlloc = List.of("base", "gmmu", "driver", "alloc");
        assertThat(got).containsExactlyInAnyOrderEntriesOf(Map.of(
                1, List.of("base", "gmmu", "driver"),
                2, toAlloc,
                3, toAlloc,
                4, toAlloc,
                5, toAlloc,
                6, List.of("base", "gmmu", "driver", "alloc", "buddy", "kv"),
                7, List.of("base", "gmmu", "driver", "alloc", "pinned"),
                8, List.of("base", "gmmu", "driver", "alloc", "buddy", "contest")));
    }

    @Test
    @DisplayName("the walk goes through the toolkit: chapter 8 reaches the contest core through vramlab.judge")
    void throughTheToolkit() {
        ChapterLab ch08 = Chapters.all().stream().filter(c -> c.number() == 8).findFirst().orElseThrow();
        assertThat(ChapterCores.packagesReached(ch08.getClass())).contains("vramlab.judge", "vramlab.contest");
        assertThat(ChapterCores.classesOf(ch08.getClass())).as("every class of the chapter's module")
                .contains(ch08.getClass().getName().replace('.', '/')).hasSizeGreaterThan(3);
    }

    @Test
    @DisplayName("a core left uncompiled with changes says so, naming it, and where it would be compiled")
    void notCompiledLine() {
        ChapterLab ch03 = Chapters.all().stream().filter(c -> c.number() == 3).findFirst().orElseThrow();
        assertThat(StudentCores.notCompiled("lab ch03-caching-allocator", ch03, List.of("pinned"), "changed since last compiled"))
                .isEqualTo("vramlab: lab ch03-caching-allocator left your pinned core uncompiled, changed since last compiled:"
                + " chapter 3 does not use it (lab, jshell or check of a chapter that does compiles it and shows any error)\n");
        assertThat(StudentCores.notCompiled("lab x", ch03, List.of("pinned", "contest"), "why"))
                .contains("your pinned, contest cores uncompiled").contains("does not use them");
    }
}
