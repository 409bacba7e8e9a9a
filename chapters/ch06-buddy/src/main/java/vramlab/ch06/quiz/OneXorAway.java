package vramlab.ch06.quiz;

import java.util.List;

import vramlab.buddy.BuddyAllocator;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/**
 * Rule 3: the buddy is one XOR away, and two buddies merge into the lower one. The practice variant is
 * Linux's own example (the comment on {@code __find_buddy_pfn}): page 8 at order 1, buddy 10.
 */
public final class OneXorAway implements Question {
    @Override public String id() { return "q6.2"; }
    @Override public String notesSection() { return "Rule 3: the buddy is one XOR away"; }
    @Override public String title() { return "One XOR away: the buddy, the parent and the parent's buddy"; }

    /** {page, order}: a block of 2^order pages starting at page, aligned to its size. */
    static long[] block(Variant v) {
        if (v.isSeed()) return new long[] {8, 1};
        long order = v.between("order", 0, 4);
        long page = v.between("page", 0, (1024 >> order) - 1) << order;
        return new long[] {page, order};
    }

    @Override
    public String prompt(Variant v) {
        long[] b = block(v);
        return "In page units (offsets from the pool's base), take the free block of order " + b[1] + " (2^" + b[1]
                + " pages)\nthat starts at page " + b[0] + ".\n"
                + "(a) At which page does its buddy start?\n"
                + "(b) When the two merge, at which page does the merged block start?\n"
                + "(c) At which page does the buddy of that merged block (order " + (b[1] + 1) + ") start?";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] b = block(v);
        int order = (int) b[1];
        long parent = BuddyAllocator.parentOf(b[0], order);
        return List.of(
                Part.of("a", 1, Blanks.number("q6.2.a.buddy", BuddyAllocator.buddyOf(b[0], order))),
                Part.of("b", 1, Blanks.number("q6.2.b.parent", parent)),
                Part.of("c", 1, Blanks.number("q6.2.c.parent-buddy", BuddyAllocator.buddyOf(parent, order + 1))));
    }
}
