package vramlab.triage;

import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The 3 a.m. ladder: fragmentation, other processes, NCCL, graph pools, cuDNN, and otherwise a
 * full card. Each step looks at the figures it needs, says in one sentence what it saw, and the
 * first step whose test holds is the answer. The thresholds are this kit's rules of thumb, not
 * PyTorch's; the sentences print the figures so a reader can judge.
 */
public final class Ladder {
    /** Non-PyTorch memory a process has anyway: a CUDA 12 context with its libraries. */
    public static final long CONTEXT_ALLOWANCE = GiB;

    private final Reading r;
    private final List<String> evidence = new ArrayList<>();

    private Ladder(Reading r) { this.r = r; }

    /** The cause for one reading, with the sentences that led there. */
    public static Diagnosis climb(Reading r, List<String> preface) {
        Ladder l = new Ladder(r);
        l.evidence.addAll(preface);
        Cause c = l.decide();
        return new Diagnosis(c, r, l.evidence);
    }

    private Cause decide() {
        if (r.family() == Family.UNRECOGNIZED) {
            return say(Cause.NOT_PYTORCH_OOM, "No out-of-memory message was recognized in the paste.");
        }
        if (r.family() == Family.LOOK_ALIKE) {
            return say(Cause.NOT_PYTORCH_OOM, "This is an out-of-memory error from " + r.backend()
                    + ", not from PyTorch's CUDA caching allocator; the ladder does not apply.");
        }
        if (!r.backend().equals("CUDA")) {
            return say(Cause.NOT_PYTORCH_OOM, "This is PyTorch's allocator on a " + r.backend()
                    + " device, not CUDA; its figures are shown as read, without a guess.");
        }
        if (!r.missing().isEmpty()) {
            evidence.add("The message lacks " + String.join(", ", r.missing())
                    + " (cut or mangled); the ladder works with what is there.");
        }
        // tag::ladder[]
        Cause c = requestBiggerThanCard();
        if (c == null) c = fragmentation();
        if (c == null) c = otherProcesses();
        if (c == null) c = nccl();
        if (c == null) c = graphPools();
        if (c == null) c = cudnn();
        return c != null ? c : full();
        // end::ladder[]
    }

    private long significant() {
        long cap = r.get(Figure.CAPACITY);
        return cap > 0 ? cap / 20 : GiB;
    }

    private Cause requestBiggerThanCard() {
        long tried = r.get(Figure.REQUESTED), cap = r.get(Figure.CAPACITY);
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

    // tag::fragmentation[]
    private Cause fragmentation() {
        long u = r.get(Figure.RESERVED_BUT_UNALLOCATED), tried = r.get(Figure.REQUESTED);
        long free = Math.max(0, r.get(Figure.FREE));
        if (u < 0 || tried < 0) {
            evidence.add("1. Fragmentation: cannot check, the message has no reserved-but-unallocated "
                    + "figure or no request.");
            return null;
        }
        String u1 = formatSize(u) + " is reserved by PyTorch but unallocated";
        if (u >= tried) {
            return say(Cause.FRAGMENTATION, "1. Fragmentation: " + u1 + ", at least the "
                    + formatSize(tried) + " it tried to allocate. PyTorch releases every wholly free "
                    + "segment before it raises, so these bytes sit in holes between live blocks, "
                    + "none big enough.");
        }
        if (u >= significant() && u + free >= tried) {
            return say(Cause.FRAGMENTATION, "1. Fragmentation: " + u1 + " and " + formatSize(free)
                    + " is free on the device: together they would cover the " + formatSize(tried)
                    + ", but the cached holes cannot join the free pages.");
        }
        evidence.add("1. Fragmentation: only " + u1 + ", less than the " + formatSize(tried)
                + " it tried to allocate: not the main cause.");
        return null;
    }
    // end::fragmentation[]

    private Cause otherProcesses() {
        long others = r.get(Figure.OTHER_PROCESSES), tried = Math.max(0, r.get(Figure.REQUESTED));
        long free = Math.max(0, r.get(Figure.FREE));
        if (others < 0) return unattributed();
        if (others > 0 && others >= significant() && others + free >= tried) {
            return say(Cause.OTHER_PROCESSES, "2. Other processes: " + describeProcesses()
                    + (r.processes().size() == 1 ? " holds " : " hold ")
                    + formatSize(others) + " of the card; without them " + formatSize(free + others)
                    + " would be free, enough for the " + formatSize(tried) + ".");
        }
        evidence.add(others == 0 ? "2. Other processes: the message lists none."
                : "2. Other processes: " + describeProcesses()
                        + (r.processes().size() == 1 ? " holds only " : " hold only ")
                        + formatSize(others)
                        + ", too little to explain it.");
        return null;
    }

    private String describeProcesses() {
        List<String> ps = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : r.processes().entrySet()) {
            ps.add(e.getKey() + " (" + formatSize(e.getValue()) + ")");
        }
        return (ps.size() == 1 ? "process " : "processes ") + String.join(", ", ps);
    }

    /** Older formats list no processes: look at what is neither free nor PyTorch's. */
    private Cause unattributed() {
        long cap = r.get(Figure.CAPACITY), free = r.get(Figure.FREE), reserved = r.get(Figure.RESERVED);
        if (reserved < 0 && r.family() == Family.MALLOC_ASYNC) {
            reserved = r.get(Figure.ALLOCATED_BY_PYTORCH);   // the async backend's only figure
        }
        if (cap < 0 || free < 0 || reserved < 0) {
            evidence.add("2. Other processes: cannot check, the message lists no processes and "
                    + "lacks the figures to infer them.");
            return null;
        }
        // The total is cudaMemGetInfo's: the driver's reserve is not in it, so what is neither
        // free nor PyTorch's is this process's context and libraries plus other processes.
        long gap = cap - free - reserved;
        String seen = formatSize(Math.max(0, gap)) + " of the total is neither free nor PyTorch's";
        if (gap >= Math.max(2 * GiB, cap / 10)) {
            if (r.has(Clue.DISTRIBUTED)) {
                return say(Cause.NCCL_BUFFERS, "2-3. " + seen + ", far more than a context takes; "
                        + "the message lists no processes, and the paste shows a "
                        + "distributed run, so NCCL's buffers in this process come first (check "
                        + "nvidia-smi for other processes too).");
            }
            return say(Cause.OTHER_PROCESSES, "2. Other processes: " + seen + ", far more than a "
                    + "context takes. This format lists no processes; "
                    + "nvidia-smi will show who holds it.");
        }
        evidence.add("2. Other processes: " + seen + ", about what a context takes (the driver's "
                + "reserve is not in the total).");
        return null;
    }

    private Cause nccl() {
        long self = r.get(Figure.THIS_PROCESS), reserved = r.get(Figure.RESERVED);
        boolean distributed = r.has(Clue.DISTRIBUTED);
        if (r.family() == Family.NCCL_ERROR) {
            return say(Cause.NCCL_BUFFERS, "3. NCCL: the failing allocation was NCCL's own "
                    + "(setting up a communicator's buffers), outside PyTorch's allocator.");
        }
        if (self >= 0 && reserved >= 0) {
            long outside = self - reserved;
            if (outside >= CONTEXT_ALLOWANCE) {
                return say(Cause.NCCL_BUFFERS, "3. NCCL: this process holds " + formatSize(self)
                        + " but PyTorch reserved " + formatSize(reserved) + ": "
                        + formatSize(outside) + " is non-PyTorch memory, more than a context "
                        + "(this kit draws the line at 1 GiB)"
                        + (distributed ? ", and the paste shows a distributed run."
                                : ". The paste shows no distributed run, so also suspect another "
                                        + "library that allocates on its own."));
            }
            evidence.add("3. NCCL: this process's non-PyTorch memory is "
                    + formatSize(Math.max(0, outside))
                    + ", about a context's worth.");
            return null;
        }
        if (distributed && r.family() == Family.CUDA_ERROR) {
            return say(Cause.NCCL_BUFFERS, "3. NCCL: a raw CUDA call failed in a distributed run; "
                    + "communicator set-up allocates outside PyTorch's allocator.");
        }
        evidence.add("3. NCCL: cannot measure non-PyTorch memory in this process"
                + (distributed ? " (the paste does show a distributed run)." : "."));
        return null;
    }

    private Cause graphPools() {
        long p = r.get(Figure.PRIVATE_POOLS), tried = Math.max(0, r.get(Figure.REQUESTED));
        if (p > 0 && (p >= tried || p >= significant())) {
            return say(Cause.CUDA_GRAPH_POOLS, "4. Graph pools: " + formatSize(p) + " sits cached in "
                    + "private pools (CUDA graphs), kept reserved while their graphs live and "
                    + "unusable for ordinary tensors.");
        }
        if (p < 0 && r.has(Clue.CUDA_GRAPHS)) {
            return say(Cause.CUDA_GRAPH_POOLS, "4. Graph pools: this format cannot show private "
                    + "pools, but the paste mentions CUDA graphs.");
        }
        evidence.add(p < 0 ? "4. Graph pools: cannot check, this format has no private-pool figure."
                : "4. Graph pools: " + formatSize(p) + " in private pools, too little to matter.");
        return null;
    }

    private Cause cudnn() {
        if (r.has(Clue.CUDNN)) {
            return say(Cause.CUDNN_WORKSPACE, "5. cuDNN: the failure came in a convolution; with "
                    + "cudnn.benchmark on, the chosen algorithm's workspace (often hundreds of MiB) "
                    + "is allocated right there, at the peak.");
        }
        evidence.add("5. cuDNN: the paste shows no convolution.");
        return null;
    }

    private Cause full() {
        long cap = r.get(Figure.CAPACITY), free = r.get(Figure.FREE);
        long a = r.get(Figure.ALLOCATED_BY_PYTORCH), reserved = r.get(Figure.RESERVED);
        long self = r.get(Figure.THIS_PROCESS), others = r.get(Figure.OTHER_PROCESSES);
        StringBuilder sb = new StringBuilder("6. Otherwise the card is simply full");
        if (a >= 0 && cap > 0) sb.append(": PyTorch has " + formatSize(a) + " of " + formatSize(cap));
        if (free >= 0) sb.append(", ").append(formatSize(free)).append(" is free");
        sb.append('.');
        if (self >= 0 && reserved >= 0 && self >= reserved) {
            sb.append(" This process holds ").append(formatSize(self - reserved))
              .append(" beyond what PyTorch reserved: its CUDA context and libraries.");
        }
        if (cap > 0) {
            long nominal = (cap + GiB - 1) / GiB * GiB;
            sb.append(" The total is cudaMemGetInfo's, already without the driver's reserve (ECC, "
                    + "display, firmware): on a card sold as " + nominal / GiB + " GiB that reserve is "
                    + "about " + formatSize(nominal - cap) + ".");
        }
        if (cap > 0 && free >= 0 && self >= 0 && others >= 0 && cap - free - self - others >= 64L << 20) {
            sb.append(" ").append(formatSize(cap - free - self - others)).append(" of the total is held"
                    + " by no process the message lists (one in another container, or the driver's own).");
        }
        if (r.family() == Family.THC_LEGACY || r.family() == Family.CUDA_ERROR) {
            sb.append(" (Without figures this is the fallback, not a finding.)");
        } else if (!r.missing().isEmpty()) {
            sb.append(" (Figures are missing, so earlier steps could not all be ruled out: "
                    + "this is the fallback, not a finding.)");
        }
        return say(Cause.FULL_OR_DRIVER_RESERVE, sb.toString());
    }

    private Cause say(Cause c, String sentence) {
        evidence.add(sentence);
        return c;
    }
}
