package vramlab.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.alloc.CachingAllocator;
import vramlab.contest.Contestant;
import vramlab.contest.Entries;
import vramlab.driver.CostModel;
import vramlab.driver.Gpu;
import vramlab.replay.Policies;
import vramlab.replay.Replayer;
import vramlab.replay.SummaryListener;
import vramlab.trace.TraceReader;
import vramlab.units.Bytes;
import vramlab.workload.Workload;
import vramlab.workload.Workloads;

/**
 * PyTorch's default and expandable entries, judged, agree with {@code ./vramlab replay} of the
 * same workload written as a text trace (the launcher's path: a toy process on a card of the
 * workload's size, {@link Policies#create}): the peaks the replay's summary prints, the step of
 * its first OOM, and the driver's bill.
 */
class AgreesWithReplayTest {
    static Stream<Arguments> cases() {
        Workload train = Workloads.trainingStep(7, 1);
        Workload tight = new Workload("training-step-16g", Bytes.gib(16), "", "", train.events());
        return Stream.of(Entries.PYTORCH, Entries.EXPANDABLE).flatMap(c -> Stream.of(
                Arguments.of(c, train), Arguments.of(c, tight), Arguments.of(c, Workloads.llmServing(7, 4)),
                Arguments.of(c, Workloads.ratchetingBatches(7, 3)), Arguments.of(c, Workloads.diffusionSampling(7, 2))));
    }

    private static final Pattern PEAK = Pattern.compile("(?m)^peak\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)$");
    private static final Pattern OOM = Pattern.compile("(?m)^OOM at step (\\d+) ");

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void theJudgedEntryAndTheReplayAgree(Contestant entry, Workload w) {
        StringWriter text = new StringWriter();
        w.writeTrace(text);
        String conf = entry == Entries.EXPANDABLE ? "expandable_segments:True" : "";
        CachingAllocator a = new CachingAllocator(new Gpu(w.card()).openToyProcess(), Policies.create("pytorch", conf));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        SummaryListener summary = new SummaryListener(print);
        new Replayer(a, summary, "w.trace", false).replay(
                new TraceReader(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)), "w.trace"));
        summary.finish(a);
        String printed = out.toString(StandardCharsets.UTF_8);

        Run run = Judge.run(entry, w);

        Matcher oom = OOM.matcher(printed);
        if (oom.find()) {
            assertThat(run.fit()).as("the replay ran out of memory").isFalse();
            assertThat(run.oomStep()).isEqualTo(Long.parseLong(oom.group(1)));
        } else {
            assertThat(run.fit()).as(run.broken() == null ? run.oom() : run.broken().toString()).isTrue();
            assertThat(run.driverCalls()).isEqualTo(driverCalls(a));
            assertThat(run.driverMicros()).isEqualTo(CostModel.ORDER_OF_MAGNITUDE.totalMicros(a.process()));
        }
        Matcher peak = PEAK.matcher(printed);
        assertThat(peak.find()).as(printed).isTrue();
        if (run.fit()) assertThat(run.peakRequested()).isEqualTo(Long.parseLong(peak.group(1)));
        assertThat(run.peakReserved()).isEqualTo(Long.parseLong(peak.group(3)));
    }

    private static long driverCalls(CachingAllocator a) {
        long n = 0;
        for (vramlab.driver.DriverCall c : vramlab.driver.DriverCall.values()) n += a.process().driverCalls(c);
        return n;
    }
}
