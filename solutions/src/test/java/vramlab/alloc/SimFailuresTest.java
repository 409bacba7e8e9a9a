package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.lab.Todo;

/**
 * What the lab's facade says when an allocation fails half-way, leaving the books broken: a
 * step not written yet is named as such (the student's next move), any other failure comes
 * with the broken invariant first and the cause attached.
 */
@DisplayName("Sim when an allocation fails half-way")
class SimFailuresTest {
    /** The toy's rules, but its split rule fails with {@code failure}. */
    static Policy splitFails(RuntimeException failure) {
        ToyPolicy toy = new ToyPolicy();
        return new Policy() {
            @Override public String name() { return "toy"; }
            @Override public long roundSize(long requested) { return toy.roundSize(requested); }
            @Override public PoolKind poolFor(long rounded) { return toy.poolFor(rounded); }
            @Override public long segmentSize(long rounded) { return toy.segmentSize(rounded); }
            @Override public boolean shouldSplit(PoolKind pool, long blockSize, long rounded) { throw failure; }
            @Override public String oomMessage(OomReport report) { return toy.oomMessage(report); }
        };
    }

    @Test
    @DisplayName("a step not written yet: its Todo, not the broken books it left behind")
    void todoFirst() {
        Todo todo = new Todo("3.3", "The split rule", "ch03", "ToyPolicy.java");
        Sim sim = new Sim(mib(40), splitFails(todo));
        assertThatThrownBy(() -> sim.alloc(mib(1))).isSameAs(todo);
        assertThatThrownBy(sim.allocator()::checkInvariants).as("the books are broken")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    @DisplayName("any other failure: the broken invariant, with the failure attached")
    void brokenBooksFirst() {
        IllegalArgumentException bug = new IllegalArgumentException("a bug in the split rule");
        Sim sim = new Sim(mib(40), splitFails(bug));
        assertThatThrownBy(() -> sim.alloc(mib(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("free block missing from its pool")
                .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(bug));
    }

    @Test
    @DisplayName("a failure that leaves the books intact is thrown as it is")
    void intactBooks() {
        Sim sim = new Sim(mib(40));
        assertThatThrownBy(() -> sim.alloc(mib(100))).isInstanceOf(CudaOutOfMemoryError.class);
        assertThatThrownBy(() -> sim.alloc(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be negative");
        assertThat(sim.counters()).isEqualTo("reserved=0M allocated=0M requested=0M");
    }
}
