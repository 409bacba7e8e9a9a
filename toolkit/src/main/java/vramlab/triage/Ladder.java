package vramlab.triage;

import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.List;

/**
 * The triage ladder (the 3 a.m. ladder): for one reading of a message, which cause it is, as
 * arithmetic on the card. What to do about a cause is not here but on its fix ladder
 * ({@link Cause#fixes()}, fragmentation's in {@link FixLadder}).
 *
 * <p>The shortfall is what the request lacked
 * (requested minus free). Each step measures how much of it one cause explains: the bytes a
 * fix of that cause would give back, as a share of the shortfall, with the sentence that shows
 * the figures. The cause named is the one whose removal alone would have made the request fit
 * and that gives back the most; causes within a factor of two of each other count as a tie,
 * and the ladder's order (fragmentation, other processes, NCCL, graph pools, cuDNN, a full
 * card) breaks it. Words that say what failed (NCCL's own allocation, a CUDA-graph capture,
 * cuDNN finding no algorithm) name their subsystem outright.
 *
 * <p>Free memory within {@link #NEAR_FULL_MARGIN} of the request counts as none: the shortfall is
 * then the whole request, and no rung counts those free bytes towards a fit, so every cause that
 * is "enough alone" covers the shortfall by itself (the live tensors included: a smaller workload
 * is enough alone only where freeing them would have made room). Where the card itself was not
 * short (a memory fraction spent, more free than asked, free memory barely above the request) the
 * cause stays {@link Cause#FULL_OR_DRIVER_RESERVE} and a {@link Finding} says what the figures show;
 * so it does where the card was short but the memory fraction's cap refused the request before the
 * card was asked ({@link FractionCap}), and the rungs whose bytes the cap does not count weigh that.
 *
 * <p>Every threshold below is this kit's rule of thumb, not PyTorch's; so are the context and
 * driver-reserve estimates in {@link ContextReserve}. The sentences print the figures used.
 */
public final class Ladder {
    /** This process's non-PyTorch memory that a context explains (see {@link ContextReserve}). */
    public static final long CONTEXT_ALLOWANCE = ContextReserve.NON_PYTORCH_ALLOWANCE;
    /** Unallocated bytes below this share of what PyTorch reserved are ordinary slack (kit's rule). */
    static final int FRAGMENTATION_PERCENT_OF_RESERVED = 3;
    /** A co-tenant or a private pool counts when it holds this share of the card (kit's rule). */
    static final int SIGNIFICANT_PERCENT_OF_CARD = 5;
    /** Free memory within this much of the request is no free memory (kit's rule). */
    static final long NEAR_FULL_MARGIN = 64 * MiB;

    private final Reading r;
    private final Account a;
    private final List<String> evidence = new ArrayList<>();
    private final List<Candidate> candidates = new ArrayList<>();
    private long shortfall = -1;
    /**
     * The free bytes the rungs may count on: what the message says was free, or none where that
     * is within the near-full margin of the request ({@link #NEAR_FULL_MARGIN}). Every rung
     * asks whether its bytes plus these cover the request, so a cause is never "enough alone"
     * on the strength of free memory the kit has just counted as none.
     */
    private long counted;
    private boolean nearFull;
    /** Where the near-full rule's verdict rests on the rounding, the sentence that says so ({@link NearFull#lead}). */
    private String marginLead = "";
    private Finding finding;
    private Candidate picked;
    /** A memory fraction's cap: whether it refused the request (the card short or not). */
    private FractionCap cap = new FractionCap(Boolean.FALSE, null);
    /** Whether that cap decides (nothing named by words): the ranking then measures against its excess. */
    private boolean capDecides;
    /** Whether the rung being weighed is within the rounding of the message's figures (see {@link #unsettled}). */
    private boolean rungLead;

    private Ladder(Reading r) {
        this.r = r;
        this.a = Account.of(r);
        this.counted = Math.max(0, a.free);
    }

    /** The cause for one reading, with the sentences and the ranking that led there. */
    public static Diagnosis climb(Reading r, List<String> preface) {
        Ladder l = new Ladder(r);
        l.evidence.addAll(preface);
        Cause c = l.decide();
        // Only a request no card can serve is decided before any cause is weighed: it is FULL.
        if (c != Cause.NOT_PYTORCH_OOM && l.candidates.isEmpty()) l.candidates.add(l.tensors());
        List<Candidate> ranked = Candidate.rank(l.candidates, l.picked, c);
        Cause runnerUp = ranked.size() > 1 ? ranked.get(1).cause() : null;
        String assumption = c == Cause.NOT_PYTORCH_OOM ? "" : ContextReserve.assumption(l.a.capacity);
        return new Diagnosis(c, r, l.evidence, ranked, runnerUp,
                Rocm.text(r, TellApart.of(r, c, l.finding, runnerUp)),
                l.shortfall, assumption, l.a.selfSeenAs, l.finding);
    }

    private Cause decide() {
        if (r.family() == Family.UNRECOGNIZED) {
            return say(Cause.NOT_PYTORCH_OOM, "No out-of-memory message was recognized in the paste.");
        }
        if (r.family() == Family.LOOK_ALIKE) {
            return say(Cause.NOT_PYTORCH_OOM, "This is an out-of-memory error from " + r.backend()
                    + ", not from PyTorch's CUDA caching allocator; the ladder does not apply.");
        }
        // ROCm's message is the same allocator's, hipified (see Rocm): the ladder applies.
        if (!r.backend().equals("CUDA") && !Rocm.is(r)) {
            return say(Cause.NOT_PYTORCH_OOM, "This is PyTorch's allocator on a " + r.backend()
                    + " device, not CUDA or ROCm; its figures are shown as read, without a guess.");
        }
        if (!r.missing().isEmpty()) {
            evidence.add("The message lacks " + String.join(", ", r.missing())
                    + " (cut or mangled); the ladder works with what is there.");
        }
        selfSeenThroughContainer();
        Cause c = requestBiggerThanCard();
        if (c != null) return c;
        Candidate named = namedBySubsystem();
        cap = FractionCap.of(a);
        // the cap's refusal, proven by the figures, leads even a subsystem the words name (FractionCap#aheadOf)
        capDecides = cap.binds() == Boolean.TRUE;   // then the finding is MEMORY_FRACTION, card short or not
        if (!measureShortfall()) return withinOwnLimit(named);
        // tag::ladder[]
        fragmentation();
        otherProcesses();
        nccl();
        graphPools();
        if (capDecides) return capSpent(named);
        Candidate pick = named != null ? named : Candidate.choose(candidates);
        if (pick == null) pick = byWordsAlone();
        // end::ladder[]
        candidates.add(tensors());
        if (!cap.leadSentence(a).isEmpty()) evidence.add(cap.leadSentence(a));
        if (pick == null && noFigures()) return cannotTell();
        if (pick == null) return full();
        if (pick == named) evidence.add(named.evidence());
        picked = pick;
        return say(pick.cause(), decision(pick));
    }

    // ---- what the message says before any rung --------------------------------------------

    private void selfSeenThroughContainer() {
        String who = a.whoIsSelf();
        if (who != null) evidence.add(who);
    }

    private Cause requestBiggerThanCard() {
        long tried = a.requested, cap = a.capacity;
        if (tried >= Sizes.ONE_EB) {
            return say(Cause.FULL_OR_DRIVER_RESERVE, "The request is at least 1 EiB, more than any "
                    + "GPU has: no ladder step helps; look for a wrong shape or a negative size.");
        }
        if (tried > 0 && cap > 0 && tried > cap) {
            return say(Cause.FULL_OR_DRIVER_RESERVE, "The request alone (" + formatSize(tried)
                    + ") is more than the whole card (" + formatSize(cap) + "): no ladder step "
                    + "helps; check the shape that asked for it.");
        }
        return null;
    }

    /** NCCL's own allocation, a capture under way, or cuDNN's search: the words name the cause. */
    private Candidate namedBySubsystem() {
        Candidate c = null;
        if (r.family() == Family.NCCL_ERROR) {
            c = Candidate.named(Cause.NCCL_BUFFERS, "3. NCCL: the failing allocation was NCCL's "
                    + "own (its log says Cuda failure 'out of memory' or Failed to CUDA calloc), "
                    + "made with cudaMalloc or, since NCCL 2.19, the driver's cuMem calls, outside "
                    + "PyTorch's allocator.");
        } else if (r.has(Clue.GRAPH_CAPTURE)) {
            c = Candidate.named(Cause.CUDA_GRAPH_POOLS, "4. Graph capture: the paste shows a "
                    + "CUDA-graph capture under way (a capture frame, or a \"capturing\" log line "
                    + "with none saying it finished); everything captured stays in the graph's "
                    + "private pool.");
        } else if (r.family() == Family.CUDNN_ERROR) {
            c = Candidate.named(Cause.CUDNN_WORKSPACE, "5. cuDNN: PyTorch tried every convolution "
                    + "algorithm, retrying on each OutOfMemoryError, and none could allocate its "
                    + "workspace.");
        }
        if (c != null) candidates.add(c);
        return c;
    }

    /** Sets the shortfall; false when the card's own figures show room for the request. */
    private boolean measureShortfall() {
        long tried = a.requested, free = a.free;
        if (tried < 0 || free < 0) return true;
        NearFull near = NearFull.of(a);
        long margin = near.margin();
        marginLead = near.lead();
        if (tried > free) {
            shortfall = tried - free;
            evidence.add("Shortfall: " + formatSize(tried) + " asked, " + formatSize(free)
                    + " free: " + a.shortfallText(shortfall) + " short.");
            return true;
        }
        if (free - tried <= margin) {
            // The kit's rule: free memory within the margin of the request is no free memory.
            // cudaMalloc failed with it free, so the shortfall is the whole request, and no rung
            // may count those free bytes towards making the request fit.
            shortfall = tried;
            counted = 0;
            nearFull = true;
            evidence.add("Shortfall: " + formatSize(free) + " free is barely more than the "
                    + formatSize(tried) + " asked, and the allocation still failed; free memory that "
                    + "close to the request counts as none (the kit's rule: within "
                    + formatSize(margin) + "), so the shortfall is the whole request." + marginLead);
            return true;
        }
        return false;
    }

    private Cause withinOwnLimit(Candidate named) {
        OwnLimit own = OwnLimit.of(r, a);
        String s = "6. The card itself had room: " + formatSize(a.free) + " free for "
                + formatSize(a.requested) + "; " + own.why() + "." + marginLead;
        candidates.add(tensors());
        if (named != null && !capDecides) {
            evidence.add(s);
            evidence.add(named.evidence());
            picked = named;
            return say(named.cause(), decision(named));
        }
        if (named != null) evidence.add(named.evidence());
        finding = own.fractionSpent() ? Finding.MEMORY_FRACTION : Finding.ROOM_ON_CARD;
        return say(Cause.FULL_OR_DRIVER_RESERVE, s + cap.aheadOf(named));
    }

    /** The card was short, but the memory fraction's cap refused the request first ({@link FractionCap}). */
    private Cause capSpent(Candidate named) {
        candidates.add(tensors());
        finding = Finding.MEMORY_FRACTION;
        if (named != null) evidence.add(named.evidence());
        return say(Cause.FULL_OR_DRIVER_RESERVE, cap.spentSentence(a) + cap.aheadOf(named));
    }

    // ---- the rungs: each measures one cause --------------------------------------------------

    // tag::fragmentation[]
    private void fragmentation() {
        long u = a.unallocated, tried = a.requested, free = counted;
        if (u < 0 || tried < 0 || a.reserved <= 0) {
            evidence.add("1. Fragmentation: cannot check, the message has no reserved-but-"
                    + "unallocated figure or no request.");
            return;
        }
        // The figures are rounded (Rounded): a test the rounding alone could decide is null.
        Boolean fits = a.unallocatedR.plus(countedR()).minus(a.requestedR).atLeast(0);
        long live = a.live();   // less the private pools' free blocks where printed (Account#liveR)
        // no card to weigh against: room; null: the rounding alone could put them past the card (or its cap)
        Boolean roomR = a.cardR() == null ? Boolean.TRUE : a.roomPastLiveR().atLeast(0);
        boolean roomOnCard = roomR != Boolean.FALSE;
        Boolean large = a.unallocatedR.atLeastPercent(FRAGMENTATION_PERCENT_OF_RESERVED, a.reservedR);
        String u1 = a.unallocatedR.text() + " is reserved by PyTorch but unallocated ("
                + a.unallocatedR.percentOf(a.reservedR) + " of the " + a.reservedR.text() + " it reserved)";
        String s;
        if (!roomOnCard) {
            s = "1. Fragmentation: " + u1 + ", but the " + formatSize(live) + " of live tensors "
                    + "plus the " + formatSize(tried) + " asked exceed " + a.cardText()
                    + ": no arrangement of the cache makes it fit.";
        } else if (fits == Boolean.FALSE) {
            s = "1. Fragmentation: " + u1 + "; with " + freeWords() + " that is still "
                    + "less than the " + formatSize(tried) + " asked: defragmenting would not fit it.";
        } else if (large == Boolean.FALSE) {
            s = "1. Fragmentation: " + u1 + ". Defragmenting " + (fits == null ? "might" : "would")
                    + " fit this request, but so "
                    + "little unallocated is ordinary slack (the kit's line: "
                    + FRAGMENTATION_PERCENT_OF_RESERVED + "% of reserved): the card is full of "
                    + "live tensors.";
        } else {
            s = "1. Fragmentation: " + u1 + ". PyTorch releases every wholly free segment "
                    + "before it raises, so these bytes are holes between live blocks; with "
                    + (nearFull ? freeWords() : "the " + freeWords()) + " they would cover the "
                    + formatSize(tried)
                    + " if they were one run (steady shapes close them; expandable segments "
                    + "return only the whole pages among them)." + PoolClause.of(r).fragmentationLead()
                    + unsettled(large, "the kit's line of " + FRAGMENTATION_PERCENT_OF_RESERVED
                    + "% of reserved", fits);
        }
        if (roomR == null && roomOnCard && large != Boolean.FALSE && fits != Boolean.FALSE) {
            rungLead = true;
            s += " The " + a.liveR().plus(a.requestedR).text() + " of live tensors plus the request come within the"
                    + " rounding of " + a.cardText() + ": whether any arrangement of the cache"
                    + " fits them is a lead, not a finding.";
        }
        add(Cause.FRAGMENTATION, a.unallocatedR, fits != Boolean.FALSE && roomOnCard, large != Boolean.FALSE && roomOnCard, s);
    }
    // end::fragmentation[]

    private void otherProcesses() {
        if (a.others < 0) {
            unattributed();
            return;
        }
        long others = a.others, free = counted, tried = Math.max(0, a.requested);
        if (others == 0) {
            evidence.add("2. Other processes: the message lists none"
                    + (a.selfSeenAs >= 0 ? " besides this one." : "."));
            return;
        }
        Rounded o = a.othersR;
        Boolean large = a.capacity > 0
                ? o.atLeastPercent(SIGNIFICANT_PERCENT_OF_CARD, a.capacityR) : o.atLeast(GiB);
        Boolean onCard = a.requested < 0 ? Boolean.TRUE : o.plus(countedR()).minus(a.requestedR).atLeast(0);
        Boolean fitsR = cap.outsideFits(onCard);   // a cap that binds is not lifted by other processes
        boolean fits = fitsR != Boolean.FALSE;
        String who = a.describeOthers(r);
        String s = "2. Other processes: " + who + (who.startsWith("process ") ? " holds " : " hold ")
                + o.text()
                + (a.capacity > 0 ? " (" + o.percentOf(a.capacityR) + " of the card)" : "")
                + (onCard != Boolean.FALSE ? "; without them " + o.plus(countedR()).text() + " would be "
                        + (nearFull ? "free beyond what the kit counts as none" : "free")
                        + ", enough for the " + formatSize(tried) + "." : ", too little to make the "
                        + formatSize(tried) + " fit.") + cap.outsideClause(onCard);
        if (large != Boolean.FALSE && fits) {
            s += unsettled(large, "the kit's line of " + SIGNIFICANT_PERCENT_OF_CARD
                    + "% of the card", onCard);
            rungLead |= fitsR == null;   // the cap's lead (outsideClause)
        }
        add(Cause.OTHER_PROCESSES, o, fits, large != Boolean.FALSE, s);
    }

    /** Formats without process lines: what is neither free nor PyTorch's, beyond a context. */
    private void unattributed() {
        long gap = a.unattributed();
        if (gap < 0) {
            evidence.add(r.family() == Family.SNAPSHOT
                    ? "2. Other processes: cannot check, a snapshot records neither processes nor the "
                            + "card's size (--device gives the size)."
                    : "2. Other processes: cannot check, the message lists no processes and lacks "
                            + "the figures to infer them.");
            return;
        }
        String whose = r.family() == Family.MALLOC_ASYNC
                ? " is neither free nor allocated (the async pool's cache, contexts, other processes)"
                : " of the card is neither free nor PyTorch's";
        long ceiling = ContextReserve.ceiling(a.capacity), typical = ContextReserve.typical(a.capacity);
        Rounded g = a.unattributedR();
        long beyond = Math.max(0, gap - typical);
        Boolean largeR = g.atLeast(ceiling);
        boolean large = largeR != Boolean.FALSE;
        Boolean onCard = a.requested < 0 ? Boolean.TRUE
                : g.minus(typical).plus(countedR()).minus(a.requestedR).atLeast(0);
        Boolean fitsR = cap.outsideFits(onCard);
        boolean fits = fitsR != Boolean.FALSE;
        String s = "2. Other processes: " + (gap < 0 ? formatSize(0) : g.text()) + whose + "; a context, the "
                + "libraries and a desktop take up to " + formatSize(ceiling) + " on this card"
                + (largeR == Boolean.TRUE ? ", so at least " + formatSize(g.low() - ceiling)
                        + " belongs to someone else" : large ? ", and within the rounding of the message's "
                        + "figures the gap may pass that or not" : "")
                + (large ? " (about " + g.minus(typical).text() + " beside a typical context of "
                        + formatSize(typical) + "). This format lists no processes; nvidia-smi shows who."
                        : ": nothing points at another holder.");
        RunSize run = RunSize.of(r);
        Cause who = run.shown() ? Cause.NCCL_BUFFERS : Cause.OTHER_PROCESSES;
        if (large) s += run.gapClause();
        s += cap.outsideClause(onCard);
        if (large && fits) s += unsettled(largeR, "a context's ceiling", onCard);
        rungLead |= large && fitsR == null;   // the cap's lead (outsideClause)
        add(who, g.minus(typical), fits, large, s);
    }

    private void nccl() {
        long outside = a.nonPyTorch;
        if (outside < 0) {
            RunSize run = RunSize.of(r);
            if (!(run.shown() || run.lead()) || r.family() != Family.CUDA_ERROR) {
                evidence.add("3. NCCL: cannot measure non-PyTorch memory in this process" + run.cannotMeasure());
            }
            return;
        }
        long beyond = Math.max(0, outside - ContextReserve.PROCESS_CONTEXT);
        Rounded out = a.nonPyTorchR();
        Boolean largeR = out.atLeast(ContextReserve.NON_PYTORCH_ALLOWANCE);
        boolean large = largeR != Boolean.FALSE;
        Boolean onCard = a.requested < 0 ? Boolean.TRUE
                : out.minus(ContextReserve.PROCESS_CONTEXT).plus(countedR()).minus(a.requestedR).atLeast(0);
        Boolean fitsR = cap.outsideFits(onCard);   // non-PyTorch memory does not count against the cap
        boolean fits = fitsR != Boolean.FALSE;
        // Only a distributed run puts the gap on NCCL; otherwise it names every candidate.
        RunSize run = RunSize.of(r);
        boolean distributed = run.shown();
        String s = (distributed ? "3. NCCL" : "3. Outside PyTorch") + ": this process holds "
                + formatSize(a.self) + ", PyTorch reserved "
                + a.reservedR.text() + ": " + (outside < 0 ? formatSize(0) : out.text())
                + " is non-PyTorch memory" + (large ? ", more than a context (the kit's line: "
                + formatSize(ContextReserve.NON_PYTORCH_ALLOWANCE) + ")" + run.outsideClause()
                : ", about a context's worth.");
        Cause c = distributed ? Cause.NCCL_BUFFERS : Cause.OUTSIDE_ALLOCATOR;
        s += cap.outsideClause(onCard);
        if (large && fits) s += unsettled(largeR, "the kit's line of a context", onCard);
        rungLead |= large && fitsR == null;   // the cap's lead (outsideClause)
        add(c, out.minus(ContextReserve.PROCESS_CONTEXT), fits, large, s);
    }

    private void graphPools() {
        long p = a.privatePools, tried = Math.max(0, a.requested);
        if (p < 0) {
            evidence.add("4. Graph pools: cannot check, this format has no private-pool figure.");
            return;
        }
        if (p == 0) {
            evidence.add(PoolClause.of(r).noneSentence());
            return;
        }
        // Rounded: the pool, the request and the card are printed figures, so a test can rest on the rounding.
        Rounded pr = Rounded.of(p, r.family());
        Boolean largeR = Rounded.either(a.requested < 0 ? Boolean.TRUE : pr.minus(a.requestedR).atLeast(0),
                a.capacity > 0 ? pr.atLeastPercent(SIGNIFICANT_PERCENT_OF_CARD, a.capacityR) : pr.atLeast(GiB));
        Boolean onCard = a.requested < 0 ? Boolean.TRUE : pr.plus(countedR()).minus(a.requestedR).atLeast(0);
        // the pools' cache counts against a memory fraction's cap too: freed, it must cover the cap's excess as well
        Boolean fitsR = cap.insideFits(pr, onCard);
        boolean large = largeR != Boolean.FALSE, fits = fitsR != Boolean.FALSE;
        rungLead = large && fitsR == null && onCard != null;   // the cap's lead (insideClause); unsettled says the card's
        add(Cause.CUDA_GRAPH_POOLS, pr, fits, large, "4. Graph pools: " + formatSize(p)
                + " sits cached in private pools (CUDA graphs), kept reserved while their graphs "
                + "live and unusable for ordinary tensors" + (large && fits ? "." + unsettled(largeR,
                "the request and the kit's line of " + SIGNIFICANT_PERCENT_OF_CARD + "% of the card", onCard)
                : cap.poolsShort(a, large, onCard, shortfall)) + (large ? cap.insideClause(pr, onCard) : ""));
    }

    /** The rungs that go by words: graph mentions where no figure can show pools, convolutions. */
    private Candidate byWordsAlone() {
        Candidate c = null;
        if (a.privatePools < 0 && r.has(Clue.CUDA_GRAPHS)) {
            c = Candidate.named(Cause.CUDA_GRAPH_POOLS, "4. Graph pools: this format cannot show "
                    + "private pools, but the paste mentions CUDA graphs.");
        } else if (r.has(Clue.CUDNN)) {
            c = Candidate.named(Cause.CUDNN_WORKSPACE, "5. cuDNN: the failure came in a "
                    + "convolution; the figures name no other cause, and with cudnn.benchmark on "
                    + "the chosen algorithm's workspace is allocated right there.");
        } else if (r.family() == Family.CUDA_ERROR && RunSize.of(r).shown()) {
            c = Candidate.named(Cause.NCCL_BUFFERS, "3. NCCL: a raw CUDA call failed in a "
                    + "distributed run; communicator set-up allocates outside PyTorch's allocator.");
        } else {
            if (r.family() == Family.CUDA_ERROR && RunSize.of(r).lead()) evidence.add(RunSize.of(r).rawErrorLead());
            evidence.add("5. cuDNN: " + (r.family() == Family.SNAPSHOT ? "the OOM's stack" : "the paste")
                    + " shows no convolution.");
        }
        if (c != null) {
            candidates.add(c);
            evidence.add(c.evidence());
        }
        return c;
    }

    /**
     * What shrinking the workload could give back: the live tensors themselves. Enough alone
     * when freeing them, with the free bytes the rungs count, would cover the request; never
     * when the request is larger than the whole card; assumed (as before any figure) when the
     * message lacks the request, the free bytes or the live bytes.
     */
    private Candidate tensors() {
        // the allocated figure less the private pools' free blocks (Account#liveR), only where it is printed
        Rounded liveR = a.allocated >= 0 ? a.liveR() : null;
        long live = liveR == null ? -1 : liveR.value(), tried = a.requested;
        boolean tooBig = tried >= Sizes.ONE_EB || (tried > 0 && a.capacity > 0 && tried > a.capacity);
        boolean measured = !tooBig && tried >= 0 && live >= 0 && a.free >= 0;
        boolean fits = !tooBig && (!measured || live + counted >= tried);
        // The printed figures' verdict stands; where their rounding alone could flip it, it is a lead (Rounded).
        Rounded room = measured ? liveR.plus(countedR()) : null;
        String lead = room == null || room.minus(a.requestedR).atLeast(0) != null ? "" : "6. A smaller workload: the "
                + liveR.text() + " of live tensors" + (counted == 0 ? " (" + freeWords() + ")" : " plus "
                + freeWords() + " make " + room.text()) + ", within the rounding of the message's figures of the "
                + formatSize(tried) + " asked: whether freeing the live tensors alone makes room"
                + " for it (the ranking's \"" + (fits ? "enough alone" : "not enough alone") + "\") is a lead, not a finding.";
        if (!lead.isEmpty()) evidence.add(lead);
        return Candidate.measured(Cause.FULL_OR_DRIVER_RESERVE, live, against(), fits, true,
                live >= 0 ? formatSize(live) + " of live tensors: a smaller workload gives back "
                        + "what it no longer allocates." + (lead.isEmpty() ? "" : " " + lead)
                        : "the live tensors (no figure).")
                .withError(live >= 0 ? liveR.error() : 0)   // the printed figures' rounding
                .withLead(!lead.isEmpty());
    }

    /** The free bytes as the rungs count them, in words. */
    private String freeWords() { return nearFull ? "the free memory counted as none" : formatSize(counted) + " free"; }

    /** Nothing to weigh a request against: not what was free, nor what PyTorch held, nor the card. */
    private boolean noFigures() { return a.free < 0 && a.reserved < 0 && a.allocated < 0 && a.capacity <= 0; }

    /**
     * A message with no figure to weigh (none, or the request alone) and no words naming a
     * subsystem: a full card is likeliest, but nothing shows it, so: what to collect next.
     */
    private Cause cannotTell() {
        picked = new Candidate(Cause.CANNOT_TELL, -1, 0, false, false, "no figure to weigh");
        candidates.add(picked);
        return say(Cause.CANNOT_TELL, (a.requested < 0 ? "No figure in this text (no request, free, reserved or"
                : "Only the request (" + formatSize(a.requested) + ") in this text, nothing to weigh it against (no free,"
                + " capacity,") + " reserved or allocated bytes) and no words naming NCCL, a graph capture or cuDNN: a full card is the"
                + " common story, but nothing here shows it. Collect the figures next (see below).");
    }

    private Cause full() {
        if (nearFull) finding = Finding.FREE_BARELY_COVERS;
        return say(Cause.FULL_OR_DRIVER_RESERVE, FullCard.sentence(r, a, nearFull, candidates));
    }

    // ---- choosing ----------------------------------------------------------------------------

    /** A measured cause: its bytes (none below 0) with the error of the figures they come from. */
    private void add(Cause c, Rounded bytes, boolean sufficient, boolean significant, String sentence) {
        evidence.add(sentence);
        candidates.add(Candidate.measured(c, Math.max(0, bytes.value()), against(), sufficient, significant, sentence)
                .withError(bytes.high() <= 0 ? 0 : bytes.error())   // surely none: exactly none
                .withLead(rungLead));
        rungLead = false;
    }

    private String decision(Candidate pick) {
        if (pick.bytes() < 0) return "Decision: " + pick.cause().name() + ", named by what failed.";
        return "Decision: " + pick.cause().name() + " gives back " + pick.bytesText()
                + (shortfall > 0 ? ", " + pick.share() + "% of the " + a.shortfallText(shortfall)
                        + " shortfall" : "") + ", the most of any cause that alone makes the "
                + "request fit (ties within a factor of two go to the earlier ladder step)."
                + (pick.cause() == Cause.FRAGMENTATION ? PoolClause.of(r).decisionNote() : "")
                + (pick.lead() ? " Its rung is within the rounding of the message's "
                        + "figures: check it before acting on it." : "");
    }

    /** What the shares measure against ({@link FractionCap#rankingBasis}): the cap's excess where it refused the request, else the card's shortfall. */
    private long against() { return capDecides ? cap.over().value() : shortfall; }

    /** The free bytes the rungs count, with their rounding. */
    private Rounded countedR() { return nearFull || a.free < 0 ? Rounded.exact(0) : a.freeR; }

    /**
     * Where a rung's test is within the rounding of the figures ({@link Rounded}, null): the
     * sentence that says so, the cause kept in the running but marked ({@link Candidate#lead}, which
     * the ranking, its JSON and the decision read), so the decision does not assert it. Empty where
     * the figures settle both tests.
     */
    private String unsettled(Boolean large, String line, Boolean fits) {
        if (large != null && fits != null) return "";
        rungLead = true;
        List<String> what = new ArrayList<>();
        if (large == null) what.add("the bytes may be under " + line);
        if (fits == null) what.add("they may fall short of the request");
        return " The message's figures are rounded to two decimals, and within that rounding "
                + String.join(", and ", what) + ": a lead, not a finding.";
    }

    private Cause say(Cause c, String sentence) {
        evidence.add(sentence);
        return c;
    }
}
