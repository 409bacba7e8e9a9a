package vramlab.ch03.quiz;

import java.util.List;

import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/**
 * A copying collector defragments a Java heap by moving objects; why can the
 * caching allocator not do the same? Conceptual, so the same for every variant.
 */
public final class NoCompaction implements Question {
    /** The layer whose promise to its callers fixes a live allocation's address. */
    public enum Layer { GMMU_PAGE_TABLES, DRIVER_CUDA_MALLOC, CACHING_ALLOCATOR, CUDA_KERNEL_LAUNCH }

    /** What a Java virtual machine has that lets its collector move objects. */
    public enum JvmHas { A_MAP_OF_EVERY_REFERENCE, A_SMALLER_HEAP, FREE_MEMORY_COPIES, NO_PAGE_TABLES }

    /** What gives a large request contiguous memory without moving any live block. */
    public enum Remedy { EMPTY_CACHE, EXPANDABLE_SEGMENTS, MAX_SPLIT_SIZE, SMALLER_BATCH }

    @Override public String id() { return "q3.5"; }
    @Override public String notesSection() { return "Why the allocator cannot move a live block"; }
    @Override public String title() { return "Why the allocator cannot compact like a copying collector"; }

    @Override
    public String prompt(Variant v) {
        return """
                A copying garbage collector defragments a Java heap by moving live objects together.
                The caching allocator never moves a live block, even when a request fails with
                enough free bytes in holes.
                (a) Whose promise, to whom, forbids moving a live block? Name the layer that made it:
                    GMMU_PAGE_TABLES, DRIVER_CUDA_MALLOC, CACHING_ALLOCATOR or CUDA_KERNEL_LAUNCH.
                (b) What does the JVM have that lets its collector move objects safely?
                (c) What gives a large request contiguous memory without moving any live block?""";
    }

    @Override
    public List<Part> parts(Variant v) {
        return List.of(
                Part.of("a", 1, Blanks.choice("q3.5.a.layer", Layer.class)),
                Part.of("b", 1, Blanks.choice("q3.5.b.jvm", JvmHas.class)),
                Part.of("c", 1, Blanks.choice("q3.5.c.remedy", Remedy.class)));
    }
}
