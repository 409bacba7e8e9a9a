package vramlab.ch04.causes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchOomMessage;
import vramlab.triage.Diagnosis;
import vramlab.triage.Figure;
import vramlab.triage.Sizes;
import vramlab.triage.Triage;
import vramlab.units.Bytes;

/**
 * Every scenario's message, fed to the triage, gives back the scenario's own cause and the
 * simulator's numbers. A printed figure has two decimals, so each expected number is the
 * simulator's bytes printed by format_size and read back.
 */
@DisplayName("Scenarios round-trip through the triage")
class RoundTripTest {
    /**
     * Seeds per scenario: toy 1-3 and real rules 1-2 in a plain {@code mvn test} (each run is
     * up to a few seconds: the scenario checks every invariant after every call); toy 1-8 and
     * real rules 1-4 under {@code -Pall-seeds}, which {@code .ci/run} runs.
     */
    static final boolean ALL_SEEDS = Boolean.getBoolean("vramlab.allSeeds");
    static final int TOY_SEEDS = ALL_SEEDS ? 8 : 3, REAL_RULES_SEEDS = ALL_SEEDS ? 4 : 2;

    static Stream<Arguments> runs() {
        List<Arguments> runs = new ArrayList<>();
        for (Scenario s : Causes.all()) {
            for (long seed = 1; seed <= TOY_SEEDS; seed++) runs.add(Arguments.of(s.name(), "toy", seed));
            for (long seed = 1; seed <= REAL_RULES_SEEDS; seed++) {
                runs.add(Arguments.of(s.name(), "real-rules", seed));
            }
        }
        return runs.stream();
    }

    private static long printed(long bytes) {
        return Sizes.parse(Bytes.formatSize(bytes)).orElseThrow();
    }

    private static Policy policy(String name) {
        return name.equals("toy") ? Causes.defaultPolicy() : new RealRulesPolicy();
    }

    @ParameterizedTest(name = "{0}, {1} policy, seed {2}")
    @MethodSource("runs")
    @DisplayName("the triage names the scenario's cause and reads the simulator's numbers, seed by seed")
    void roundTrip(String name, String policy, long seed) {
        Scenario s = Causes.named(name);
        Outcome o = s.run(policy(policy), seed);
        PyTorchOomMessage.Facts f = o.facts();
        Diagnosis d = Triage.of(o.pasted());
        String why = o.pasted() + "\n" + d.text();

        assertThat(d.cause()).as(why).isEqualTo(s.cause());
        assertThat(d.reading().get(Figure.REQUESTED)).as(why).isEqualTo(printed(f.tried()));
        assertThat(d.reading().get(Figure.DEVICE)).isEqualTo(f.device());
        assertThat(d.reading().get(Figure.CAPACITY)).isEqualTo(printed(f.total()));
        assertThat(d.reading().get(Figure.FREE)).isEqualTo(printed(f.free()));
        assertThat(d.reading().get(Figure.ALLOCATED_BY_PYTORCH)).isEqualTo(printed(f.allocated() + f.privatePools()));
        assertThat(d.reading().get(Figure.RESERVED_BUT_UNALLOCATED))
                .isEqualTo(printed(f.reserved() - f.allocated() - f.privatePools()));
        assertThat(d.reading().get(Figure.PRIVATE_POOLS)).isEqualTo(f.privatePools() > 0 ? printed(f.privatePools()) : 0);
        long others = 0, self = -1;
        for (PyTorchOomMessage.ProcessUsage p : f.processes()) {
            if (p.isThisProcess()) self = printed(p.bytes());
            else others += printed(p.bytes());
        }
        assertThat(d.reading().get(Figure.THIS_PROCESS)).isEqualTo(self);
        assertThat(d.reading().get(Figure.OTHER_PROCESSES)).isEqualTo(others);
        assertThat(d.reading().missing()).isEmpty();

        // the facts themselves are the simulator's: it failed for want of room, and what the
        // processes hold plus what is free is at most the card (the rest is the driver's)
        long held = 0;
        for (PyTorchOomMessage.ProcessUsage p : f.processes()) held += p.bytes();
        assertThat(f.free()).isBetween(0L, f.tried() - 1);
        assertThat(held + f.free()).isLessThanOrEqualTo(f.total());
        assertThat(f.reserved()).isGreaterThanOrEqualTo(f.allocated() + f.privatePools());
    }

    @Test
    @DisplayName("the lab prints every scenario with its message and the triage's verdict")
    void lab() {
        var buf = new java.io.ByteArrayOutputStream();
        Causes.runCauses(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
        String out = buf.toString(java.nio.charset.StandardCharsets.UTF_8);
        for (Scenario s : Causes.all()) {
            assertThat(out).contains("(" + s.name() + ")").contains("triage:  " + s.cause());
        }
    }
}
