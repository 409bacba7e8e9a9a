package vramlab.bench;

import java.util.SplittableRandom;
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

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;

/**
 * Translations per second through the GMMU's five-level walk, with and without a TLB, over
 * 1 GiB mapped as 2 MiB, 64 KiB or 4 KiB pages. Addresses are either a sequential sweep (the
 * TLB's best case: one entry serves a whole page) or seeded random (its worst).
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar TranslateBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class TranslateBenchmark {
    static final int BATCH = 65_536;
    static final long VA = 1L << 40;
    static final long MAPPED = 1L << 30;

    @Param({"SIZE_2M", "SIZE_64K", "SIZE_4K"})
    PageSize page;

    @Param({"0", "64"})
    int tlbEntries;

    @Param({"sequential", "random"})
    String pattern;

    AddressSpace space;
    long[] addresses;

    @Setup(Level.Trial)
    public void map() {
        space = new AddressSpace(MmuFormat.VER2, tlbEntries == 0 ? null : new Tlb(tlbEntries));
        for (long off = 0; off < MAPPED; off += page.bytes()) {
            space.map(VA + off, Pte.local(page, off, Access.READWRITE, 0));
        }
        addresses = new long[BATCH];
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < BATCH; i++) {
            addresses[i] = VA + (pattern.equals("random") ? r.nextLong(MAPPED) : (long) i * 256 % MAPPED);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long translate() {
        long sum = 0;
        for (long va : addresses) sum += space.translate(va).physical();
        return sum;
    }
}
