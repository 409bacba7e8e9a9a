package vramlab.ch01;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.driver.NvidiaSmi;
import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.Level;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageFault;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.units.Bytes;

/**
 * What the simulator prints for the examples the notes discuss: the worked examples' numbers and
 * the output that refutes each common misconception. The site build writes each method's text
 * to {@code output-xxx.txt} ({@code outputSliceTheAddress} -> {@code slice-the-address}).
 */
public final class Ch01Outputs {
    private Ch01Outputs() {}

    /** Rule 1: one address cut into its five indices and its offset, in both formats. */
    public static String outputSliceTheAddress() {
        return capture(out -> {
            long va = 0x7f0a00200040L;
            for (MmuFormat f : List.of(MmuFormat.VER2, MmuFormat.VER3)) {
                out.printf("%s, va 0x%x%n", f, va);
                for (Level l : f.directories()) row(out, l, va);
                row(out, f.pt64k(), va);
                out.printf("  offset in the 64K page  bits [15:0]   0x%x%n", va & 0xffff);
            }
        });
    }

    private static void row(PrintStream out, Level l, long va) {
        out.printf("  %-6s bits [%2d:%2d] %2d bits, %3d entries, one entry spans %8s: index %3d%n",
                l.name(), l.hi(), l.lo(), l.indexBits(), l.entries(), Bytes.readable(l.coverage()), l.index(va));
    }

    /** Rule 2: the tables one mapping creates, by page size, and what a second page next to it adds. */
    public static String outputTablesPerPage() {
        return capture(out -> {
            long base = GpuProcess.VA_BASE;
            for (PageSize size : List.of(PageSize.SIZE_2M, PageSize.SIZE_64K, PageSize.SIZE_4K)) {
                AddressSpace s = new AddressSpace(MmuFormat.VER2);
                tables(out, "empty address space", s);
                s.map(base, Pte.local(size, 0, Access.READWRITE, 0));
                tables(out, String.format("one %3s page at 0x%x", size, base), s);
                s.map(base + size.bytes(), Pte.local(size, size.bytes(), Access.READWRITE, 0));
                tables(out, "the next " + size + " page too", s);
                s.map(base + gib(1), Pte.local(size, mib(2), Access.READWRITE, 0));
                tables(out, "one more " + size + " page 1 GiB on", s);
                out.println();
                s.checkInvariants();
            }
        });
    }

    private static void tables(PrintStream out, String what, AddressSpace s) {
        out.printf("%-32s %d table%s (%5d B)%n", what + ":", s.tableCount(), s.tableCount() == 1 ? " " : "s",
                s.pageTableBytes());
    }

    /** The TLB: how much memory 64 entries reach, and a sweep of 16 MiB through them. */
    public static String outputTlbReach() {
        return capture(out -> {
            for (PageSize size : List.of(PageSize.SIZE_2M, PageSize.SIZE_64K, PageSize.SIZE_4K)) {
                Tlb tlb = sweep(size);
                out.printf("%3s pages: 64 entries reach %7s; a 16 MiB sweep: %4d hits, %4d misses%n",
                        size, Bytes.readable(64 * size.bytes()), tlb.hits(), tlb.misses());
            }
        });
    }

    /** 16 MiB mapped in pages of {@code size}, read once in 4 KiB steps through a 64-entry TLB. */
    static Tlb sweep(PageSize size) {
        long base = GpuProcess.VA_BASE;
        AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(64));
        for (long off = 0; off < mib(16); off += size.bytes()) {
            s.map(base + off, Pte.local(size, off, Access.READWRITE, 0));
        }
        for (long off = 0; off < mib(16); off += 4096) s.translate(base + off);
        return s.tlb();
    }

    /** Misconception: reserving address space costs memory. */
    public static String outputReserveIsFree() {
        return capture(out -> {
            Gpu gpu = new Gpu(0, gib(80), mib(512));
            GpuProcess p = gpu.open(1000, "python", mib(500));
            state(out, "before:", p);
            long va = p.cuMemAddressReserve(gib(512));
            out.printf("cuMemAddressReserve(512 GiB) -> 0x%x%n", va);
            state(out, "after:", p);
            long h = p.cuMemCreate(mib(2));
            p.cuMemMap(va, mib(2), h);
            state(out, "after mapping 2 MiB into it:", p);
        });
    }

    private static void state(PrintStream out, String when, GpuProcess p) {
        out.printf("%-29s free %s, page tables %d, frames in use %s%n", when,
                Bytes.toyMiB(p.cudaMemGetInfo().free()), p.addressSpace().tableCount(),
                Bytes.toyMiB(p.gpu().pool().usedBytes()));
    }

    /** Misconception: the same virtual address in two processes is the same memory. */
    public static String outputSameVaTwoProcesses() {
        return capture(out -> {
            Gpu gpu = new Gpu(0, gib(80), mib(512));
            GpuProcess a = gpu.open(4242, "train.py", mib(500));
            GpuProcess b = gpu.open(5151, "notebook", mib(500));
            long pa = a.cudaMalloc(mib(4));
            long pb = b.cudaMalloc(mib(4));
            out.printf("train.py  cudaMalloc(4 MiB) -> 0x%x, walk ends at physical 0x%x%n", pa, a.translate(pa).physical());
            out.printf("notebook  cudaMalloc(4 MiB) -> 0x%x, walk ends at physical 0x%x%n", pb, b.translate(pb).physical());
            out.println("same virtual address: " + (pa == pb) + "; same frame: "
                    + (a.translate(pa).physical() == b.translate(pb).physical()));
            gpu.checkInvariants();
        });
    }

    /** Misconception: a page fault means the card is out of memory. */
    public static String outputFaultIsNotOom() {
        return capture(out -> {
            Gpu gpu = new Gpu(0, gib(80), mib(512));
            GpuProcess p = gpu.open(1000, "python", mib(500));
            long ptr = p.cudaMalloc(mib(2));
            try {
                p.translate(ptr + mib(2));
            } catch (PageFault f) {
                out.println(f.getMessage());
            }
            out.println("at that moment cudaMemGetInfo says: free " + Bytes.toyMiB(p.cudaMemGetInfo().free()));
            GpuProcess small = new Gpu(mib(4)).openToyProcess();
            small.cudaMalloc(mib(4));
            try {
                small.cudaMalloc(mib(2));
            } catch (CudaException e) {
                out.println("on a full 4 MiB card, cudaMalloc(2 MiB): " + e.error());
                out.println("and every page mapped there still translates: " + small.isMapped(small.vaBase()));
            }
        });
    }

    /** Misconception: nvidia-smi's per-process memory is something the process owns and keeps. */
    public static String outputFramesGoBack() {
        return capture(out -> {
            Gpu gpu = new Gpu(0, gib(80), mib(512));
            GpuProcess a = gpu.open(4242, "train.py", mib(500));
            GpuProcess b = gpu.open(5151, "notebook", mib(500));
            long pa = a.cudaMalloc(gib(40));
            long physA = a.translate(pa).physical();
            out.println("train.py holds 40 GiB:  free " + Bytes.formatSize(gpu.free()));
            a.cudaFree(pa);
            out.println("train.py frees it:      free " + Bytes.formatSize(gpu.free()));
            long pb = b.cudaMalloc(gib(40));
            out.printf("notebook's 40 GiB starts at physical 0x%x; train.py's started at 0x%x%n",
                    b.translate(pb).physical(), physA);
            gpu.checkInvariants();
        });
    }

    /** Rule 3: what one cudaMalloc charges the process in nvidia-smi, and what cudaMemGetInfo says. */
    public static String outputSmiCharge() {
        return capture(out -> {
            Gpu gpu = new Gpu(0, gib(80), mib(512));
            GpuProcess p = gpu.open(1, "python", mib(500));
            out.println("card " + Bytes.readable(gpu.capacity()) + ", driver reserve " + Bytes.readable(gpu.driverReserve())
                    + ", context " + Bytes.readable(p.contextBytes()));
            out.println("                     nvidia-smi row      cudaMemGetInfo");
            out.printf("%-20s %-19s free %s of %s%n", "opened", NvidiaSmi.row(p),
                    Bytes.toyMiB(p.cudaMemGetInfo().free()), Bytes.toyMiB(p.cudaMemGetInfo().total()));
            for (long size : new long[] {mib(3) + 1, 64}) {
                p.cudaMalloc(size);
                out.printf("%-20s %-19s free %s%n", "cudaMalloc(" + size + ")", NvidiaSmi.row(p),
                        Bytes.toyMiB(p.cudaMemGetInfo().free()));
            }
        });
    }

    /** Rule 4: the peer slots one GPU gives its peers, in the order it enables them, and the PTE bits. */
    public static String outputPeerSlots() {
        return capture(out -> {
            List<Gpu> gpus = Gpu.machine(3, gib(80), mib(512));
            List<GpuProcess> ctx = new java.util.ArrayList<>();
            for (Gpu g : gpus) ctx.add(g.open(3, "ddp", mib(500)));
            long on2 = ctx.get(2).cudaMalloc(mib(2));
            long on1 = ctx.get(1).cudaMalloc(mib(2));
            ctx.get(0).cudaDeviceEnablePeerAccess(ctx.get(2));
            ctx.get(0).cudaDeviceEnablePeerAccess(ctx.get(1));
            for (long ptr : new long[] {on2, on1}) {
                Pte pte = ctx.get(0).translate(ptr).pte();
                out.printf("GPU 0 reads 0x%x: %s; aperture %d, slot %d%n",
                        ptr, pte, pte.bits() >>> 1 & 3, pte.bits() >>> 33 & 7);
            }
            Pte own = ctx.get(2).translate(on2).pte();
            out.printf("GPU 2 reads 0x%x: %s; aperture %d%n", on2, own, own.bits() >>> 1 & 3);
        });
    }

    private static String capture(java.util.function.Consumer<PrintStream> body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            body.accept(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
