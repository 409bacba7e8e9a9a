package vramlab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import vramlab.contest.Contestant;
import vramlab.contest.Entries;
import vramlab.judge.Judge;
import vramlab.judge.Run;
import vramlab.trace.TraceEvent;
import vramlab.units.Bytes;

class WorkloadsTest {
    private static List<Workload> small(long seed) {
        return List.of(Workloads.trainingStep(seed, 1), Workloads.llmServing(seed, 4), Workloads.ratchetingBatches(seed, 2),
                Workloads.diffusionSampling(seed, 2), Workloads.finetuneCheckpointed(seed, 1));
    }

    @Test
    void theSameSeedGivesTheSameTraceAndAnotherSeedAnotherOne() {
        assertThat(Workloads.llmServing(3, 6).events()).isEqualTo(Workloads.llmServing(3, 6).events());
        assertThat(Workloads.llmServing(3, 6).events()).isNotEqualTo(Workloads.llmServing(4, 6).events());
    }

    @Test
    void everyTraceFreesWhatItAllocatesAndEndsWithEmptyCache() {
        for (Workload w : small(1)) {
            Set<String> live = new HashSet<>();
            long line = 0;
            for (TraceEvent e : w.events()) {
                assertThat(e.line()).isEqualTo(++line);
                switch (e.op()) {
                    case ALLOC -> assertThat(live.add(e.handle())).as(w.name() + " line " + line).isTrue();
                    case FREE -> assertThat(live.remove(e.handle())).as(w.name() + " line " + line).isTrue();
                    case EMPTY_CACHE -> { }
                }
            }
            assertThat(live).as(w.name()).isEmpty();
            assertThat(w.events().get(w.events().size() - 1).op()).isEqualTo(TraceEvent.Op.EMPTY_CACHE);
        }
    }

    @Test
    void aLayersActivationsAreKorthikantisSbhTimes34Plus5asOverH() {
        Transformer m = Transformer.GPT2_MEDIUM;
        long s = 1024, b = 4, sum = 0;
        for (long a : m.layerActivations(s, b)) sum += a;
        assertThat(sum).isEqualTo(s * b * m.hidden() * 34 + 5 * m.heads() * s * s * b);
    }

    @Test
    void llamaTwoSevenBHoldsAboutSixPointSevenBillionParametersAndHalfAMebibyteOfKvAToken() {
        Transformer m = Transformer.LLAMA2_7B;
        long params = 2 * m.vocab() * m.hidden() + m.hidden();
        for (long p : m.layerWeights()) params += p * m.layers();
        assertThat(params).isBetween(6_700_000_000L, 6_800_000_000L);   // the paper's "7B" is 6.74B
        assertThat(2L * m.layers() * m.hidden() * 2).isEqualTo(512 * Bytes.KiB);
    }

    @Test
    void everyEntryPassesEveryCheckOnTheSmallWorkloads() {
        for (Workload w : small(5)) {
            for (Contestant c : Entries.all()) {
                Run r = Judge.run(c, w);
                assertThat(r.broken()).as(c + " on " + w).isNull();
                assertThat(r.peakReserved()).as(c + " on " + w).isGreaterThanOrEqualTo(r.peakRequested());
            }
        }
    }
}
