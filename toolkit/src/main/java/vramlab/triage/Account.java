package vramlab.triage;

import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.formatSize;

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
    final long self, others, nonPyTorch;
    /** The pid whose line is this process (no "this process" line, a container's pid); or -1. */
    final int selfSeenAs;
    /** Whether {@link #selfSeenAs} is a lone process line in a message with no totals. */
    final boolean loneLine;
    /** How many "Process P" lines are large enough to hold what PyTorch reserved (0 when unknown). */
    final int linesHoldingReserved;

    private Account(Reading r) {
        capacity = r.get(Figure.CAPACITY);
        free = r.get(Figure.FREE);
        requested = r.get(Figure.REQUESTED);
        allocated = r.get(Figure.ALLOCATED_BY_PYTORCH);
        unallocated = r.get(Figure.RESERVED_BUT_UNALLOCATED);
        privatePools = r.get(Figure.PRIVATE_POOLS);
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

    /** Total minus free minus every listed process: a desktop, or processes the message cannot see. */
    long heldByNoProcess() {
        if (capacity < 0 || free < 0 || self < 0 || others < 0) return -1;
        return capacity - free - self - others;
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
