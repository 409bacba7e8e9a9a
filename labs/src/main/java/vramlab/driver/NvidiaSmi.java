package vramlab.driver;

import java.util.List;

import vramlab.units.Bytes;

/**
 * What {@code nvidia-smi} reports, drawn from the simulated driver's books: the device's memory
 * and, per process, the memory the driver charges to it.
 *
 * <p>The per-process rows follow {@code nvidia-smi --query-compute-apps=pid,process_name,
 * used_memory --format=csv} (header {@code pid, process_name, used_gpu_memory [MiB]}); the
 * device line is a simplified summary, labelled "nvidia-smi-style".
 */
public final class NvidiaSmi {
    private NvidiaSmi() {}

    public static final String HEADER = "pid, process_name, used_gpu_memory [MiB]";

    // tag::row[]
    /** One CSV row: what the driver charges to {@code p}, which is more than its tensors. */
    public static String row(GpuProcess p) {
        throw new vramlab.lab.Todo("2.3", "One nvidia-smi row", "ch02 \"What nvidia-smi counts\"", "labs/src/main/java/vramlab/driver/NvidiaSmi.java");
    }
    // end::row[]

    /** The compute-apps query over every process of every GPU given. */
    public static String queryComputeApps(List<Gpu> gpus) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (Gpu g : gpus) {
            for (GpuProcess p : g.processes()) b.append(row(p)).append('\n');
        }
        return b.toString();
    }

    /**
     * A device summary per GPU, then its processes: nvidia-smi-style, not its exact layout. The
     * device's used is NVML's v1 {@code used} ("Sum of Reserved and Allocated device memory"),
     * out of the board's total; CUDA's total ({@link Gpu#totalMemory()}) is smaller by the
     * reserve.
     */
    public static String listing(List<Gpu> gpus) {
        StringBuilder b = new StringBuilder();
        for (Gpu g : gpus) {
            long used = g.capacity() - g.free();
            b.append(String.format("GPU %d: %5d MiB / %5d MiB used (driver reserve %d MiB)\n",
                    g.id(), used / Bytes.MiB, g.capacity() / Bytes.MiB, g.driverReserve() / Bytes.MiB));
            for (GpuProcess p : g.processes()) {
                b.append(String.format("  pid %6d  %-12s %6d MiB  (mapped %d MiB + context %d MiB)\n",
                        p.pid(), p.name(), p.physicalBytes() / Bytes.MiB,
                        p.mappedBytes() / Bytes.MiB, p.contextBytes() / Bytes.MiB));
            }
        }
        return b.toString();
    }
}
