package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.triage.LadderRulesTest.card;
import static vramlab.triage.LadderRulesTest.rung;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.triage.LadderRulesTest.R;

/**
 * Which "Process P has X memory in use" line is this process. PyTorch prints "this process"
 * for the NVML entry whose pid equals getpid() and "Process P" for every other one
 * (c10/cuda/CUDACachingAllocator.cpp); inside a container NVML reports the host's pids, so this
 * process can only print as "Process P". With no "this process" line, the kit takes the
 * smallest line that can hold what PyTorch reserved, allowing 16 MiB for two printed decimals
 * (the kit's rule), the first on a tie.
 */
@DisplayName("A 'Process P' line that is this process, seen from a container")
class ContainerPidTest {
    private static final long MiB = 1L << 20;

    /** 20 GiB card, 100 MiB free, 512 MiB asked, no "this process" line. */
    static R reserved(long reservedMib) {
        return card(20480L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, reservedMib);
    }

    static R line(R r, int pid, long bytes) {
        r.procs.put(pid, bytes);
        r.f.merge(Figure.OTHER_PROCESSES, bytes, Long::sum);
        return r;
    }

    @ParameterizedTest(name = "a line {0} bytes below reserved -> this process: {1}")
    @CsvSource({"0, true", "16777216, true", "16777217, false", "-1, true"})
    @DisplayName("a line up to 16 MiB below what PyTorch reserved can be this process; one byte more cannot")
    void tolerance(long below, boolean self) {
        Diagnosis d = line(reserved(10000L), 4242, 10000 * MiB - below).climb();
        assertThat(d.selfSeenAs()).isEqualTo(self ? 4242 : -1);
    }

    @Test
    @DisplayName("of the lines large enough, the smallest is this process; on equal sizes the first listed")
    void smallestThenFirst() {
        R r = reserved(5000L);
        line(r, 7, 6000 * MiB);
        line(r, 8, 5500 * MiB);
        line(r, 9, 5500 * MiB);
        Diagnosis d = r.climb();
        assertThat(d.selfSeenAs()).isEqualTo(8);
        assertThat(rung(d, 2)).startsWith("2. Other processes: processes 7 (5.86 GiB), 9 (5.37 GiB) hold 11.23 GiB");
    }

    @ParameterizedTest(name = "pid {0}")
    @CsvSource({"0", "1", "4242"})
    @DisplayName("any pid the line prints can be this process: its sentence says so and the others exclude it")
    void anyPid(int pid) {
        Diagnosis d = line(reserved(10000L), pid, 10500 * MiB).climb();
        assertThat(d.selfSeenAs()).isEqualTo(pid);
        assertThat(d.evidence().get(0)).isEqualTo("Process " + pid + " (10.25 GiB) is this process: there is no "
                + "\"this process\" line, and only that line can hold the 9.77 GiB PyTorch reserved (inside a "
                + "container NVML shows the host's pid).");
        assertThat(rung(d, 2)).isEqualTo("2. Other processes: the message lists none besides this one.");
        assertThat(rung(d, 3)).startsWith("3. Outside PyTorch: this process holds 10.25 GiB, PyTorch reserved 9.77 GiB: "
                + "0.49 GiB ± 0.01 GiB is non-PyTorch memory");
    }

    @Test
    @DisplayName("a 'this process' line, even one of 0 bytes, leaves every 'Process P' line to others")
    void thisProcessLine() {
        R r = line(reserved(10000L), 4242, 10500 * MiB).put(Figure.THIS_PROCESS, 0L);
        Diagnosis d = r.climb();
        assertThat(d.selfSeenAs()).isEqualTo(-1);
        assertThat(rung(d, 2)).startsWith("2. Other processes: process 4242 (10.25 GiB) holds 10.25 GiB");
    }

    @Test
    @DisplayName("with PyTorch holding nothing yet, the smallest line (a bare context) is this process")
    void nothingReserved() {
        R r = reserved(0L);
        line(r, 7, 18 * 1024 * MiB);
        line(r, 8, 300 * MiB);
        Diagnosis d = r.climb();
        assertThat(d.selfSeenAs()).isEqualTo(8);
        assertThat(rung(d, 2)).startsWith("2. Other processes: process 7 (18.00 GiB) holds 18.00 GiB");
    }
}
