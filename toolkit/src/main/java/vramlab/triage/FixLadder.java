package vramlab.triage;

import java.util.ArrayList;
import java.util.List;

/**
 * The fix ladder: what to try about a cause, cheapest first, each rung with the condition that
 * puts it first. Fragmentation's ladder is stated here once ({@link #FRAGMENTATION_FIXES}); the
 * other causes' ladders are their {@link Cause#fixes()}. Which cause a message shows is the
 * triage ladder's question ({@link Ladder}), not this class's.
 */
public final class FixLadder {
    private FixLadder() {}

    /**
     * One rung of a fix ladder: its short name, the condition under which it comes first, and
     * the fix in full. The fragmentation ladder below is the kit's one statement of that ladder:
     * {@link Cause#FRAGMENTATION}'s fixes, chapter 4's and chapter 5's notes and their decks all
     * print it from here ({@code OneStoryTest} in the site fails on a second, different order).
     * {@code sets}: the allocator setting the rung changes ({@link Fix.Sets}).
     */
    public record Rung(String name, String firstWhen, String fix, String why, Fix.Sets sets) {
        /** A rung that changes no allocator setting. */
        public Rung(String name, String firstWhen, String fix, String why) {
            this(name, firstWhen, fix, why, Fix.Sets.NOTHING);
        }

        /** The rung as the triage prints it: the fix, then when it comes first and why. */
        public String text() { return fix + " " + why; }

        /** The rung as a fix ladder's entry: its text and the setting it changes. */
        public Fix entry() { return new Fix(text(), sets); }

        /** One line: the name and when it is the first thing to try. */
        public String line() { return name + ": " + firstWhen; }
    }

    // tag::fragmentation-fixes[]
    /**
     * Fragmentation's fixes in the order to try them, each with the condition that puts it first.
     * Steady shapes lead because the workload chapter 5 measures (holes between live blocks
     * inside one page) defeats every allocator setting; expandable segments help where the free
     * bytes are whole pages or slivers at segment ends. PyTorch unmaps an expandable segment's
     * pages only when they lie wholly inside a free block, and only in empty_cache() or the OOM
     * retry (c10/cuda/CUDACachingAllocator.cpp: ExpandableSegment::unmap, release_cached_blocks).
     */
    public static final List<Rung> FRAGMENTATION_FIXES = List.of(
            new Rung("steady shapes", "first when batch sizes or lengths change from step to step",
                    "Keep tensor shapes steady: pad or bucket variable-length batches to a few "
                            + "sizes, so each step reuses the blocks the last one freed.",
                    "First when the sizes change from step to step: the holes then lie between "
                            + "live blocks, often inside one page, where no allocator setting "
                            + "reaches them; padding costs nothing at run time."),
            new Rung("expandable_segments:True", "first when shapes are steady but grow, or cannot be padded",
                    "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PyTorch 2.1 and later; "
                            + "keep this name, which every release reads: 2.9.1 ignores the setting "
                            + "under the newer PYTORCH_ALLOC_CONF on CUDA, pytorch/pytorch#183387, "
                            + "which CUDA reads from 2.10, PR #165135): segments grow page by "
                            + "page, and at empty_cache() or the OOM retry PyTorch unmaps every page "
                            + "that lies wholly inside a free block and maps it again where a request "
                            + "needs it.",
                    "First when the shapes are steady but grow (the batch of N + 1) or cannot be "
                            + "padded: the free bytes are then slivers at the ends of fixed segments "
                            + "or whole free pages. A hole smaller than a page stays a hole.",
                    Fix.Sets.EXPANDABLE_SEGMENTS),
            new Rung("max_split_size_mb", "first when the release has no expandable segments (before 2.1)",
                    "Set max_split_size_mb so large cached blocks are not split for small requests.",
                    "First on a release without expandable segments (before 2.1).",
                    Fix.Sets.MAX_SPLIT_SIZE_MB),
            new Rung("smaller batch", "first when the live tensors plus the request exceed the card (or its memory fraction)",
                    "Lower the batch size.",
                    "It costs throughput, so it comes after the free rungs, unless the live "
                            + "tensors plus the request exceed the card (or what its memory fraction "
                            + "allows): then no arrangement of the cache fits them."),
            new Rung("restart", "last, always: it only resets the cache",
                    "Restart the process: it only resets the cache.",
                    "Last. empty_cache() is on no rung: a segment with a hole also holds a live "
                            + "block, and only wholly free segments (or whole free pages) go back."));
    // end::fragmentation-fixes[]

    /** The rung a message's figures can move to the front ({@link #fragmentationFixes}). */
    private static final Rung SMALLER_BATCH = rung("smaller batch");

    private static Rung rung(String name) {
        for (Rung r : FRAGMENTATION_FIXES) if (r.name().equals(name)) return r;
        throw new IllegalStateException("no rung " + name);
    }

    /**
     * Fragmentation's ladder for one message: {@link #FRAGMENTATION_FIXES}, except that the
     * smaller batch comes first where the message's own figures put the live tensors plus the
     * request past the card, or past the cap its memory fraction prints ({@link Account#cardR}):
     * no arrangement of the cache, and so no allocator setting, fits them then. The figures are
     * rounded ({@link Rounded}): the order follows them as printed, and where the rounding alone
     * could flip it the rung says so, a lead, not a finding (as the fragmentation rung does).
     */
    static List<Fix> fragmentationFixes(Reading r) {
        List<Fix> ladder = entries(FRAGMENTATION_FIXES);
        return smallerBatchFirst(r, ladder, FRAGMENTATION_FIXES.indexOf(SMALLER_BATCH), SMALLER_BATCH.fix(),
                SMALLER_BATCH.why() + " ", "no arrangement of the cache, and no allocator setting, makes room for the request");
    }

    /**
     * The full card's ladder for one message ({@link Cause#FULL_OR_DRIVER_RESERVE}'s fixes), by the
     * same rule as {@link #fragmentationFixes}: its smaller batch (rung 2) comes first where the
     * live tensors plus the request pass the card or its cap, since the budget rung before it then
     * explains nothing the tensors do not: they alone, with the request, exceed the total as printed
     * (cudaMemGetInfo's, already net of the driver's reserve).
     *
     * <p>cuDNN's ladder ({@link Cause#CUDNN_WORKSPACE}) keeps its order whatever the figures: there the
     * failing request may be the chosen algorithm's workspace itself, which its first rung
     * ({@code cudnn.benchmark = False}, an algorithm with a smaller workspace) shrinks, so live tensors
     * plus the request past the card do not show that the cheaper rungs cannot help, and the message
     * does not say whether the request was a workspace.
     */
    static List<Fix> fullCardFixes(Reading r) {
        List<Fix> ladder = Cause.FULL_OR_DRIVER_RESERVE.fixEntries();
        return smallerBatchFirst(r, ladder, FULL_CARD_BATCH, ladder.get(FULL_CARD_BATCH).text(), "",
                "the tensors themselves must shrink: budgeting for the driver's reserve and the context frees nothing");
    }

    /** Where the full card's ladder lowers the batch ("Lower the batch size, or keep it and accumulate ..."). */
    private static final int FULL_CARD_BATCH = 1;

    /**
     * {@code ladder} with its smaller-batch rung (at {@code at}, the words {@code fix}) first where the
     * message's figures put the live tensors plus the request past the card or its cap; in place
     * elsewhere, where {@code why} (empty, or a sentence and a space) says why it comes later, and
     * where the rounding alone could flip that, the rung says so. {@code so}: what follows where the
     * figures surely pass the card, in the ladder's own terms.
     */
    private static List<Fix> smallerBatchFirst(Reading r, List<Fix> ladder, int at, String fix, String why, String so) {
        Account a = Account.of(r);
        Rounded room = a.roomPastLiveR();
        Boolean fits = room == null ? Boolean.TRUE : room.atLeast(0);
        if (fits == Boolean.TRUE) return ladder;
        boolean first = room.value() < 0;
        String figures = (r.family() == Family.SNAPSHOT ? "the snapshot's " : "the message's ") + a.liveR().text() + " of live tensors plus the "
                + a.requestedR.text() + " asked make " + a.liveR().plus(a.requestedR).text();
        String text = fits == Boolean.FALSE
                ? "First here: " + figures + ", more than " + a.cardText() + ", so " + so + "."
                : first
                ? "First here: " + figures + ", more than " + a.cardText() + " as printed; within the "
                        + "rounding of the message's figures they may fit or not: a lead, not a finding."
                : why + "Here " + figures + ", within the rounding of " + a.cardText()
                        + ": whether they exceed it, which would put this rung first, is a lead, not a finding.";
        List<Fix> out = new ArrayList<>(ladder);
        Fix batch = new Fix(fix + " " + text, out.remove(at).sets());
        out.add(first ? 0 : at, batch);
        return List.copyOf(out);
    }

    /** {@code rungs} as the triage prints them, cheapest first. */
    public static List<String> texts(List<Rung> rungs) {
        List<String> out = new ArrayList<>();
        for (Rung r : rungs) out.add(r.text());
        return List.copyOf(out);
    }

    /** {@code rungs} as fix ladder entries (text and setting), cheapest first. */
    public static List<Fix> entries(List<Rung> rungs) {
        List<Fix> out = new ArrayList<>();
        for (Rung r : rungs) out.add(r.entry());
        return List.copyOf(out);
    }

    /** The fragmentation ladder as numbered lines (name and condition), for decks and notes. */
    public static String fragmentationLadder() {
        StringBuilder sb = new StringBuilder();
        int i = 1;
        for (Rung r : FRAGMENTATION_FIXES) sb.append(i++).append(". ").append(r.line()).append('\n');
        return sb.toString();
    }
}
