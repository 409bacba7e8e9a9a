package vramlab.triage;

import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The card's account as one message states it, with the figures the ladder derives from it:
 * what PyTorch reserved, which "Process P" line (if any) is this process seen from inside a
 * container, what other processes hold, and what this process holds outside PyTorch. A figure
 * the message does not give is -1.
 */
final class Account {
    /** Printed sizes have two decimals: a line may read up to this much below the truth. */
    private static final long PRINT_TOLERANCE = 16 * MiB;

    final long capacity, free, requested, allocated, unallocated, reserved, privatePools;
    /** The memory fraction's cap the message prints ("X allowed"), or -1. */
    final long allowed;
    final long self, others, nonPyTorch;
    /** The pid whose line is this process (no "this process" line, a container's pid); or -1. */
    final int selfSeenAs;
    /** Whether {@link #selfSeenAs} is a lone process line in a message with no totals. */
    final boolean loneLine;
    /** How many "Process P" lines are large enough to hold what PyTorch reserved (0 when unknown). */
    final int linesHoldingReserved;
    /**
     * The figures the ladder computes from printed ones, with the error their roundings allow
     * ({@link Rounded}); null where the long beside them is -1.
     */
    final Rounded unallocatedR, reservedR, selfR, othersR, capacityR, freeR, requestedR, allocatedR;
    /** {@link #allowed} with its rounding; null where the message prints no cap ({@link #hasCap}). */
    final Rounded allowedR;
    /** {@link #privatePools} with its rounding; null where the message has no such figure. */
    private final Rounded privatePoolsR;

    private Account(Reading r) {
        capacity = r.get(Figure.CAPACITY);
        free = r.get(Figure.FREE);
        requested = r.get(Figure.REQUESTED);
        allocated = r.get(Figure.ALLOCATED_BY_PYTORCH);
        unallocated = r.get(Figure.RESERVED_BUT_UNALLOCATED);
        privatePools = r.get(Figure.PRIVATE_POOLS);
        allowed = r.get(Figure.ALLOWED);
        reserved = reservedOf(r);
        long s = r.get(Figure.THIS_PROCESS);
        int seenAs = -1;
        linesHoldingReserved = reserved >= 0 ? countHolding(r.processes(), reserved) : 0;
        if (s < 0 && reserved >= 0) seenAs = lineHoldingReserved(r.processes(), reserved);
        // A lone "Process P" line and no totals, the message cut (before "Of the allocated memory"):
        // NVML lists this process too, so the one line is most likely this job, not a co-tenant.
        loneLine = s < 0 && reserved < 0 && !r.missing().isEmpty() && r.processes().size() == 1;
        if (loneLine) seenAs = r.processes().keySet().iterator().next();
        selfSeenAs = seenAs;
        if (seenAs >= 0) s = r.processes().get(seenAs);
        self = s;
        long o = r.get(Figure.OTHER_PROCESSES);
        if (seenAs >= 0) o -= r.processes().get(seenAs);
        others = o;
        nonPyTorch = self >= 0 && reserved >= 0 ? self - reserved : -1;
        Family fam = r.family();
        capacityR = rounded(capacity, fam);
        freeR = rounded(free, fam);
        requestedR = rounded(requested, fam);
        allowedR = rounded(allowed, fam);
        privatePoolsR = rounded(privatePools, fam);
        Rounded alloc = rounded(allocated, fam), unalloc = rounded(unallocated, fam);
        allocatedR = alloc;
        // 1.4 to 2.0 print reserved and allocated, and the parser takes their difference; 0.4 to 1.3
        // and 2.x print the unallocated bytes and the parser adds allocated to them for reserved.
        boolean unallocatedDerived = fam == Family.RESERVED_IN_TOTAL && r.has(Figure.RESERVED)
                && r.has(Figure.ALLOCATED_BY_PYTORCH);
        boolean reservedDerived = (fam == Family.SENTENCE || fam == Family.CACHED) && alloc != null && unalloc != null;
        reservedR = reserved < 0 ? null : reservedDerived ? alloc.plus(unalloc) : rounded(reserved, fam);
        unallocatedR = unallocated < 0 ? null : unallocatedDerived
                ? new Rounded(unallocated, reservedR.error() + alloc.error()) : unalloc;
        selfR = rounded(self, fam);
        othersR = others < 0 ? null : othersOf(r, seenAs, others);
    }

    private static Rounded rounded(long bytes, Family fam) {
        return bytes < 0 ? null : Rounded.of(bytes, fam);
    }

    /** What the "Process P" lines other than this process's add up to, each line rounded. */
    private static Rounded othersOf(Reading r, int seenAs, long others) {
        Rounded sum = Rounded.exact(0);
        for (Map.Entry<Integer, Long> e : r.processes().entrySet()) {
            if (e.getKey() != seenAs) sum = sum.plus(Rounded.of(e.getValue(), r.family()));
        }
        return new Rounded(others, sum.error());
    }

    static Account of(Reading r) { return new Account(r); }

    private static long reservedOf(Reading r) {
        long res = r.get(Figure.RESERVED);
        if (res >= 0) return res;
        if (r.family() == Family.MALLOC_ASYNC) return r.get(Figure.ALLOCATED_BY_PYTORCH);
        return -1;
    }

    /**
     * NVML lists processes by the host's pids; inside a container PyTorch's getpid() differs, so
     * this process prints as "Process P" and no "this process" line appears. Its line is the one
     * that can hold what PyTorch reserved: the smallest line at least that large. Where several
     * lines can, that is a guess ({@link #linesHoldingReserved} says how many), not a finding.
     */
    private static int lineHoldingReserved(Map<Integer, Long> lines, long reserved) {
        int best = -1;
        long bestBytes = Long.MAX_VALUE;
        for (Map.Entry<Integer, Long> e : lines.entrySet()) {
            long b = e.getValue();
            if (b + PRINT_TOLERANCE >= reserved && b < bestBytes) {
                best = e.getKey();
                bestBytes = b;
            }
        }
        return best;
    }

    private static int countHolding(Map<Integer, Long> lines, long reserved) {
        int n = 0;
        for (long b : lines.values()) if (b + PRINT_TOLERANCE >= reserved) n++;
        return n;
    }

    /**
     * Total minus free minus what PyTorch reserved: contexts, libraries, other processes. A
     * capacity of 0 is no card: unknown, as every rung reads it.
     */
    long unattributed() {
        return capacity > 0 && free >= 0 && reserved >= 0 ? capacity - free - reserved : -1;
    }

    /** {@link #unattributed} with the error of its three printed figures; null where unknown. */
    Rounded unattributedR() {
        return unattributed() < 0 ? null : capacityR.minus(freeR).minus(reservedR);
    }

    /**
     * The shortfall as precise as its figures: the request minus the free bytes, both printed,
     * or the whole request where free memory counts as none.
     */
    String shortfallText(long shortfall) {
        boolean difference = requestedR != null && freeR != null && shortfall == requested - free;
        return difference ? requestedR.minus(freeR).text() : formatSize(shortfall);
    }

    /**
     * The shortfall with its error: the request minus the free bytes, or the whole request
     * where free memory counts as none (the request's own rounding); exact where neither was printed.
     */
    Rounded shortfallR(long shortfall) {
        if (requestedR != null && freeR != null && shortfall == requested - free) return requestedR.minus(freeR);
        return requestedR != null && shortfall == requested ? requestedR : Rounded.exact(shortfall);
    }

    /**
     * How far the truth may lie from a figure as the report shows it ({@link Rounded}): its own
     * rounding where printed, the sum of its parts' where the parser computed it (reserved,
     * unallocated, other processes); -1 for the device index or a figure the message lacks.
     */
    long errorOf(Figure f, Reading r) {
        if (!f.isBytes() || !r.has(f)) return -1;
        Rounded x = switch (f) {
            case RESERVED -> reservedR;
            case RESERVED_BUT_UNALLOCATED -> unallocatedR;
            case OTHER_PROCESSES -> othersR;
            default -> null;
        };
        return x != null ? x.error() : Rounded.of(r.get(f), r.family()).error();
    }

    /**
     * The live tensors with their error: what PyTorch allocated, or reserved less unallocated
     * where the message lacks the allocated figure, less the private pools' figure where the
     * message prints one; null where neither is known. PyTorch 2.4+ prints as "allocated by
     * PyTorch" {@code allocated_bytes + allocated_in_private_pools}, and the second sums the
     * private pools' free blocks ({@code pool.blocks}, not a live tensor among them):
     * c10/cuda/CUDACachingAllocator.cpp @001074d, DeviceCachingAllocator::malloc's OOM message.
     * A snapshot's figures are put the same way ({@link SnapshotTriage#reading}).
     */
    Rounded liveR() {
        Rounded printed = allocatedR != null ? allocatedR
                : reservedR == null || unallocatedR == null ? null : reservedR.minus(unallocatedR);
        return printed == null || privatePools <= 0 ? printed : printed.minus(privatePoolsR);
    }

    /** {@link #liveR} in bytes, or -1 where unknown. */
    long live() {
        Rounded l = liveR();
        return l == null ? -1 : l.value();
    }

    /**
     * The card as PyTorch may fill it, with its rounding: the cap a memory fraction sets where the
     * message prints one ("X allowed": {@code allowed_memory_maximum}, the fraction times the total,
     * which PyTorch's reserved bytes may not pass; c10/cuda/CUDACachingAllocator.cpp @001074d,
     * setMemoryFraction and the OOM message), else the total capacity; null where neither is known
     * (a capacity of 0 is no card).
     */
    Rounded cardR() {
        if (hasCap()) return allowedR;
        return capacity > 0 ? capacityR : null;
    }

    /** {@link #cardR} in words: "the 12.00 GiB card", "the 9.80 GiB this process's memory fraction allows". */
    String cardText() {
        return hasCap() ? "the " + formatSize(allowed) + " this process's memory fraction allows"
                : "the " + formatSize(capacity) + " card";
    }

    /**
     * Whether the message prints a memory fraction's cap ("X allowed"): the one test of it that
     * {@link #cardR}, {@link #cardText}, {@link FractionCap#of} and {@link OwnLimit} share. PyTorch
     * prints {@code allowed_info} exactly when {@code set_fraction} is true
     * (c10/cuda/CUDACachingAllocator.cpp @001074d, DeviceCachingAllocator::malloc's OOM message),
     * and a fraction of 0 is a valid setting (torch/cuda/memory.py, set_per_process_memory_fraction
     * takes 0 to 1): "0 bytes allowed" is a cap that refuses every new segment
     * ({@code total_allocated_memory + size > 0} in alloc_block), not the absence of one, unlike a
     * capacity of 0, which no card prints. The async backend's limit when no fraction is set
     * (2^64 bytes) is not read as one ({@link MessageParser}).
     */
    boolean hasCap() { return allowed >= 0; }

    /**
     * What {@link #cardR} leaves past the live tensors and the request, with the rounding of the
     * figures: below 0, the live tensors alone (the cache's holes left out) and the request exceed
     * the card, and no arrangement of the cache fits them; null where a figure is missing.
     */
    Rounded roomPastLiveR() {
        Rounded card = cardR(), live = liveR();
        return card == null || live == null || requestedR == null ? null : card.minus(live).minus(requestedR);
    }

    /** This process's memory beyond what PyTorch reserved, with its error; null where unknown. */
    Rounded nonPyTorchR() { return selfR == null || reservedR == null ? null : selfR.minus(reservedR); }

    /** {@link #heldByNoProcess} with its error; null where unknown. */
    Rounded heldByNoProcessR() {
        return capacityR == null || freeR == null || selfR == null || othersR == null ? null
                : capacityR.minus(freeR).minus(selfR).minus(othersR);
    }

    /** Total minus free minus every listed process: a desktop, or processes the message cannot see. */
    long heldByNoProcess() {
        if (capacity < 0 || free < 0 || self < 0 || others < 0) return -1;
        return capacity - free - self - others;
    }

    /** The "Process P" lines other than this process's: "process 7 (2.00 GiB)", "processes 7 (..), 9 (..)". */
    String describeOthers(Reading r) {
        List<String> ps = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : r.processes().entrySet()) {
            if (e.getKey() == selfSeenAs) continue;
            ps.add(e.getKey() + " (" + formatSize(e.getValue()) + ")");
        }
        return (ps.size() == 1 ? "process " : "processes ") + String.join(", ", ps);
    }

    /**
     * The sentence that says which process line the message's reader takes as this process,
     * where no "this process" line says so; null where one does, or no line is taken.
     */
    String whoIsSelf() {
        if (selfSeenAs < 0) return null;
        if (loneLine) {
            return "Process " + selfSeenAs + " (" + formatSize(self) + ") is the only process"
                    + " listed and the message gives no totals to tell it apart: NVML lists this"
                    + " process too, so it is most likely this job itself, not a co-tenant.";
        }
        if (linesHoldingReserved > 1) {
            return "Process " + selfSeenAs + " (" + formatSize(self) + ") is taken as this "
                    + "process: there is no \"this process\" line, and of the "
                    + linesHoldingReserved + " lines that could hold the " + formatSize(reserved)
                    + " PyTorch reserved it is the smallest (a guess: any of them could be this job; "
                    + "inside a container NVML shows the host's pid).";
        }
        return "Process " + selfSeenAs + " (" + formatSize(self) + ") is this process: "
                + "there is no \"this process\" line, and only that line can hold the "
                + formatSize(reserved) + " PyTorch reserved (inside a container NVML shows the "
                + "host's pid).";
    }
}
