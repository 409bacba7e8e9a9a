package vramlab.advise;

import vramlab.replay.WhatIf;
import vramlab.trace.TraceEvent;

/**
 * What one setting did with the workload.
 *
 * @param setting        the setting
 * @param peakReserved   the most the allocator held from the driver at any event
 * @param allocatedAtPeak the most live blocks held while the allocator held its peak ({@link
 *                       vramlab.replay.PeakReserved})
 * @param ooms           how many allocations failed
 * @param firstOom       the first allocation that failed, or null
 * @param firstOomStep   its position among the replayed events, from 1 (0 when none)
 * @param endReserved    what the allocator held after the last event
 * @param whatIf         for a snapshot, the replay {@code vramlab replay} prints for this setting
 *                       (its verdict and margin); null for a text trace
 */
public record Outcome(Setting setting, long peakReserved, long allocatedAtPeak, long ooms,
                      TraceEvent firstOom, long firstOomStep, long endReserved, WhatIf whatIf) {

    public Outcome(Setting setting, long peakReserved, long allocatedAtPeak, long ooms,
                   TraceEvent firstOom, long firstOomStep, long endReserved) {
        this(setting, peakReserved, allocatedAtPeak, ooms, firstOom, firstOomStep, endReserved, null);
    }

    /**
     * Reserved but not allocated at the peak's fullest moment: the holes and rounding the setting
     * left.
     */
    public long fragmentationAtPeak() { return peakReserved - allocatedAtPeak; }

    public boolean fits() { return ooms == 0; }
}
