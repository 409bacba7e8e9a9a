package vramlab.ch03;

import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.alignUp;

import java.util.List;

import vramlab.alloc.PoolKind;
import vramlab.quiz.feedback.Feedback;
import vramlab.units.Bytes;

/**
 * What chapter 3's graded tests say to a wrong answer: for each step, the wrong answers
 * students give, recognised from what the call returned, with the rule each breaks (see
 * {@link Feedback}). {@code Ch03FeedbackTest} feeds each one its wrong answer.
 */
public final class Ch03Feedback {
    private Ch03Feedback() {}

    static final String RULE1 = "ch03 \"Rule 1: the rounding ladder\"";
    static final String RULE3 = "ch03 \"Rule 3: best fit from the pool's free set\"";
    static final String RULE4 = "ch03 \"Rule 4: split only into a legal remainder\"";
    static final String RULE5 = "ch03 \"Rule 5: merge with free neighbours\"";
    static final String EMPTY = "ch03 \"empty_cache releases whole free segments only\"";

    static final long SMALL_SIZE = MiB;
    static final long MIN_BLOCK = 512;
    static final long LARGE_STEP = 2 * MiB;

    /** 3.1: {@code roundSize(request)}; input and answer are byte counts. */
    public static final Feedback<Long, Long> ROUND = Feedback.<Long, Long>forStep("3.1", RULE1)
            .showing(Bytes::readable)
            .mistake("rounding down", (n, right, got) -> got < n,
                    "a block must hold the whole request: round up to the next step, never down")
            .mistake("no rounding at all", (n, right, got) -> got.equals(n),
                    "every request rounds up to a step of the ladder: 512 B up to 1 MiB, 2 MiB above")
            .mistake("the pool boundary off by one (1 MiB counted as large)",
                    (n, right, got) -> n == SMALL_SIZE && got == LARGE_STEP,
                    "the small ladder ends at 1 MiB inclusive: a 1 MiB request is small and stays 1 MiB")
            .mistake("2 MiB steps below 1 MiB", (n, right, got) -> n <= SMALL_SIZE && got % LARGE_STEP == 0,
                    "up to 1 MiB the steps are 512 B; 2 MiB steps start above 1 MiB")
            .mistake("512 B steps above 1 MiB", (n, right, got) -> n > SMALL_SIZE && got == alignUp(n, MIN_BLOCK),
                    "above 1 MiB the ladder steps by 2 MiB: 1 MiB + 1 B costs 2 MiB");

    /** What {@code shouldSplit} was asked: a block of {@code block} bytes serving {@code rounded}. */
    public record Split(PoolKind pool, long block, long rounded) {
        long remainder() { return block - rounded; }

        long minimum(PoolKind p) { return p == PoolKind.SMALL ? MIN_BLOCK : LARGE_STEP; }

        /**
         * The call and the remainder it leaves, named too: a block of {@code 2 MiB} serving
         * {@code 2 MiB - 512 B} leaves 512 B ({@code Bytes.readable} writes a size near a whole
         * unit exactly; it once wrote {@code 2096640 B (2.00 MiB)}, which hid them).
         */
        @Override public String toString() {
            return "shouldSplit(" + pool + ", " + Bytes.readable(block) + ", " + Bytes.readable(rounded) + ")"
                    + " with a remainder of " + Bytes.readable(remainder());
        }
    }

    /** 3.3: {@code shouldSplit(pool, block, rounded)}. */
    public static final Feedback<Split, Boolean> SPLIT = Feedback.<Split, Boolean>forStep("3.3", RULE4)
            .mistake("a remainder of exactly the minimum refused (> where >= belongs)",
                    (s, right, got) -> right && s.remainder() == s.minimum(s.pool()),
                    "a remainder may be exactly the pool's smallest block: 512 B small, 2 MiB large")
            .mistake("the other pool's minimum", (s, right, got) -> got == (s.remainder() >= s.minimum(
                    s.pool() == PoolKind.SMALL ? PoolKind.LARGE : PoolKind.SMALL)),
                    "the small pool splits off remainders of 512 B or more, the large pool of 2 MiB or more")
            .mistake("splitting into an illegal remainder", (s, right, got) -> got && !right,
                    "a split must leave a block the pool could hand out: never a remainder under its minimum")
            .mistake("never splitting", (s, right, got) -> !got && right,
                    "a block bigger than the request splits whenever the remainder is a legal block");

    /** What {@code findFreeBlock} was asked, and the free set it looked in. */
    public record Find(List<vramlab.alloc.Block> pool, int stream, long rounded) {
        /** Each free block with its stream: the hint "another stream's block" must be checkable from the listing. */
        @Override public String toString() {
            return "findFreeBlock(" + listing() + ", stream " + stream + ", " + Bytes.readable(rounded) + ")";
        }

        /** The free set, each block with its stream. */
        public String listing() { return pool.stream().map(b -> b + " stream " + b.stream()).toList().toString(); }
    }

    /** 3.2: {@code findFreeBlock(pool, stream, rounded)}; the answer is a block, or null. */
    public static final Feedback<Find, vramlab.alloc.Block> FIND = Feedback.<Find, vramlab.alloc.Block>forStep("3.2", RULE3)
            .showing(b -> b == null ? "null (no block)" : b + " at 0x" + Long.toHexString(b.address()))
            .mistake("a block too small for the request", (f, right, got) -> got != null && got.size() < f.rounded(),
                    "the block must hold the rounded request: the smallest free block of AT LEAST that size")
            .mistake("another stream's block", (f, right, got) -> got != null && got.stream() != f.stream(),
                    "blocks are cached per stream: a block freed on one stream is not taken for another")
            .mistake("first fit, not best fit", (f, right, got) -> got != null && right != null && got.size() > right.size(),
                    "take the SMALLEST free block that fits (the free set is ordered by stream, size, address)")
            .mistake("the higher address among equal sizes", (f, right, got) -> got != null && right != null
                    && got.size() == right.size() && got.address() > right.address(),
                    "among free blocks of one size the lowest address wins")
            .mistake("no block found although one fits", (f, right, got) -> got == null && right != null,
                    "any free block of at least the rounded size fits, not only one of exactly that size");

    /** A merge: the block being freed ({@code seg0 8M+2M}: segment, offset, size) and its segment's size. */
    public record Merge(String before, long segmentSize) {
        @Override public String toString() { return before; }
    }

    /** 3.4: what a freed block merged into, as {@code seg0 2M+12M} (its segment, offset and size). */
    public static final Feedback<Merge, String> MERGE = Feedback.<Merge, String>forStep("3.4", RULE5)
            .mistake("merged across segments", (m, right, got) -> !segmentOf(got).equals(segmentOf(right))
                    || offsetOf(got) + sizeOf(got) > m.segmentSize(),
                    "blocks merge only with their neighbours in the same segment (prev and next): "
                            + "two segments are two cudaMalloc calls and never become one block")
            .mistake("merged with one side only", (m, right, got) -> sizeOf(got) < sizeOf(right)
                    && sizeOf(got) > sizeOf(m.before()), "merge with the free neighbour on the left AND on the right")
            .mistake("not merged at all", (m, right, got) -> sizeOf(got) == sizeOf(m.before()),
                    "a freed block absorbs each free neighbour, so no two free blocks are ever adjacent")
            .mistake("merged across a live block", (m, right, got) -> sizeOf(got) > sizeOf(right),
                    "only FREE neighbours merge; a live block is a wall");

    /** 3.4 on the simulator: a segment's blocks after frees, as {@code Segment.toString()} prints them. */
    public static final Feedback<String, String> MERGE_MAP = Feedback.<String, String>forStep("3.4", RULE5)
            .mistake("two free blocks left side by side (a free did not merge)",
                    (what, right, got) -> got.matches(".*FREE seg\\S+ \\S+ FREE.*"),
                    "a freed block absorbs each free neighbour, so no two free blocks are ever adjacent")
            .mistake("merged across a live block", (what, right, got) -> count(got, "LIVE") < count(right, "LIVE"),
                    "only FREE neighbours merge; a live block is a wall");

    /** 3.3 on the simulator: the segment after the first allocation. */
    public static final Feedback<String, String> SPLIT_MAP = Feedback.<String, String>forStep("3.3", RULE4)
            .mistake("the block not split (the whole segment handed out)",
                    (what, right, got) -> count(got, "seg") == 1 && got.endsWith("LIVE"),
                    "a 20 MiB segment serving 4 MiB splits: the 16 MiB remainder is a legal large block");

    /** 3.2 on the simulator: where an allocation landed. */
    public static final Feedback<String, String> FIND_MAP = Feedback.<String, String>forStep("3.2", RULE3)
            .mistake("a small request served from the large pool", (what, right, got) -> right.endsWith("SMALL")
                    && got.endsWith("LARGE"), "pools never mix: a request of 1 MiB or less takes a block of the small"
                    + " pool, or a new 2 MiB small segment, never a large-pool block")
            .mistake("a new segment although a cached block fits",
                    (what, right, got) -> segmentOf(got).compareTo(segmentOf(right)) > 0,
                    "the pool's free set is searched first: a cudaMalloc happens only when no cached block fits")
            .mistake("first fit, not best fit", (what, right, got) -> segmentOf(got).equals(segmentOf(right)),
                    "take the SMALLEST free block that fits, the lowest address among equal sizes");

    static int count(String s, String word) { return s.split(word, -1).length - 1; }

    /** 3.4: the free set after the merge, which must no longer hold the absorbed neighbours. */
    public static final Feedback<Merge, Integer> MERGED_AWAY = Feedback.<Merge, Integer>forStep("3.4", RULE5)
            .showing(n -> n + " blocks in the free set")
            .mistake("absorbed neighbours left in the free set", (m, right, got) -> got > right,
                    "remove each neighbour from the pool before absorbing it: a block that is both absorbed"
                            + " and still free would be handed out, or freed, twice");

    /** What {@code emptyCache} ran on. */
    public record Empty(long liveSegmentFree, long wholeFree) {}

    /** 3.5: the bytes {@code emptyCache()} released. */
    public static final Feedback<Empty, Long> EMPTY_CACHE = Feedback.<Empty, Long>forStep("3.5", EMPTY)
            .showing(Bytes::readable)
            .mistake("a segment with a live block released", (e, right, got) -> got > right + e.liveSegmentFree(),
                    "cudaFree returns whole segments: one that still holds a live block stays reserved")
            .mistake("free blocks released from a live segment", (e, right, got) -> got == right + e.liveSegmentFree(),
                    "only entirely free segments go back; a free block inside a live segment stays cached")
            .mistake("nothing released", (e, right, got) -> got == 0 && right > 0,
                    "every segment whose blocks are all free is released, and its bytes counted");

    /** 3.5: a second {@code emptyCache()} right after the first. */
    public static final Feedback<Empty, Long> EMPTY_AGAIN = Feedback.<Empty, Long>forStep("3.5", EMPTY)
            .showing(Bytes::readable)
            .mistake("a segment released twice", (e, right, got) -> got > 0,
                    "a released segment must leave the allocator (releaseBlock): the next call finds nothing");

    /** {@code seg1} of {@code seg1[0..4)M 4M LIVE} or of {@code seg1 0M+4M}. */
    static String segmentOf(String s) { return s.replaceAll("^(seg\\d+).*$", "$1"); }

    static long sizeOf(String s) { return mebibytes(s.substring(s.lastIndexOf('+') + 1)); }

    static long offsetOf(String s) { return mebibytes(s.substring(s.indexOf(' ') + 1, s.lastIndexOf('+'))); }

    private static long mebibytes(String m) { return Long.parseLong(m.replace("M", "")) * MiB; }

    /** Every feedback of the chapter, for the contract test. */
    static List<Feedback<?, ?>> all() {
        return List.of(ROUND, FIND, FIND_MAP, SPLIT, SPLIT_MAP, MERGE, MERGE_MAP, MERGED_AWAY, EMPTY_CACHE, EMPTY_AGAIN);
    }
}
