package vramlab.ch07;

import java.util.List;

import vramlab.pinned.CachingHostAllocator.Fate;
import vramlab.quiz.feedback.Feedback;
import vramlab.units.Bytes;

/** What chapter 7's graded tests say to a wrong answer (see {@link Feedback}). */
public final class Ch07Feedback {
    private Ch07Feedback() {}

    static final String ROUND = "ch07 \"Rule 1: round up to a power of two\"";
    static final String GRAPHS = "ch07 \"Rule 3: graphs keep their blocks\"";
    static final String EVENTS = "ch07 \"Rule 2: a freed block waits for its events\"";
    static final String EMPTY = "ch07 \"Giving it back: empty_host_cache\"";

    /** 7.1: {@code roundSize(size)}; sizes in bytes. */
    public static final Feedback<Long, Long> ROUND_SIZE = Feedback.<Long, Long>forStep("7.1", ROUND)
            .showing(Bytes::readable)
            .mistake("rounding down to a power of two", (n, right, got) -> got < n,
                    "a block must hold the request: the NEXT power of two at or above it (PowerOf2Ceil)")
            .mistake("no rounding", (n, right, got) -> got.equals(n),
                    "every request is rounded up to a power of two, so freed blocks can be reused by size")
            .mistake("an exact power of two doubled", (n, right, got) -> Long.bitCount(n) == 1 && got == 2 * n,
                    "a power of two is already its own block size: only round sizes that are not");

    /** 7.2: what {@code fateOf} decides for a freed block. */
    public static final Feedback<String, Fate> FATE = Feedback.<String, Fate>forStep("7.2", GRAPHS)
            .mistake("a captured block recycled", (what, right, got) -> what.startsWith("captured") && got == Fate.CACHE,
                    "a graph replays into the block's address forever: a block a capture allocated and a copy used"
                            + " is parked, never cached")
            .mistake("an unused captured block parked", (what, right, got) -> what.equals("captured, no copy used")
                    && got == Fate.PARK, "only a captured block that a stream used is parked; one no copy used is"
                            + " cached in its capture's private pool")
            .mistake("an ordinary block parked", (what, right, got) -> what.startsWith("ordinary") && got == Fate.PARK,
                    "parking is for blocks a graph capture allocated; an ordinary block a copy used is cached once"
                            + " its events retire");

    /** 7.2 and 7.4: bytes the pinned allocator owns, or frees. */
    public static final Feedback<String, Long> OWNED = Feedback.<String, Long>forStep("7.2", GRAPHS)
            .showing(Bytes::readable)
            .mistake("an oversize block cached", (what, right, got) -> what.equals("oversize") && got > right,
                    "a block above pinned_max_cached_size_mb is released at free, not cached")
            .mistake("a block of exactly the limit released", (what, right, got) -> what.equals("at the limit")
                    && got < right, "only a block ABOVE pinned_max_cached_size_mb is released; one of exactly the"
                            + " limit is cached");

    /** 7.2: cudaFreeHost calls after a free. */
    public static final Feedback<String, Long> RELEASES = Feedback.<String, Long>forStep("7.2", GRAPHS)
            .mistake("an oversize block cached", (what, right, got) -> what.equals("oversize") && got < right,
                    "a block above pinned_max_cached_size_mb is released at free (one cudaFreeHost), not cached");

    /** 7.2: is the block handed out the one freed before? */
    public static final Feedback<String, Boolean> HANDED_OUT = Feedback.<String, Boolean>forStep("7.2", GRAPHS)
            .mistake("a captured block recycled", (what, right, got) -> what.equals("parked") && got,
                    "a graph replays into the block's address forever: a block a capture allocated and a copy used"
                            + " is parked, never handed to another request")
            .mistake("an ordinary block parked", (what, right, got) -> what.equals("cached") && !got,
                    "parking is for blocks a graph capture allocated; an ordinary freed block is cached and reused");

    /** 7.3: events left, and what the lab's loop read, once the copies retired. */
    public static final Feedback<String, Object> RETIRED = Feedback.forStep("7.3", EVENTS);

    /** 7.3: is the block handed out the freed one? */
    public static final Feedback<String, Boolean> REUSE = Feedback.<String, Boolean>forStep("7.3", EVENTS)
            .mistake("reused before its copy finished", (what, right, got) -> !right && got,
                    "a freed block waits until every event recorded on it has completed: its copy may still read it")
            .mistake("never made available after its events retired", (what, right, got) -> right && !got,
                    "processEvents pops the events that completed, oldest first, and frees a block at its last one");

    /** 7.4: what {@code emptyHostCache()} frees, what the allocator owns after it, calls to cudaFreeHost. */
    public static final Feedback<String, Long> EMPTIED = Feedback.<String, Long>forStep("7.4", EMPTY)
            .mistake("a block still in use freed", (what, right, got) -> what.equals("freed") && got > right
                    || what.equals("owned") && got < right,
                    "empty_host_cache frees the blocks on the free lists only; a block in use stays")
            .mistake("the free lists kept (blocks freed twice)", (what, right, got) -> what.equals("calls") && got > right,
                    "clear the free lists once their blocks are released, so none is cudaFreeHost'd twice");

    /** 7.4: the blocks the allocator still owns after emptying its cache. */
    public static final Feedback<String, String> KEPT = Feedback.forStep("7.4", EMPTY);

    static List<Feedback<?, ?>> all() {
        return List.of(ROUND_SIZE, FATE, OWNED, RELEASES, HANDED_OUT, REUSE, RETIRED, EMPTIED, KEPT);
    }
}
