package vramlab.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import vramlab.alloc.CachingAllocator;
import vramlab.driver.Gpu;
import vramlab.replay.Policies;
import vramlab.replay.Replayer;
import vramlab.trace.TraceEvent;
import vramlab.units.Bytes;

/**
 * Events per second of a 1M-event replay at about 1k, 10k and 100k live blocks (1M with
 * {@code -p live=1000000}): the whole replay path (handle table, allocator, listener call), on
 * one thread. The score is in operations per second, one operation per event.
 *
 * <pre>
 * mvn -q -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar ReplayBenchmark
 * java -jar bench/target/benchmarks.jar ReplayBenchmark -f 1 -wi 2 -i 3 -p live=1000,100000 -p policy=toy,pytorch
 * </pre>
 * The end-to-end figure (text trace through the launcher, beside a C++ replay) is
 * {@code bench/e2e.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class ReplayBenchmark {
    static final int EVENTS = 1_000_000;

    @Param({"1000", "10000", "100000"})
    int live;

    @Param({"toy", "pytorch", "pytorch+expandable"})
    String policy;

    List<TraceEvent> events;

    @Setup(Level.Trial)
    public void makeTrace() {
        events = SteadyTrace.events(EVENTS, live, 42);
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long replay() {
        CachingAllocator a = new CachingAllocator(new Gpu(Bytes.TiB).openToyProcess(),
                policy.equals("pytorch+expandable") ? Policies.create("pytorch", "expandable_segments:True")
                        : Policies.create(policy, ""));
        long[] sink = {0};
        Replayer r = new Replayer(a, (step, e, result, bytes, alloc) -> sink[0] += bytes, "bench", false);
        r.replay(events.iterator());
        return sink[0] + a.reserved();
    }
}
