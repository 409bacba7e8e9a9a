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
                    "take the block off its free list (pop, not peek) before handing it out");

    static List<Feedback<?, ?>> all() { return List.of(SIZE_CLASS, ALLOC); }
}
