package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.quiz.build.CoreBuild;

/**
 * Which of the student's cores each chapter's lab and JShell session compile: those its
 * {@code ChapterLab.cores()} declares ({@code ChapterCoresLoadedTest} holds what each lab loads to
 * them, under {@code -Pgrading-fixtures}). {@code lab 3} compiled all eight cores,
 * so a change to alloc recompiled pinned and contest too, and a pinned core that did not compile
 * printed its errors before chapter 3's lab ({@code StudentCores.forChapter}).
 */
class ChapterCoresTest {
    @Test
    @DisplayName("each chapter compiles the cores it declares and those they need, no more: lab 3 neither pinned nor contest")
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
    @DisplayName("each declaration names cores that exist, with every core they need, so it reads as what compiles")
    void declarationsAreWhole() {
        for (ChapterLab c : Chapters.all()) {
            assertThat(c.cores()).as(c.id()).containsExactlyElementsOf(ChapterCores.of(c));
        }
        assertThatThrownBy(() -> ChapterCores.withNeeds(List.of("alloc", "allocator")))
                .hasMessageContaining("no core 'allocator'").hasMessageContaining("base, gmmu, driver");
    }

    @Test
    @DisplayName("every core package a chapter's JShell session imports is one its declaration compiles")
    void jshellImportsDeclared() {
        Pattern names = Pattern.compile("\\bvramlab\\.(\\w+)\\.");
        for (ChapterLab c : Chapters.all()) {
            Matcher m = names.matcher(c.jshellStartup());
            Set<String> imported = new TreeSet<>();
            while (m.find()) imported.add("vramlab." + m.group(1));
            assertThat(imported).as(c.id() + "'s startup.jsh names the kit's packages").isNotEmpty();
            for (CoreBuild.Core core : CoreBuild.CORES) {
                if (core.packages().stream().anyMatch(imported::contains)) {
                    assertThat(ChapterCores.of(c)).as(c.id() + " imports " + core.packages() + " in JShell").contains(core.name());
                }
            }
        }
    }

    @Test
    @DisplayName("a core left uncompiled with changes says so, naming it, and where it would be compiled")
    void notCompiledLine() {
        assertThat(StudentCores.notCompiled("lab ch03-caching-allocator", "chapter 3", List.of("pinned"), "changed since last compiled"))
                .isEqualTo("vramlab: lab ch03-caching-allocator left your pinned core uncompiled, changed since last compiled:"
                + " chapter 3 does not use it (lab, jshell or check of a chapter that does compiles it and shows any error)\n");
        assertThat(StudentCores.notCompiled("replay", "replay", List.of("pinned", "contest"), "why"))
                .contains("your pinned, contest cores uncompiled").contains("replay does not use them");
    }
}
