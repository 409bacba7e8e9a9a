package vramlab.driver;

import java.util.Locale;

/**
 * What a driver call costs, as an ORDER OF MAGNITUDE only. The chapter's claim (CUDA 12.x):
 * each cudaMalloc/cudaFree costs tens of microseconds to milliseconds, and can synchronize the
 * device. These constants reproduce that range for illustration; they are not measurements of
 * any GPU and no test may treat them as such.
 *
 * @param callMicros    the fixed cost of entering the driver (a syscall-like round trip)
 * @param perPageMicros the cost of writing the PTEs of one 2 MiB page (and, on free, invalidating)
 * @param syncMicros    the wait for queued device work, charged to calls that synchronize
 */
public record CostModel(double callMicros, double perPageMicros, double syncMicros) {

    /** Tens of microseconds per small call, milliseconds for GiB-sized ones. Illustrative. */
    public static final CostModel ORDER_OF_MAGNITUDE = new CostModel(20, 1, 100);

    public CostModel {
        if (callMicros < 0 || perPageMicros < 0 || syncMicros < 0) {
            throw new IllegalArgumentException("CostModel: costs must be >= 0");
        }
    }

    // tag::micros[]
    /** The modelled time of one call that maps or unmaps {@code pages} 2 MiB pages. */
    public double micros(DriverCall call, long pages) {
        throw new vramlab.lab.Todo("2.1", "Price a driver call", "ch02 \"The cost of calling the driver\"", "labs/src/main/java/vramlab/driver/CostModel.java");
    }
    // end::micros[]

    /**
     * The modelled total of every call {@code p} made. The model is affine in pages, so the sum
     * over calls is (count x fixed part) + (pages x per-page part), computed from two counters.
     */
    public double totalMicros(GpuProcess p) {
        double sum = 0;
        for (DriverCall c : DriverCall.values()) {
            long n = p.driverCalls(c);
            if (n == 0) continue;
            double fixed = micros(c, 0);
            sum += n * fixed + (micros(c, p.driverPages(c)) - fixed);
        }
        return sum;
    }

    /** "1.23 ms" or "45.0 us". */
    public static String format(double micros) {
        return micros >= 1000 ? String.format(Locale.ROOT, "%.2f ms", micros / 1000)
                : String.format(Locale.ROOT, "%.1f us", micros);
    }
}
