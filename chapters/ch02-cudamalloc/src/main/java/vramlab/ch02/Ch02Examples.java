package vramlab.ch02;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import vramlab.driver.CostModel;
import vramlab.driver.CudaException;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.driver.NvidiaSmi;
import vramlab.figures.ExampleTable;
import vramlab.gmmu.Access;
import vramlab.gmmu.PageFault;

/**
 * The worked example of each of chapter 02's graded steps, computed by the reference when the
 * site is built (the notes include {@code {generated}/step-2.N.adoc}).
 */
public final class Ch02Examples {
    private Ch02Examples() {}

    /** Step 2.1: the modelled price of a few calls. */
    public static String example2_1() {
        CostModel m = CostModel.ORDER_OF_MAGNITUDE;
        ExampleTable t = ExampleTable.of("2.1", "micros(call, pages) under CostModel.ORDER_OF_MAGNITUDE "
                + "(20 us a call, 1 us a page, 100 us to synchronise)", "call", "pages", "micros");
        Object[][] cases = {{DriverCall.CUDA_MALLOC, 1L}, {DriverCall.CUDA_MALLOC, 512L}, {DriverCall.CUDA_FREE, 512L},
            {DriverCall.CU_MEM_ADDRESS_RESERVE, 4096L}, {DriverCall.CU_MEM_MAP, 10L}, {DriverCall.CU_MEM_RELEASE, 10L}};
        for (Object[] c : cases) {
            DriverCall call = (DriverCall) c[0];
            long pages = (Long) c[1];
            t.row(call.cudaName(), pages, CostModel.format(m.micros(call, pages)));
        }
        return t.then("Every call pays its fixed part; the calls that map or unmap pay per 2 MiB page; only "
                + "cudaFree waits for the device. The numbers are illustrative orders of magnitude, not "
                + "measurements.").toString();
    }

    /** Step 2.2: access before and after cuMemSetAccess. */
    public static String example2_2() {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        long va = p.cuMemAddressReserve(mib(8));
        long h = p.cuMemCreate(mib(4));
        p.cuMemMap(va, mib(4), h);
        ExampleTable t = ExampleTable.of("2.2", "a 4 MiB mapping in an 8 MiB reservation",
                "call", "then translate(va) gives");
        t.row(String.format("cuMemMap(0x%x, 4 MiB, h)", va), translate(p, va));
        p.cuMemSetAccess(va, mib(4), Access.READWRITE);
        t.row(String.format("cuMemSetAccess(0x%x, 4 MiB, READWRITE)", va), translate(p, va));
        String refused;
        try {
            p.cuMemSetAccess(va, mib(8), Access.READWRITE);
            refused = "accepted";
        } catch (CudaException e) {
            refused = e.getMessage();
        }
        t.row(String.format("cuMemSetAccess(0x%x, 8 MiB, READWRITE)", va), refused);
        return t.then("A mapping is not usable until access is granted; access is granted only over pages "
                + "that are mapped, in whole 2 MiB granules.").toString();
    }

    private static String translate(GpuProcess p, long va) {
        try {
            return p.translate(va).toString();
        } catch (PageFault f) {
            return f.getMessage();
        }
    }

    /** Step 2.3: nvidia-smi's row counts more than the tensors. */
    public static String example2_3() {
        Gpu gpu = new Gpu(0, gib(80), mib(512));
        GpuProcess p = gpu.open(4242, "train.py", mib(500));
        ExampleTable t = ExampleTable.of("2.3", "NvidiaSmi.row for a process with a 500 MiB context",
                "after", "mapped", "row(p)");
        t.row("=opening the process", readable(p.mappedBytes()), NvidiaSmi.row(p));
        p.cudaMalloc(mib(3) + 1);
        t.row("=cudaMalloc(3 MiB + 1 B)", readable(p.mappedBytes()), NvidiaSmi.row(p));
        p.cudaMalloc(gib(2));
        t.row("=cudaMalloc(2 GiB)", readable(p.mappedBytes()), NvidiaSmi.row(p));
        return t.then("The row is the process's whole charge: its mappings (whole 2 MiB pages), its memory "
                + "handles and its context, in whole MiB.").toString();
    }
}
