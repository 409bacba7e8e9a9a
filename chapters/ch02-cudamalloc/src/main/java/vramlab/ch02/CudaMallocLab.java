package vramlab.ch02;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.ToyPolicy;
import vramlab.driver.CostModel;
import vramlab.driver.CudaException;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.driver.NvidiaSmi;
import vramlab.gmmu.Access;
import vramlab.kit.Scenario;
import vramlab.units.Bytes;
import vramlab.units.SeededRandom;

/**
 * The cudaMalloc lab: small requests packed into shared pages and the rounding tax of large ones,
 * the cost of calling the driver once per tensor against a caching allocator, the VMM calls one
 * at a time, and what nvidia-smi counts. Times come from {@link CostModel#ORDER_OF_MAGNITUDE}:
 * illustrations, not measurements.
 */
public final class CudaMallocLab {
    /** Sizes that show both rules: tiny, half a page, the largest packed, one byte over, large. */
    static final long[] SIZES = {64, kib(512), mib(1), mib(1) + 1, mib(2), mib(3) + 1, mib(5) + 1,
        mib(20), mib(100) + 1};

    private CudaMallocLab() {}

    public static void main(String[] args) { run(System.out); }

    public static void run(PrintStream out) { Scenario.runAll(out, scenarios()); }

    /** The lab's scenarios, in the notes' order; each runs on its own (see {@link Scenario}). */
    public static List<Scenario> scenarios() {
        return List.of(
                new Scenario("1. Small requests share a page; large ones pay the 2 MiB rounding tax", CudaMallocLab::roundingTax),
                new Scenario("2. One driver call per tensor, against a caching allocator",
                        out -> perTensor(out, 3, 1000, 2026)),
                new Scenario("3. The VMM calls, one step at a time", CudaMallocLab::vmm),
                new Scenario("4. What nvidia-smi counts", CudaMallocLab::smi));
    }

    // tag::tax[]
    /**
     * cudaMalloc each size, in order, on one fresh toy GPU: what each takes, what it makes the
     * driver map, and what is mapped in all.
     */
    public static GpuProcess roundingTax(PrintStream out) {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        for (long size : SIZES) {
            long pages = p.driverPages(DriverCall.CUDA_MALLOC);
            long ptr = p.cudaMalloc(size);
            long took = p.allocationSize(ptr);
            long mapped = (p.driverPages(DriverCall.CUDA_MALLOC) - pages) * Gpu.PAGE;
            out.printf("cudaMalloc(%12s) %-17s takes %10s, maps %10s, tax %11s\n", size + " B",
                    p.isPacked(ptr) ? "in a shared page:" : "in its own pages:", Bytes.formatSize(took),
                    Bytes.formatSize(mapped), Bytes.formatSizeOrOffset(took - size));
        }
        out.println("mapped in all: " + Bytes.formatSize(p.mappedBytes()) + ", the first three in "
                + p.sharedPages() + " shared page");
        return p;
    }
    // end::tax[]

    // tag::perTensor[]
    /**
     * {@code steps} training steps, each allocating then freeing {@code tensors} tensors of
     * seeded random sizes (4 KiB to 8 MiB), once straight through the driver and once through
     * a caching allocator on the same kind of GPU.
     */
    public static long[] perTensor(PrintStream out, int steps, int tensors, long seed) {
        long[] sizes = new SeededRandom(seed).longs(tensors, kib(4), mib(8));
        GpuProcess direct = new Gpu(gib(80)).openToyProcess();
        GpuProcess cached = new Gpu(gib(80)).openToyProcess();
        CachingAllocator allocator = new CachingAllocator(cached, new ToyPolicy());
        for (int s = 0; s < steps; s++) {
            List<Long> ptrs = new ArrayList<>();
            for (long size : sizes) ptrs.add(direct.cudaMalloc(size));
            ptrs.forEach(direct::cudaFree);
            List<Block> blocks = new ArrayList<>();
            for (long size : sizes) blocks.add(allocator.alloc(size));
            blocks.forEach(allocator::free);
        }
        CostModel m = CostModel.ORDER_OF_MAGNITUDE;
        report(out, "cudaMalloc per tensor ", direct, m);
        report(out, "caching allocator     ", cached, m);
        return new long[] {driverCalls(direct), driverCalls(cached)};
    }
    // end::perTensor[]

    private static void report(PrintStream out, String label, GpuProcess p, CostModel m) {
        out.printf("%s: %5d cudaMalloc + %5d cudaFree, modelled driver time %s\n", label,
                p.driverCalls(DriverCall.CUDA_MALLOC), p.driverCalls(DriverCall.CUDA_FREE),
                CostModel.format(m.totalMicros(p)));
    }

    private static long driverCalls(GpuProcess p) {
        return p.driverCalls(DriverCall.CUDA_MALLOC) + p.driverCalls(DriverCall.CUDA_FREE);
    }

    // tag::vmm[]
    /** Reserve, create, map, set access, unmap, release, free; then four misuses and their codes. */
    public static GpuProcess vmm(PrintStream out) {
        GpuProcess p = new Gpu(mib(64)).openToyProcess();
        long va = p.cuMemAddressReserve(mib(8));
        long h = p.cuMemCreate(mib(4));
        p.cuMemMap(va, mib(4), h);
        out.println("after cuMemMap:       " + p.addressSpace().find(va, vramlab.gmmu.PageSize.SIZE_2M));
        p.cuMemSetAccess(va, mib(4), Access.READWRITE);
        out.println("after cuMemSetAccess: " + p.addressSpace().find(va, vramlab.gmmu.PageSize.SIZE_2M));
        long other = p.cuMemCreate(mib(4));
        attempt(out, "cuMemCreate(6912 B)          ", () -> p.cuMemCreate(6912));
        attempt(out, "cuMemUnmap(first 2 MiB of 4) ", () -> p.cuMemUnmap(va, mib(2)));
        attempt(out, "cuMemMap over the mapping    ", () -> p.cuMemMap(va + mib(2), mib(4), other));
        attempt(out, "cuMemAddressFree while mapped", () -> p.cuMemAddressFree(va, mib(8)));
        p.cuMemRelease(other);
        p.cuMemRelease(h);
        out.println("cuMemRelease while mapped: still " + Bytes.toyMiB(p.mappedBytes()) + " held");
        p.cuMemUnmap(va, mib(4));
        p.cuMemAddressFree(va, mib(8));
        out.println("after cuMemUnmap + cuMemAddressFree: " + Bytes.toyMiB(p.mappedBytes()) + " held");
        return p;
    }
    // end::vmm[]

    private static void attempt(PrintStream out, String what, Runnable call) {
        try {
            call.run();
            out.println(what + " -> succeeded");
        } catch (CudaException e) {
            out.println(what + " -> " + e.error());
        }
    }

    // tag::smi[]
    /** A process with a context and some tensors: its tensor sum, and what nvidia-smi shows. */
    public static Gpu smi(PrintStream out) {
        Gpu gpu = new Gpu(0, gib(80), mib(512));
        GpuProcess p = gpu.open(4242, "python", mib(500));
        long tensors = 0;
        for (long size : new long[] {mib(3) + 1, mib(5) + 1, kib(1), gib(1) + 1}) {
            p.cudaMalloc(size);
            tensors += size;
        }
        out.printf("tensors %.2f MiB, mapped %s, context %s\n", tensors / (double) Bytes.MiB,
                Bytes.toyMiB(p.mappedBytes()), Bytes.toyMiB(p.contextBytes()));
        out.println(NvidiaSmi.HEADER);
        out.println(NvidiaSmi.row(p));
        return gpu;
    }
    // end::smi[]

    public static String help() {
        return """
                cudaMalloc lab: what one driver call costs, in bytes and in time. Try:
                  var gpu = new Gpu(0, gib(80), mib(512)); var p = gpu.open(1, "me", mib(500));
                  var ptr = p.cudaMalloc(mib(3) + 1); readable(p.allocationSize(ptr))   the rounding tax
                  var a = p.cudaMalloc(64); var b = p.cudaMalloc(64); b - a       512 B apart, one page
                  p.walk(ptr + mib(3))                                          the second 2M PTE
                  CostModel.ORDER_OF_MAGNITUDE.micros(DriverCall.CUDA_FREE, 2)  a call's price (step 2.1)
                  var va = p.cuMemAddressReserve(mib(4)); var h = p.cuMemCreate(mib(4));
                  p.cuMemMap(va, mib(4), h); p.cuMemSetAccess(va, mib(4), Access.READWRITE)   step 2.2
                  NvidiaSmi.row(p)                                              what nvidia-smi shows (step 2.3)
                  CudaMallocLab.run(System.out)        the whole lab, as ./vramlab lab cudamalloc prints it
                Your steps (labs/src/main/java/vramlab/driver/):
                  2.1 Price a driver call              CostModel.micros
                  2.2 Grant access to a mapped range   Vmm.cuMemSetAccess
                  2.3 One nvidia-smi row               NvidiaSmi.row
                Check one step: ./vramlab check 2.1   the chapter: ./vramlab check 2
                Quiz (outside JShell): ./vramlab quiz 2   your answers: ./vramlab quiz 2 --check labs/answers/ch02.txt
                """;
    }
}
