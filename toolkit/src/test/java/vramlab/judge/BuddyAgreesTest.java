package vramlab.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vramlab.buddy.BuddyAllocator;
import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.contest.BuddyEntry;
import vramlab.contest.Entries;
import vramlab.driver.CostModel;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.trace.TraceEvent;
import vramlab.workload.Workload;
import vramlab.workload.Workloads;

/**
 * The buddy entry, judged, is chapter 6's buddy allocator: the same workload driven straight
 * through {@link BuddyAllocator#onDemand} (a pool of the entry's shape, on a card of the
 * workload's size) holds the same peak, makes the same driver calls at the same simulated cost,
 * and runs out of memory at the same event.
 */
class BuddyAgreesTest {
    @Test
    void theJudgedBuddyEntryAndChapter6sBuddyAllocatorAgree() {
        Workload diffusion = Workloads.diffusionSampling(3, 2);
        Workload tight = new Workload("diffusion-on-1.5GiB", 3L << 29, "", "", diffusion.events());
        int ooms = 0;
        for (Workload w : new Workload[] {diffusion, tight, Workloads.ratchetingBatches(3, 4), Workloads.llmServing(3, 4)}) {
            GpuProcess p = new Gpu(w.card()).openToyProcess();
            long card = p.cudaMemGetInfo().free();
            int maxOrder = Math.min(BuddyEntry.MAX_ORDER, 63 - Long.numberOfLeadingZeros(card));
            BuddyAllocator buddy = BuddyAllocator.onDemand(p, card / (1L << maxOrder) * (1L << maxOrder),
                    BuddyEntry.MIN_ORDER, maxOrder);
            Map<String, Long> live = new HashMap<>();
            long step = 0, oomAt = -1, peak = 0;
            for (TraceEvent e : w.events()) {
                step++;
                if (e.op() == TraceEvent.Op.ALLOC) {
                    try {
                        live.put(e.handle(), buddy.alloc(e.size()));
                    } catch (BuddyOutOfMemoryError oom) {
                        oomAt = step;
                        break;
                    }
                } else if (e.op() == TraceEvent.Op.FREE) {
                    buddy.free(live.remove(e.handle()));
                }
                peak = Math.max(peak, p.mappedBytes());
            }
            Run r = Judge.run(Entries.BUDDY, w);
            assertThat(r.broken()).as(w.name()).isNull();
            assertThat(r.oomStep()).as(w.name()).isEqualTo(oomAt);
            if (oomAt > 0) ooms++;
            assertThat(r.peakReserved()).as(w.name()).isEqualTo(peak);
            long calls = 0;
            for (DriverCall c : DriverCall.values()) calls += p.driverCalls(c);
            assertThat(r.driverCalls()).as(w.name()).isEqualTo(calls);
            assertThat(r.driverMicros()).as(w.name()).isEqualTo(CostModel.ORDER_OF_MAGNITUDE.totalMicros(p));
        }
        assertThat(ooms).as("cases that run out of memory").isPositive();
    }
}
