package vramlab.ch07;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.ch07.Ch07Figures.Held;
import vramlab.ch07.Ch07Figures.Sample;

/** The held-by-events timeline reads every block's state from the allocator, call by call. */
@DisplayName("Pinned blocks held by events, over time")
class HeldByEventsFigureTest {
    @Test
    @DisplayName("waiting blocks are the pending events, a block is pinned anew only while the others wait, and all end on the free list")
    void statesAreTheAllocators() {
        List<Sample> samples = Ch07Figures.heldByEventsRun();
        for (Sample s : samples) {
            long waiting = s.blocks().stream().filter(h -> h == Held.WAITING).count();
            assertThat(waiting).as("after %s: one stream each, so one event per waiting block", s.call())
                    .isEqualTo(s.pendingEvents());
            assertThat(s.blocks().stream().filter(h -> h == Held.CHECKED_OUT).count()).as(s.call()).isLessThanOrEqualTo(1);
        }
        int blocks = samples.get(samples.size() - 1).blocks().size();
        assertThat(blocks).as("the host ran ahead, so more than one block was pinned").isGreaterThan(1)
                .isLessThanOrEqualTo(Ch07Figures.HELD_STEPS);
        for (int k = 1; k < samples.size(); k++) {
            Sample before = samples.get(k - 1), now = samples.get(k);
            if (now.blocks().size() > before.blocks().size()) {
                assertThat(before.blocks()).as("a new block at '%s': no older block was on the free list", now.call())
                        .doesNotContain(Held.FREE_LIST);
            }
        }
        Sample last = samples.get(samples.size() - 1);
        assertThat(last.blocks()).containsOnly(Held.FREE_LIST);
        assertThat(last.pendingEvents()).isZero();
        String svg = Ch07Figures.figureHeldByEvents();
        for (int i = 1; i <= blocks; i++) assertThat(svg).contains(">block " + i + "<");
        assertThat(svg).contains("block 1 " + Ch07Figures.heldLabel(Held.WAITING));
    }
}
