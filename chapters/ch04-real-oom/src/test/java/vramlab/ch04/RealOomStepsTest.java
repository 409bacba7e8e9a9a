package vramlab.ch04;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.OomReport;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Sim;
import vramlab.alloc.SimExp;
import vramlab.alloc.ToyPolicy;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;

/** The graded steps of chapter 4: the toy's OOM message and the expandable twin. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
@ExtendWith(StepOrder.class)
class RealOomStepsTest {

    /** Step 4.1's report: 8 MiB asked, a 20 MiB segment tried, 40 MiB reserved, 24 MiB of it allocated. */
    static final OomReport REPORT = new OomReport(mib(8), mib(8), mib(20), PoolKind.LARGE, mib(40), 0,
            mib(24), mib(40), mib(4));
    static final String MESSAGE = "CUDA out of memory. Tried to allocate 20 MiB "
            + "(device 40 MiB; 40 MiB reserved; 16 MiB is reserved but unallocated; largest free block 4 MiB)";

    @Graded(step = "4.1", points = 2)
    @Test
    @DisplayName("the toy's message carries the state's numbers in its own format")
    void oomMessageFormat() {
        Ch04Feedback.OOM.check("oomMessage(" + REPORT + ")", REPORT, new ToyPolicy().oomMessage(REPORT), MESSAGE);
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
        assertThat(StepOrder.thrownBy(() -> sim.alloc(mib(9))))
                .as("what alloc(9 MiB) throws; %s", sim).isInstanceOf(CudaOutOfMemoryError.class)
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
        var alloc = Ch04Feedback.SIMEXP_ALLOC;
        alloc.check("the offset of alloc(3 MiB + 1 B), the first mapping", "offset", a.offset(), 0L, exp::toString);
        alloc.check("the size of alloc(3 MiB + 1 B)", "size", a.size(), mib(4), exp::toString);
        alloc.check("the offset of the next alloc(100)", "offset", b.offset(), mib(4), exp::toString);
        alloc.check("mapped() after both", "mapped", exp.mapped(), mib(6), exp::toString);
        assertThat(StepOrder.thrownBy(() -> exp.alloc(mib(40)))).as("what alloc(40 MiB) throws on a 40 MiB card")
                .isInstanceOf(CudaOutOfMemoryError.class);
        alloc.check("mapped() after the failed alloc(40 MiB)", "mapped after OOM", exp.mapped(), mib(6), exp::toString);
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
        Ch04Feedback.SIMEXP_FREE.check("mapped() after freeing the four 4 MiB mappings", "mapped", exp.mapped(), mib(24),
                exp::toString);
        SimExp.Mapping p = exp.alloc(mib(8));
        Ch04Feedback.SIMEXP_FREE.check("the offset of the next alloc(8 MiB)", "offset", p.offset(), mib(40),
                exp::toString);
        Ch04Feedback.SIMEXP_FREE.check("mapped() after it", "mapped", exp.mapped(), mib(32), exp::toString);
    }
}
