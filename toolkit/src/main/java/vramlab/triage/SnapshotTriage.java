package vramlab.triage;

import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vramlab.trace.TraceException;

/**
 * {@code vramlab triage snapshot.pickle}: the same diagnosis as for a pasted message, from the
 * exact bytes a memory snapshot recorded at its first {@code oom} entry ({@link OomMoment}). A
 * snapshot does not record the card's size or other processes; with the capacity given, the
 * ladder also weighs what is neither free nor PyTorch's.
 */
public final class SnapshotTriage {
    private SnapshotTriage() {}

    /**
     * @param snapshot the snapshot dict ({@code device_traces}, {@code segments})
     * @param capacity the card's total bytes, or -1 when unknown
     * @throws TraceException when no device's trace holds an {@code oom} entry
     */
    public static Diagnosis of(Map<?, ?> snapshot, String file, long capacity) {
        List<OomMoment> ooms = OomMoment.all(snapshot, file);
        if (ooms.isEmpty()) {
            throw new TraceException(file, 0, "no 'oom' entry in any device's trace: the recorded "
                    + "run did not run out of memory while its history was recorded (./vramlab advise "
                    + "replays it under other settings)");
        }
        OomMoment m = ooms.get(0);
        List<String> preface = new ArrayList<>();
        if (ooms.size() > 1) {
            preface.add("The snapshot records " + ooms.size() + " OOMs; this reads the first.");
        }
        return Ladder.climb(reading(m, capacity), preface);
    }

    static Reading reading(OomMoment m, long capacity) {
        Map<Figure, Long> f = new EnumMap<>(Figure.class);
        f.put(Figure.REQUESTED, m.requested());
        f.put(Figure.DEVICE, (long) m.device());
        if (capacity > 0) f.put(Figure.CAPACITY, capacity);
        f.put(Figure.FREE, m.deviceFree());
        f.put(Figure.ALLOCATED_BY_PYTORCH, m.allocated() + m.privatePoolFree());
        f.put(Figure.RESERVED_BUT_UNALLOCATED, m.unallocated());
        f.put(Figure.PRIVATE_POOLS, m.privatePoolFree());
        f.put(Figure.RESERVED, m.reserved());
        Set<Clue> clues = EnumSet.noneOf(Clue.class);
        String stack = String.join("\n", m.frames());
        for (Clue c : Clue.values()) if (c.foundIn(stack)) clues.add(c);
        List<String> notes = new ArrayList<>();
        notes.add("Read from trace entry " + m.entry() + " of device " + m.device()
                + " (its 'oom' entry), with the segments as they were then: exact bytes, no text "
                + "to parse.");
        notes.add("At that moment: " + m.segments() + " segments (" + m.expandable()
                + " expandable); the largest free block was " + formatSize(m.largestFree())
                + ", the request needed " + formatSize(m.requested()) + ".");
        if (capacity <= 0) {
            notes.add("A snapshot records neither the card's size nor other processes; pass "
                    + "--device SIZE to weigh what is neither free nor PyTorch's.");
        }
        return new Reading(Family.SNAPSHOT, "CUDA", "", f, new LinkedHashMap<>(), clues, List.of(),
                notes);
    }
}
