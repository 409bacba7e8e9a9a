package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.alloc.ToyPolicy;

/**
 * What every contender must do, whatever its policy: one contract, run on each. A new
 * contender (PyTorch's policy, expandable segments) joins by adding a line to {@link #all()}.
 */
class KvContenderContractTest {
    static final long PER_TOKEN = ModelShape.LLAMA_3_8B.kvBytesPerToken();
    static final KvContender.Setup SETUP = new KvContender.Setup(gib(1), PER_TOKEN);

    static Stream<KvContender.Factory> all() {
        return Stream.of(KvContender.caching("caching-toy", new ToyPolicy()),
                KvContender.caching("pytorch", new vramlab.alloc.PyTorchPolicy()),
                KvContender.caching("pytorch+expseg", new vramlab.alloc.PyTorchPolicy(
                        vramlab.alloc.AllocConf.parse("expandable_segments:True"))),
                KvContender.buddy(),
                KvContender.buddyOnDemand(), KvContender.buddyCompacting(), KvContender.paged(16), KvContender.paged(64));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    @DisplayName("an empty contender admits its longest sequence, grows it and gives everything back")
    void emptyRoundTrip(KvContender.Factory f) {
        KvContender c = f.create(SETUP);
        long free = c.freeBytes(), n = c.maxSequenceTokens();
        assertThat(c.largestServableTokens()).isGreaterThanOrEqualTo(n);
        assertThat(c.admit(1, n / 2)).isTrue();
        assertThat(c.grow(1, n)).isTrue();
        c.checkInvariants();
        c.release(1);
        c.checkInvariants();
        assertThat(c.freeBytes()).isEqualTo(free);
        assertThat(c.requestedBytes()).isZero();
        assertThat(c.allocatedBytes()).isZero();
    }

    @ParameterizedTest(name = "{0}, seed 5")
    @MethodSource("all")
    @DisplayName("under seeded random admits, growth and releases, requested <= allocated <= budget and reserved")
    void countersStayOrdered(KvContender.Factory f) {
        KvContender c = f.create(SETUP);
        Random rnd = new Random(5);
        List<long[]> live = new ArrayList<>();               // {seq, tokens}
        for (int step = 0, next = 0; step < 3000; step++) {
            int op = rnd.nextInt(10);
            if (op < 3) {
                long t = 16 + rnd.nextInt(600);
                if (c.admit(next, t)) live.add(new long[] {next, t});
                next++;
            } else if (op < 9 && !live.isEmpty()) {
                long[] s = live.get(rnd.nextInt(live.size()));
                if (c.grow((int) s[0], s[1] + 1)) s[1]++;
            } else if (!live.isEmpty()) {
                c.release((int) live.remove(rnd.nextInt(live.size()))[0]);
            }
            c.checkInvariants();
            long tokens = live.stream().mapToLong(s -> s[1]).sum();
            assertThat(c.requestedBytes()).as("step " + step).isEqualTo(tokens * PER_TOKEN);
            assertThat(c.allocatedBytes()).as("step " + step).isGreaterThanOrEqualTo(c.requestedBytes());
            assertThat(c.allocatedBytes()).as("step " + step).isLessThanOrEqualTo(Math.min(SETUP.budgetBytes(), c.reservedBytes()));
            assertThat(c.freeBytes()).as("step " + step).isLessThanOrEqualTo(SETUP.budgetBytes() - c.allocatedBytes());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    @DisplayName("a failed grow changes nothing the caller can see")
    void failedGrowIsNoOp(KvContender.Factory f) {
        KvContender c = f.create(SETUP);
        int seq = 0;
        while (c.admit(seq, 512)) seq++;                   // fill the budget
        boolean failed = false;
        for (int s = 0; s < seq && !failed; s++) {
            long allocated = c.allocatedBytes(), requested = c.requestedBytes(), free = c.freeBytes();
            if (!c.grow(s, 512 * 4)) {
                failed = true;
                c.checkInvariants();
                assertThat(c.allocatedBytes()).isEqualTo(allocated);
                assertThat(c.requestedBytes()).isEqualTo(requested);
                assertThat(c.freeBytes()).isEqualTo(free);
            }
        }
        assertThat(failed).as("a full budget must refuse to quadruple every sequence").isTrue();
    }
}
