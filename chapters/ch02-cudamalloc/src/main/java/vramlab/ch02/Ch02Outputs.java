package vramlab.ch02;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import vramlab.driver.CostModel;
import vramlab.driver.CudaException;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.driver.NvidiaSmi;
import vramlab.units.Bytes;

/**
 * What the simulator prints for the examples the notes discuss: the worked examples' numbers and
 * the output that refutes each common misconception. The site build writes each method's text
 * to {@code output-xxx.txt} ({@code outputOneByteOver} -> {@code one-byte-over}).
 */
public final class Ch02Outputs {
    private Ch02Outputs() {}

    /** Rule 1 (large): the tax of one byte over each page boundary, against an exact multiple. */
    public static String outputOneByteOver() {
        return capture(out -> {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            for (long size : new long[] {mib(2), mib(2) + 1, mib(4), mib(4) + 1, mib(6) + 1, mib(100) + 1}) {
                long ptr = p.cudaMalloc(size);
                long took = p.allocationSize(ptr);
                out.printf("cudaMalloc(%10d) maps %7s in %3d PTEs, tax %11s (%4.1f%%)%n", size,
                        Bytes.readable(took), took / Gpu.PAGE, Bytes.formatSizeOrOffset(took - size),
                        100.0 * (took - size) / took);
            }
        });
    }

    /** Rule 1 (small): small requests 512 B apart in one shared page, until the page is full. */
    public static String outputSmallRequestsShare() {
        return capture(out -> {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            long first = p.cudaMalloc(64);
            long second = p.cudaMalloc(64);
            long third = p.cudaMalloc(700);
            long fourth = p.cudaMalloc(64);
            out.printf("cudaMalloc(64)  -> 0x%x%ncudaMalloc(64)  -> first + %d%ncudaMalloc(700) -> first + %d%n"
                    + "cudaMalloc(64)  -> first + %d%n", first, second - first, third - first, fourth - first);
            for (int i = 4; i < 100; i++) p.cudaMalloc(64);
            out.println("after 100 small requests: " + p.sharedPages() + " shared page, mapped "
                    + Bytes.readable(p.mappedBytes()));
            int more = 0;
            while (p.sharedPages() == 1) {
                p.cudaMalloc(64);
                more++;
            }
            out.println("more cudaMalloc(64) until one maps a second page: " + more);
            out.println("mapped now: " + Bytes.readable(p.mappedBytes()) + " for "
                    + (100 + more) + " small requests");
        });
    }

    /** Misconception: a large cudaMalloc needs one physically contiguous run of memory. */
    public static String outputScatteredFrames() {
        return capture(out -> {
            Ch02Figures.Scatter sc = Ch02Figures.scatter();
            out.println("an 8 MiB card after four cudaMalloc(2 MiB) and freeing the first and third:");
            out.println("  free " + Bytes.readable(sc.freeBefore()) + ", in no run longer than 2 MiB");
            out.printf("cudaMalloc(4 MiB) -> 0x%x: contiguous VA%n", sc.va());
            for (int i = 0; i < sc.pages().size(); i++) {
                out.printf("  VA 0x%x -> physical 0x%x%n", sc.va() + i * Gpu.PAGE, sc.pages().get(i));
            }
        });
    }

    /** The cost of calling the driver: one alloc/free pair per tensor, priced call by call. */
    public static String outputPriceOfAPair() {
        return capture(out -> {
            CostModel m = CostModel.ORDER_OF_MAGNITUDE;
            for (long size : new long[] {kib4(), mib(8), gib(1)}) {
                GpuProcess p = new Gpu(gib(4)).openToyProcess();
                long ptr = p.cudaMalloc(size);
                double malloc = m.totalMicros(p);
                p.cudaFree(ptr);
                double free = m.totalMicros(p) - malloc;
                out.printf("%5s: cudaMalloc %8s (%3d pages), cudaFree and sync %8s%n",
                        Bytes.readable(size), CostModel.format(malloc), p.driverPages(DriverCall.CUDA_MALLOC),
                        CostModel.format(free));
            }
        });
    }

    private static long kib4() { return 4096; }

    /** Misconception: cuMemRelease (or cudaFree of a slice) hands memory back at once. */
    public static String outputReleaseWhileMapped() {
        return capture(out -> {
            GpuProcess p = new Gpu(mib(64)).openToyProcess();
            long va = p.cuMemAddressReserve(mib(4));
            long h = p.cuMemCreate(mib(4));
            out.println("cuMemCreate(4 MiB):        held " + Bytes.toyMiB(p.mappedBytes()) + ", free "
                    + Bytes.toyMiB(p.cudaMemGetInfo().free()));
            p.cuMemMap(va, mib(4), h);
            p.cuMemRelease(h);
            out.println("cuMemMap + cuMemRelease:   held " + Bytes.toyMiB(p.mappedBytes()) + ", free "
                    + Bytes.toyMiB(p.cudaMemGetInfo().free()));
            p.cuMemUnmap(va, mib(4));
            out.println("cuMemUnmap:                held " + Bytes.toyMiB(p.mappedBytes()) + ", free "
                    + Bytes.toyMiB(p.cudaMemGetInfo().free()));
            long a = p.cudaMalloc(64);
            long b = p.cudaMalloc(64);
            p.cudaFree(a);
            out.println("cudaFree of one of two 64 B slices: held " + Bytes.toyMiB(p.mappedBytes()));
            p.cudaFree(b);
            out.println("cudaFree of the last slice:         held " + Bytes.toyMiB(p.mappedBytes()));
        });
    }

    /** Misconception: after cuMemMap the memory is usable. */
    public static String outputMapIsNotAccess() {
        return capture(out -> {
            GpuProcess p = new Gpu(mib(64)).openToyProcess();
            long va = p.cuMemAddressReserve(mib(4));
            long h = p.cuMemCreate(mib(2));
            p.cuMemMap(va, mib(2), h);
            try {
                p.translate(va);
                out.println("read after cuMemMap: succeeded");
            } catch (RuntimeException e) {
                out.println("read after cuMemMap:");
                out.println("  " + e.getMessage().replaceAll(" \\(the walk.*", ""));
            }
            try {
                p.cuMemSetAccess(va, mib(4), vramlab.gmmu.Access.READWRITE);
            } catch (CudaException e) {
                out.println("cuMemSetAccess over the whole 4 MiB reservation: " + e.error());
            }
            p.cuMemSetAccess(va, mib(2), vramlab.gmmu.Access.READWRITE);
            out.println("read after cuMemSetAccess(2 MiB): " + p.translate(va));
        });
    }

    /** Misconception: nvidia-smi shows the sum of my tensors. */
    public static String outputSmiIsNotTensors() {
        return capture(out -> {
            Gpu gpu = new Gpu(0, gib(80), mib(512));
            GpuProcess p = gpu.open(4242, "train.py", mib(500));
            long tensors = 0;
            for (int i = 0; i < 10; i++) {
                long size = mib(2 * i + 1) + 1;
                p.cudaMalloc(size);
                tensors += size;
            }
            for (int i = 0; i < 50; i++) {
                p.cudaMalloc(1000);
                tensors += 1000;
            }
            out.println("tensor bytes asked for: " + tensors + " B (" + Bytes.formatSize(tensors) + ")");
            out.println("mapped for them:        " + Bytes.readable(p.mappedBytes()));
            out.println("context:                " + Bytes.readable(p.contextBytes()));
            out.println(NvidiaSmi.HEADER);
            out.println(NvidiaSmi.row(p));
        });
    }

    private static String capture(Consumer<PrintStream> body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            body.accept(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
