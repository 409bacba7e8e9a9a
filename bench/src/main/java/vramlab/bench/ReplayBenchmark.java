package vramlab.bench;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
import vramlab.replay.SummaryListener;
import vramlab.trace.ReadAhead;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceReader;
import vramlab.units.Bytes;

/**
 * Events per second of a replay at about 1k, 10k, 100k and 1M live blocks: the whole replay
 * path (handle table, allocator, and the launcher's own listener, {@link SummaryListener}).
 * Each invocation starts a fresh allocator, fills it to the live level untimed (the trace's
 * first events, until {@code live} handles are live), and then times the next 1M events, which
 * churn around that level. The score is in operations per second, one operation per event. At
 * 1M live the sizes are scaled down ({@link #SCALE_1M}) so that the blocks fit the 1 TiB card.
 *
 * <pre>
 * mvn -q -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar ReplayBenchmark
 * java -jar bench/target/benchmarks.jar ReplayBenchmark -f 1 -wi 2 -i 3 -p live=1000,100000 -p policy=toy,pytorch
 * </pre>
 * {@code replay} hands the replay prebuilt {@link TraceEvent}s (the iterator path, as the
 * advisor and the tests use it); {@code replayText} times the same churn read from its text in
 * memory through {@link TraceReader}'s cursor, the path {@code ./vramlab replay} takes for a
 * short trace file (less the process start and the file), and {@code replayAhead} through the
 * read-ahead cursor on a second thread, its path for a longer one. The end-to-end figure (text trace through
 * the launcher, beside a C++ replay) is {@code bench/e2e.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx4g"})
public class ReplayBenchmark {
    static final int EVENTS = 1_000_000;

    /**
     * At 1M live the sizes are an eighth of the others' (SteadyTrace.scaledDown(3)): a million
     * blocks of the usual mix would need about 2.5 TiB, more than the card's 1 TiB.
     */
    static final int SCALE_1M = 3;

    @Param({"1000", "10000", "100000", "1000000"})
    int live;

    @Param({"toy", "pytorch", "pytorch+expandable"})
    String policy;

    /**
     * {@code mixed}: SteadyTrace's mixed sizes, no empty_cache (the default, as before issue 38);
     * {@code uniform}: issue 38's workload, requests of 1-24 MiB with 2% empty_cache, so segments
     * are given back and cudaMalloc'd anew all run long (at 100k live the 1 TiB card is full and
     * many requests end in OOM). Choose with {@code -p workload=mixed,uniform}.
     */
    @Param({"mixed"})
    String workload;

    List<TraceEvent> fill;
    List<TraceEvent> churn;
    byte[] churnText;
    Replayer replayer;
    CachingAllocator allocator;

    @Setup(Level.Trial)
    public void makeTrace() {
        SteadyTrace t = workload.equals("uniform")
                ? new SteadyTrace(live, 42, 20).uniformSizes(Bytes.MiB, 24 * Bytes.MiB)
                : new SteadyTrace(live, 42).scaledDown(live >= 1_000_000 ? SCALE_1M : 0);
        fill = new ArrayList<>();
        while (t.liveHandles() < live) fill.add(t.next());
        churn = new ArrayList<>(EVENTS);
        for (int i = 0; i < EVENTS; i++) churn.add(t.next());
        StringBuilder text = new StringBuilder(EVENTS * 16);
        for (TraceEvent e : churn) {
            switch (e.op()) {
                case ALLOC -> text.append("alloc ").append(e.handle()).append(' ').append(e.size()).append('\n');
                case FREE -> text.append("free ").append(e.handle()).append('\n');
                case EMPTY_CACHE -> text.append("empty_cache\n");
            }
        }
        churnText = text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** A fresh allocator at the live level: the fill is not timed (an invocation lasts seconds). */
    @Setup(Level.Invocation)
    public void fill() {
        allocator = new CachingAllocator(new Gpu(Bytes.TiB).openToyProcess(),
                policy.equals("pytorch+expandable") ? Policies.create("pytorch", "expandable_segments:True")
                        : Policies.create(policy, ""));
        // the launcher's own listener (its peaks; no handle strings, no event objects on the text
        // path), printing its OOMs, if any, to nowhere
        replayer = new Replayer(allocator, new SummaryListener(new PrintStream(OutputStream.nullOutputStream())),
                "bench", false);
        replayer.replay(fill.iterator());
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long replay() {
        replayer.replay(churn.iterator());
        return replayer.steps() + allocator.reserved();
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long replayText() {
        replayer.replay(new TraceReader(new ByteArrayInputStream(churnText), "bench"));
        return replayer.steps() + allocator.reserved();
    }

    /**
     * The same text read ahead on a second thread, which also tracks the handles
     * ({@link Replayer#readAhead}): the launcher's path for a trace file of over a megabyte.
     */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long replayAhead() {
        try (ReadAhead events = replayer.readAhead(new ByteArrayInputStream(churnText), "bench")) {
            replayer.replay(events);
        }
        return replayer.steps() + allocator.reserved();
    }
}
