package vramlab.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import vramlab.buddy.BuddyAllocator;
import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;

/**
 * Buddy allocator operations per second at 1M operations: a 1 GiB pool of 4 KiB to 1 GiB
 * blocks, random sizes, about half the live blocks freed as it goes (alloc and free each count
 * as one operation); and the worst case, one minimum-size block allocated and freed in an empty
 * pool, which splits and merges through every order.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar BuddyBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class BuddyBenchmark {
    static final int OPS = 1_000_000;

    @Benchmark
    @OperationsPerInvocation(OPS)
    public long randomAllocFree() {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(4L << 30).openToyProcess(), 1L << 30, 12, 30);
        SplittableRandom r = new SplittableRandom(11);
        long[] live = new long[4096];
        int n = 0;
        long sum = 0;
        for (int op = 0; op < OPS; op++) {
            if (n > 0 && (n == live.length || r.nextBoolean())) {
                int i = r.nextInt(n);
                b.free(live[i]);
                live[i] = live[--n];
            } else {
                try {
                    live[n++] = b.alloc(1 + r.nextLong(1L << 20));
                } catch (BuddyOutOfMemoryError e) {
                    n--;
                }
            }
            sum += n;
        }
        return sum + b.allocated();
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public long splitAndMergeEveryOrder() {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(4L << 30).openToyProcess(), 1L << 30, 12, 30);
        long sum = 0;
        for (int op = 0; op < OPS / 2; op++) {
            long a = b.alloc(1);
            b.free(a);
            sum += a;
        }
        return sum;
    }

    /** The paged alternative for comparison: vLLM-style block tables, one sequence at a time. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long pagedAllocateSlots() {
        return PagedOps.run(OPS);
    }

    static final class PagedOps {
        static long run(int ops) {
            KvCacheManager m = new KvCacheManager(new KvBlockPool(new Gpu(1L << 40).openToyProcess(), 65_536, 16, 1L << 21));
            SplittableRandom r = new SplittableRandom(5);
            long sum = 0;
            int seq = 0;
            for (int op = 0; op < ops; op += 2) {
                String id = "s" + (seq++ % 512);
                if (m.allocateSlots(id, 1 + r.nextInt(512))) sum++;
                m.free(id);
            }
            return sum;
        }
    }
}
