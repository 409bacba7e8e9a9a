package vramlab.ch05;

import java.util.List;

import vramlab.alloc.ExpandableSegment.Range;
import vramlab.quiz.feedback.Feedback;
import vramlab.units.Bytes;

/** What chapter 5's graded tests say to a wrong answer (see {@link Feedback}). */
public final class Ch05Feedback {
    private Ch05Feedback() {}

    static final String MAP = "ch05 \"One reservation per (pool, stream), pages on demand\"";
    static final String GROW = "ch05 \"Growing: map pages on demand\"";
    static final String SHRINK = "ch05 \"Shrinking: empty_cache unmaps pages\"";

    /** The range a {@code map(offset, size)} or {@code unmap(offset, size)} was asked for. */
    public record Asked(long offset, long size) {
        long end() { return offset + size; }
    }

    static long end(Range r) { return r.offset() + r.size(); }

    /** 5.1: the range {@code map()} mapped. */
    public static final Feedback<Asked, Range> MAP_RANGE = Feedback.<Asked, Range>forStep("5.1", MAP)
            .mistake("the range mapped as asked, not in whole pages", (a, right, got) -> got.offset() == a.offset()
                    && got.size() == a.size(), "map whole pages: round the start down and the end up to the page size")
            .mistake("the end rounded down", (a, right, got) -> got.offset() == right.offset() && end(got) < end(right),
                    "a page the range only touches is mapped too: round the END up to a page boundary")
            .mistake("the start rounded up", (a, right, got) -> got.offset() > right.offset(),
                    "the page the range starts in is mapped: round the START down to a page boundary");

    /** 5.1 and 5.2: bytes the driver holds after a call. */
    public static final Feedback<String, Long> MAP_BYTES = Feedback.<String, Long>forStep("5.1", MAP)
            .showing(Bytes::readable)
            .mistake("the pages kept when the driver ran out", (what, right, got) -> what.equals("after OOM") && got > right,
                    "map is all or nothing: when a cuMemCreate fails, unmap the pages this call mapped and map nothing");

    /** 5.2: a figure of the allocator after a block outgrew its page. */
    public static final Feedback<String, Long> GROWTH = Feedback.<String, Long>forStep("5.2", GROW)
            .showing(Bytes::readable)
            .mistake("the new page not merged with the free tail before it", (what, right, got) -> what.equals("offset")
                    && got > right, "a freshly mapped block merges with its free neighbour (mergeWithNeighbours), so"
                            + " the block starts in the free tail of the page before")
            .mistake("more pages mapped than the block needs", (what, right, got) -> what.equals("reserved") && got > right,
                    "map only the pages the block's range covers: map(offset, size) of the block, not a fresh segment");

    /** 5.3: the range {@code unmap()} released. */
    public static final Feedback<Asked, Range> UNMAP_RANGE = Feedback.<Asked, Range>forStep("5.3", SHRINK)
            .mistake("pages only partly inside the range unmapped", (a, right, got) -> got.offset() < a.offset()
                    || end(got) > a.end(), "unmap only pages WHOLLY inside: round the start up and the end down")
            .mistake("nothing unmapped", (a, right, got) -> got.size() == 0 && right.size() > 0,
                    "every page lying wholly inside the range goes back to the driver");

    /** 5.3: the bytes {@code emptyCache()} released from an expandable segment. */
    public static final Feedback<String, Long> RELEASED = Feedback.<String, Long>forStep("5.3", SHRINK)
            .showing(Bytes::readable)
            .mistake("a page under a live block released", (what, right, got) -> got > right,
                    "a page that holds any live byte stays mapped; only whole free pages are unmapped");

    /** 5.1: which pages are mapped after a call ({@code #} mapped, {@code _} not, page 0 first). */
    public static final Feedback<String, String> PAGES_MAPPED = Feedback.<String, String>forStep("5.1", MAP)
            .mistake("the pages kept when the driver ran out", (what, right, got) -> what.equals("after OOM")
                    && got.chars().filter(c -> c == '#').count() > right.chars().filter(c -> c == '#').count(),
                    "map is all or nothing: when a cuMemCreate fails, unmap the pages this call mapped and map nothing");

    /** 5.1: what a call that the driver refused did (an error other than out-of-memory propagates). */
    public static final Feedback<String, String> DRIVER_ERROR = Feedback.forStep("5.1", MAP);

    /** 5.2: a fact of the allocator after a block outgrew its page (a count, a flag, what a call did). */
    public static final Feedback<String, String> GROWTH_STATE = Feedback.forStep("5.2", GROW);

    /** 5.3: which pages stay mapped after an unmap ({@code #} mapped, {@code _} not, page 0 first). */
    public static final Feedback<String, String> PAGES_KEPT = Feedback.<String, String>forStep("5.3", SHRINK)
            .mistake("pages only partly inside the range unmapped", (what, right, got) ->
                    got.chars().filter(c -> c == '#').count() < right.chars().filter(c -> c == '#').count(),
                    "unmap only pages WHOLLY inside: round the start up and the end down");

    /** 5.3: bytes mapped or reserved after an unmap or empty_cache. */
    public static final Feedback<String, Long> SHRUNK = Feedback.<String, Long>forStep("5.3", SHRINK)
            .showing(Bytes::readable)
            .mistake("pages only partly inside the range unmapped", (what, right, got) -> what.equals("after unmap")
                    && got < right, "unmap only pages WHOLLY inside: round the start up and the end down")
            .mistake("a page under a live block released", (what, right, got) -> what.equals("after empty_cache")
                    && got < right, "a page that holds any live byte stays mapped; only whole free pages are unmapped");

    static List<Feedback<?, ?>> all() {
        return List.of(MAP_RANGE, MAP_BYTES, GROWTH, UNMAP_RANGE, RELEASED, PAGES_MAPPED, DRIVER_ERROR, GROWTH_STATE,
                PAGES_KEPT, SHRUNK);
    }
}
