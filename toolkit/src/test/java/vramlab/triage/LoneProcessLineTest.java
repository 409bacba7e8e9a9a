package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a lone 'Process N' line in a message with no totals is not a co-tenant")
class LoneProcessLineTest {
    /** A Colab paste cut before "Of the allocated memory": its one process line is the job itself. */
    static final String CUT = "OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
            + "capacity of 14.75 GiB of which 3.06 MiB is free. Process 2378 has 14.74 GiB memory in use.";

    @Test
    @DisplayName("the line is read as this process, said so, and the cause is not OTHER_PROCESSES")
    void lone() {
        Diagnosis d = Triage.of(CUT);
        assertThat(d.cause()).isNotEqualTo(Cause.OTHER_PROCESSES);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("Process 2378 (14.74 GiB) is the only process"));
        assertThat(d.selfSeenAs()).isEqualTo(2378);
    }

    @Test
    @DisplayName("with the totals there, a process line that cannot hold what PyTorch reserved is still a co-tenant")
    void withTotals() {
        Diagnosis d = Triage.of("OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                + "capacity of 14.75 GiB of which 1.06 GiB is free. Process 2378 has 10.00 GiB memory in use. Including "
                + "non-PyTorch memory, this process has 3.60 GiB memory in use. Of the allocated memory 3.20 GiB is "
                + "allocated by PyTorch, and 100.00 MiB is reserved by PyTorch but unallocated.");
        assertThat(d.cause()).isEqualTo(Cause.OTHER_PROCESSES);
    }
}
