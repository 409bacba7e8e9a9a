package vramlab.ch08;

import java.util.List;

import vramlab.contest.SegregatedFits;
import vramlab.quiz.feedback.Feedback;

/** What chapter 8's graded tests say to a wrong answer (see {@link Feedback}). */
public final class Ch08Feedback {
    private Ch08Feedback() {}

    static final String FITS = "ch08 \"A segregated-fits allocator\"";

    /** 8.1: {@code sizeClass(size)}. */
    public static final Feedback<Long, Integer> SIZE_CLASS = Feedback.<Long, Integer>forStep("8.1", FITS)
            .mistake("rounding down", (size, right, got) -> right >= 0 && got == right - 1,
                    "a block must hold the whole request: the smallest class at or above it, never the one below")
            .mistake("an exact class size doubled", (size, right, got) -> right >= 0 && got == right + 1
                            && size == SegregatedFits.classSize(right),
                    "a request of exactly a class's size fits a block of that class");

    /** 8.2: the entry judged on a workload: the first broken check's first line, or "every check passed". */
    public static final Feedback<String, String> ALLOC = Feedback.<String, String>forStep("8.2", FITS)
            .mistake("a block smaller than its request", (w, right, got) -> got.startsWith("check size"),
                    "a small request takes a block of its size class; a large one a segment of at least its size rounded to 2 MiB")
            .mistake("a block handed out twice", (w, right, got) -> got.startsWith("check overlap"),
                    "take the block off its free list (pop, not peek) before handing it out")
            .mistake("out of memory on a card the reference fits", (w, right, got) -> got.startsWith("out of memory"),
                    "reuse what is cached before asking the driver, and when the driver is out of memory empty the cache and try once more");

    /** 8.2: what a fresh entry's blocks and cudaMalloc calls are for a few requests (see {@code GradedStepsTest.SERVED}). */
    public static final Feedback<String, String> SERVED = Feedback.<String, String>forStep("8.2", FITS)
            .mistake("the smallest class skipped (a small request served as a large one)",
                    (calls, right, got) -> got.startsWith("100 B -> 2 MiB"),
                    "class 0 (512 B blocks) is a class too: a request of 512 B or less takes a 512 B block from a slab")
            .mistake("a new slab for every small request", (calls, right, got) -> got.endsWith("; 5 cudaMalloc"),
                    "carve a slab only when the class's free list is empty; the next request of the class takes the next block");

    /** 8.2: the entry's index against a threshold: "at least N", or the index. */
    public static final Feedback<String, String> INDEX = Feedback.<String, String>forStep("8.2", FITS)
            .mistake("a broken check or a workload that did not fit (the index is 0)", (w, right, got) -> got.equals("0.0"),
                    "an entry that breaks any check earns 0, and one that runs out of memory earns 0 on that workload: "
                            + "pass every check first (./vramlab contest names the first broken one)");

    static List<Feedback<?, ?>> all() { return List.of(SIZE_CLASS, ALLOC, SERVED, INDEX); }
}
