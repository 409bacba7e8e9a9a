package vramlab.ch04.exercises;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.ch04.RealOomChapter;
import vramlab.kit.Exercise;
import vramlab.triage.Triage;
import vramlab.units.Bytes;

/**
 * Each exercise's answer, for several seeds, against a model written here from the rules alone
 * (arithmetic on the plan, no allocator), or against how the scenario was built.
 */
class ExercisesTest {

    static long up(long n, long step) { return (n + step - 1) / step * step; }

    @Nested
    @DisplayName("FreeVersusFit")
    class FreeVersusFitTest {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
        @DisplayName("free, largest hole, fit, expandable fit and emptyCache follow from the hole arithmetic")
        void holeArithmetic(long seed) {
            FreeVersusFit.Plan p = FreeVersusFit.plan(seed);
            assertThat(up(p.sizeA(), mib(2))).isEqualTo(mib(p.a()));   // the sizes round as the plan says
            assertThat(up(p.sizeB(), mib(2))).isEqualTo(mib(p.b()));
            assertThat(p.sizeA()).isGreaterThan(mib(1));                 // both in the large pool
            long holes = (long) p.pairs() * mib(p.a());
            long rounded = up(p.request(), mib(2));
            boolean fits = rounded <= mib(p.a());
            long mapped = (long) p.pairs() * mib(p.b());
            boolean fitsExp = mapped + rounded <= p.device();
            FreeVersusFit.Result r = FreeVersusFit.run(seed);
            assertThat(r.free()).isEqualTo(holes);
            assertThat(r.largest()).isEqualTo(mib(p.a()));
            assertThat(r.fits()).isEqualTo(fits);
            if (!fits) assertThat(r.tried()).isEqualTo(Math.max(mib(20), rounded));
            assertThat(r.fitsExpandable()).isEqualTo(fitsExp);
            assertThat(r.mappedAfter()).isEqualTo(fitsExp ? mapped + rounded : mapped);
            assertThat(r.released()).isZero();
            assertThat(new FreeVersusFit().answer(seed)).contains("free in the cache: " + Bytes.readable(holes));
        }
    }

    @Nested
    @DisplayName("ReadTheMessage")
    class ReadTheMessageTest {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
        @DisplayName("the answer names the cause the scenario was built to show, and triage agrees")
        void namesTheStagedCause(long seed) {
            var s = ReadTheMessage.scenario(seed);
            var o = ReadTheMessage.outcome(seed);
            assertThat(o.cause()).isEqualTo(s.cause());
            assertThat(Triage.of(o.pasted()).cause().step()).isEqualTo(s.cause().step());
            assertThat(new ReadTheMessage().answer(seed)).startsWith("Built to show: " + s.cause());
            assertThat(new ReadTheMessage().prompt(seed)).doesNotContain("Built to show");
        }
    }

    @Nested
    @DisplayName("PlanTheCapacity")
    class PlanTheCapacityTest {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
        @DisplayName("requested, allocated, reserved and nvidia-smi follow from PyTorch's rounding and segment rules")
        void segmentArithmetic(long seed) {
            PlanTheCapacity.Plan p = PlanTheCapacity.plan(seed);
            long requested = 0;
            long allocated = 0;
            long reserved = 0;
            for (long n : p.large()) {                       // >= 10 MiB: a segment of its own
                requested += n;
                long block = up(n, 512);
                long segment = up(block, mib(2));
                allocated += segment - block > mib(1) ? block : segment;   // a tail of 1 MiB or less stays in
                reserved += segment;
            }
            long small = up(p.smallSize(), 512);             // small: packed into 2 MiB segments
            long perSegment = mib(2) / small;
            long segments = (p.smallCount() + perSegment - 1) / perSegment;
            requested += p.smallSize() * p.smallCount();
            allocated += small * p.smallCount();
            reserved += segments * mib(2);
            long smi = reserved + p.context();
            boolean fits = smi <= p.capacity() - p.reserve();
            PlanTheCapacity.Peak k = PlanTheCapacity.run(seed);
            assertThat(k.fits()).isEqualTo(fits);
            if (fits) {
                assertThat(k.requested()).isEqualTo(requested);
                assertThat(k.allocated()).isEqualTo(allocated);
                assertThat(k.reserved()).isEqualTo(reserved);
                assertThat(k.nvidiaSmi()).isEqualTo(smi);
                assertThat(new PlanTheCapacity().answer(seed)).contains("reserved " + Bytes.readable(reserved));
            }
            assertThat(p.smallSize()).isLessThan(kib(66));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("the chapter registers three exercises that prompt without the answer and answer the same twice")
    void registered(long seed) {
        List<Exercise> all = new RealOomChapter().exercises();
        assertThat(all).hasSize(3);
        for (Exercise e : all) {
            assertThat(e.prompt(seed)).isNotBlank().isEqualTo(e.prompt(seed));
            assertThat(e.answer(seed)).isNotBlank().isEqualTo(e.answer(seed));
            assertThat(e.prompt(seed)).doesNotContain(e.answer(seed));
        }
    }
}
