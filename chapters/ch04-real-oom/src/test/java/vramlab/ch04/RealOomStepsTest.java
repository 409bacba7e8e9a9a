package vramlab.ch04;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.OomReport;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Sim;
import vramlab.alloc.SimExp;
import vramlab.alloc.ToyPolicy;
import vramlab.quiz.Graded;

/** The graded steps of chapter 4: the toy's OOM message and the expandable twin. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RealOomStepsTest {

    @Graded(step = "4.1", points = 2)
    @Test
    @DisplayName("the toy's message carries the state's numbers in the seed's format")
    void oomMessageFormat() {
        OomReport r = new OomReport(mib(8), mib(8), mib(20), PoolKind.LARGE, mib(40), 0,
                mib(24), mib(40), mib(4));
        assertThat(new ToyPolicy().oomMessage(r)).isEqualTo("CUDA out of memory. Tried to allocate 20 MiB "
                + "(device 40 MiB; 40 MiB reserved; 16 MiB is reserved but unallocated; largest free block 4 MiB)");
    }

    @Graded(step = "4.1", points = 2)
    @Test
    @DisplayName("a fragmented card raises the message with free >= request")
    void oomFromTheScenario() {
        Sim sim = new Sim(mib(40));
        List<Block> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(sim.alloc(mib(3) + 1));
            sim.alloc(mib(5) + 1);
        }
        four.forEach(sim::free);
        assertThatThrownBy(() -> sim.alloc(mib(9)))
                .as("%s", sim).isInstanceOf(CudaOutOfMemoryError.class)
                .hasMessageContaining("Tried to allocate 20 MiB")
                .hasMessageContaining("16 MiB is reserved but unallocated")
                .hasMessageContaining("largest free block 4 MiB");
    }

    @Graded(step = "4.2", points = 3)
    @Test
    @DisplayName("SimExp maps whole 2 MiB pages at the top of its arena")
    void simExpAlloc() {
        SimExp exp = new SimExp(mib(40));
        SimExp.Mapping a = exp.alloc(mib(3) + 1);
        SimExp.Mapping b = exp.alloc(100);
        assertThat(a.offset()).isZero();
        assertThat(a.size()).isEqualTo(mib(4));
        assertThat(b.offset()).isEqualTo(mib(4));
        assertThat(exp.mapped()).isEqualTo(mib(6));
        assertThatThrownBy(() -> exp.alloc(mib(40))).isInstanceOf(CudaOutOfMemoryError.class);
        assertThat(exp.mapped()).as("a failed alloc keeps nothing").isEqualTo(mib(6));
    }

    @Graded(step = "4.3", points = 3)
    @Test
    @DisplayName("SimExp's free returns pages at once, so the 8 MiB request that failed before fits")
    void simExpFree() {
        SimExp exp = new SimExp(mib(40));
        List<SimExp.Mapping> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(exp.alloc(mib(3) + 1));
            exp.alloc(mib(5) + 1);
        }
        four.forEach(exp::free);
        assertThat(exp.mapped()).isEqualTo(mib(24));
        SimExp.Mapping p = exp.alloc(mib(8));
        assertThat(p.offset()).isEqualTo(mib(40));
        assertThat(exp.mapped()).isEqualTo(mib(32));
    }
}
