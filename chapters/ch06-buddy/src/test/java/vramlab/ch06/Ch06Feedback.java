package vramlab.ch06;

import java.util.List;

import vramlab.quiz.feedback.Feedback;

/** What chapter 6's graded tests say to a wrong answer (see {@link Feedback}). */
public final class Ch06Feedback {
    private Ch06Feedback() {}

    static final String ORDER = "ch06 \"Rule 1: round up to a power of two\"";
    static final String BUDDY = "ch06 \"Rule 3: the buddy is one XOR away\"";
    static final String SPLIT = "ch06 \"Rule 2: split, keep the lower half\"";
    static final String MERGE = "ch06 \"Rule 4: merge while the buddy is free\"";
    static final String INFO = "ch06 \"Monitoring: free blocks per order\"";
    static final String BLOCKS = "ch06 \"Rule 5: blocks are ceil(tokens / 16)\"";
    static final String ALL_OR_NONE = "ch06 \"Rule 6: all blocks or none\"";
    static final String REVERSE = "ch06 \"Rule 7: free in reverse order\"";

    static final int MIN_ORDER = 20;

    /** 6.1: {@code orderFor(size)} on a pool of 1 MiB (order 20) minimum blocks. */
    public static final Feedback<Long, Integer> ORDER_FOR = Feedback.<Long, Integer>forStep("6.1", ORDER)
            .mistake("below the minimum block", (size, right, got) -> got < MIN_ORDER,
                    "no block is smaller than the pool's minimum order; above it, the order of the smallest power of two that holds the size")
            .mistake("rounding down (floor of log2)", (size, right, got) -> got == right - 1,
                    "a block must hold the whole size: round UP to the next power of two, never down")
            .mistake("an exact power of two doubled", (size, right, got) -> got == right + 1 && Long.bitCount(size) == 1,
                    "a size that is already a power of two fits a block of exactly that size: its own order, not the next");

    /** What {@code buddyOf} was asked. */
    public record Buddy(long offset, int order) {
        @Override public String toString() { return "buddyOf(" + offset + ", " + order + ")"; }
    }

    /** 6.2: {@code buddyOf(offset, order)}. */
    public static final Feedback<Buddy, Long> BUDDY_OF = Feedback.<Buddy, Long>forStep("6.2", BUDDY)
            .mistake("the block's size added (the buddy is not always above)",
                    (b, right, got) -> got == b.offset() + (1L << b.order()),
                    "a lower buddy's partner is above it and an upper one's below: the two offsets differ only in the bit that the block's size sets")
            .mistake("the block's size subtracted", (b, right, got) -> got == b.offset() - (1L << b.order()),
                    "a buddy may be above or below: the two offsets differ only in the bit that the block's size sets")
            .mistake("the bit of the wrong order", (b, right, got) -> got == (b.offset() ^ (1L << (b.order() + 1)))
                    || got == (b.offset() ^ (1L << (b.order() - 1))),
                    "two buddies of order k differ in exactly one bit, the one worth the block's own size (2 to the k), not its parent's or its half's");

    /** 6.3 and 6.4: the pool's map ({@code [A 1][F 1][F 2]...}) after the calls named. */
    public static final Feedback<String, String> SPLIT_MAP = Feedback.<String, String>forStep("6.3", SPLIT)
            .mistake("the upper half kept", (what, right, got) -> right.startsWith("[A") && !got.startsWith("[A")
                    && got.contains("[A"), "split a block in two, give the UPPER half back and keep the lower one")
            .mistake("the block not split", (what, right, got) -> got.startsWith("[A 16]"),
                    "split down order by order until the block is the smallest that fits the request");

    /** 6.4: the map after freeing the block named ({@code x}, {@code y}, {@code z}). */
    public static final Feedback<String, String> MERGE_MAP = Feedback.<String, String>forStep("6.4", MERGE)
            .mistake("merged with a buddy that is still live", (freed, right, got) -> count(got, "[A") < count(right, "[A"),
                    "merge only while the buddy is FREE (in the free area of this order)")
            .mistake("stopped after one merge", (freed, right, got) -> freed.equals("z") && merged(got),
                    "keep merging: the merged block has a buddy of the next order, which may be free too")
            .mistake("not merged at all", (freed, right, got) -> freed.equals("y") && merged(got),
                    "a freed block merges with its free buddy, order by order");

    /** 6.5: the {@code /proc/buddyinfo} line. */
    public static final Feedback<String, String> BUDDYINFO = Feedback.<String, String>forStep("6.5", INFO)
            .mistake("the orders printed largest first", (what, right, got) -> counts(got).equals(reversed(counts(right))),
                    "buddyinfo lists nr_free from order 0 (the smallest block) upward")
            .mistake("the line without its newline", (what, right, got) -> (got + "\n").equals(right),
                    "each buddyinfo line ends with a newline, as /proc/buddyinfo's do")
            .mistake("the numbers right, the layout not", (what, right, got) -> counts(got).equals(counts(right)),
                    "use /proc/buddyinfo's layout: the node and the zone name padded to a fixed width, then each order's count right-aligned in a fixed-width column (compare the spacing of expected and actual)");

    /** 6.6: {@code blocksNeeded(tokens)} with 16-token blocks. */
    public static final Feedback<Long, Integer> BLOCKS_NEEDED = Feedback.<Long, Integer>forStep("6.6", BLOCKS)
            .mistake("rounding down (n / 16)", (n, right, got) -> got == n / 16 && got < right,
                    "a block holds up to 16 tokens, so 17 tokens take two: round the division UP")
            .mistake("zero tokens given a block", (n, right, got) -> n == 0 && got > 0,
                    "no tokens, no blocks")
            .mistake("a block too many for a multiple of 16", (n, right, got) -> got == right + 1,
                    "16 tokens fill one block exactly: round up only a partial block, never a full one");

    /** 6.7 and 6.8: a request's block table, or the free queue, after the calls named. */
    public static final Feedback<String, List<Integer>> TABLES = Feedback.<String, List<Integer>>forStep("6.7", ALL_OR_NONE)
            .mistake("blocks taken before refusing (not all or nothing)", (what, right, got) -> what.equals("refused")
                    && !got.isEmpty(), "count the free blocks first: take all a request needs, or none")
            .mistake("the new tokens counted alone", (what, right, got) -> what.equals("grown") && got.size() > right.size(),
                    "a request's blocks cover ALL its tokens: blocksNeeded(old + new) - blocks it already holds");

    /** 6.7: did {@code allocateSlots} admit the request? */
    public static final Feedback<String, Boolean> ADMITTED = Feedback.<String, Boolean>forStep("6.7", ALL_OR_NONE)
            .mistake("a request admitted without enough free blocks", (what, right, got) -> what.equals("too big")
                    && got, "count the free blocks first: take all a request needs, or none (and answer false)")
            .mistake("a request refused though its blocks are free", (what, right, got) -> what.equals("fits") && !got,
                    "a request whose blocks (its tokens in all, 16 a block, less those it holds) are free is admitted");

    public static final Feedback<String, List<Integer>> FREE_QUEUE = Feedback.<String, List<Integer>>forStep("6.8", REVERSE)
            .mistake("freed in allocation order", (what, right, got) -> got.equals(headReversed(right, what)),
                    "free a request's blocks last block first: blocks without a hash go to the front of the"
                            + " free queue in the order they are freed, so its last block is the first to be reused");

    public static final Feedback<String, String> DOUBLE_FREE = Feedback.<String, String>forStep("6.8", REVERSE)
            .mistake("a request freed twice", (what, right, got) -> got.equals("returned normally"),
                    "free removes the request's table, so a second free is an error; otherwise its blocks would"
                            + " be in the free queue twice");

    static int count(String s, String what) { return s.split(java.util.regex.Pattern.quote(what), -1).length - 1; }

    /** Two neighbouring free blocks of one size: a merge that stopped early. */
    static boolean merged(String map) {
        var m = java.util.regex.Pattern.compile("\\[F (\\d+)\\]\\[F \\1\\]").matcher(map);
        return m.find();
    }

    /** The numbers after {@code Normal}. */
    static List<String> counts(String line) {
        String t = line.strip();
        int at = t.indexOf("Normal");
        return at < 0 ? List.of(t) : List.of(t.substring(at + "Normal".length()).strip().split("\\s+"));
    }

    static <T> List<T> reversed(List<T> l) {
        List<T> r = new java.util.ArrayList<>(l);
        java.util.Collections.reverse(r);
        return r;
    }

    /** The queue with the freed blocks (the last {@code n}, where {@code what} is n) in allocation order. */
    /** The right queue with its first {@code what} blocks (the ones just freed) in the other order. */
    static List<Integer> headReversed(List<Integer> right, String what) {
        int n = what.matches("\\d+") ? Integer.parseInt(what) : 0;
        List<Integer> out = new java.util.ArrayList<>(reversed(right.subList(0, n)));
        out.addAll(right.subList(n, right.size()));
        return out;
    }

    static List<Feedback<?, ?>> all() {
        return List.of(ORDER_FOR, BUDDY_OF, SPLIT_MAP, MERGE_MAP, BUDDYINFO, BLOCKS_NEEDED, TABLES, ADMITTED, FREE_QUEUE,
                DOUBLE_FREE);
    }
}
