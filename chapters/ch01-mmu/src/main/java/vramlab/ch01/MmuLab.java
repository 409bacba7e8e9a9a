package vramlab.ch01;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.io.PrintStream;
import java.util.List;

import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.driver.NvidiaSmi;
import vramlab.driver.PeerLink;
import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageFault;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.kit.Scenario;
import vramlab.units.Bytes;

/**
 * The MMU lab: virtual versus physical scarcity, page sizes and the TLB, the walk, one owner of
 * physical memory, and a walk that crosses to a peer GPU. Every number is the simulator's.
 *
 * <p>Run it three ways: {@code ./vramlab lab mmu}, this class's {@code main}, or step by step in
 * {@code ./vramlab jshell mmu}.
 */
public final class MmuLab {
    /** An 80 GiB card; the 512 MiB driver reserve is an illustrative figure, not a measured one. */
    static final long CARD = gib(80);
    static final long RESERVE = mib(512);
    static final long CONTEXT = mib(500);

    private MmuLab() {}

    public static void main(String[] args) { run(System.out); }

    public static void run(PrintStream out) { Scenario.runAll(out, scenarios()); }

    /** The lab's scenarios, in the notes' order; each runs on its own (see {@link Scenario}). */
    public static List<Scenario> scenarios() {
        return List.of(
                new Scenario("1. VA is plenty, though it ends at 128 TiB; physical memory is scarce", MmuLab::vaVersusPhysical),
                new Scenario("2. Page sizes: one 2M TLB entry against 512 4K ones", MmuLab::pageSizes),
                new Scenario("3. The walk: PDE3 -> PDE2 -> PDE1 -> PDE0 -> PTE", MmuLab::theWalk),
                new Scenario("4. One owner: the driver's pool, shared by every process", MmuLab::oneOwner),
                new Scenario("5. Peers: after cudaDeviceEnablePeerAccess the walk crosses to GPU 1", MmuLab::peers));
    }

    // tag::va[]
    /**
     * VA against physical memory on an 80 GiB card: 512 GiB of VA reserved with no frame and no
     * table below the root; 100 TiB refused, because the process's VA ends where x86-64 user
     * space ends (128 TiB), not where the GMMU's 49 bits do (512 TiB); an 81 GiB commit refused.
     */
    public static GpuProcess vaVersusPhysical(PrintStream out) {
        Gpu gpu = new Gpu(0, CARD, RESERVE);
        GpuProcess p = gpu.open(1000, "python", CONTEXT);
        out.printf("the GMMU decodes %d TiB; this process's VA ends at 0x%x (128 TiB, x86-64 user space)\n",
                gpu.format().vaLimit() / Bytes.TiB, p.vaEnd());
        long va = p.cuMemAddressReserve(gib(512));
        out.printf("cuMemAddressReserve(512 GiB) -> 0x%x, page tables: %d (the root)\n",
                va, p.addressSpace().tableCount());
        try {
            p.cuMemAddressReserve(100 * Bytes.TiB);
        } catch (CudaException e) {
            out.println("cuMemAddressReserve(100 TiB): " + e.error() + " (" + Bytes.formatSize(p.vaEnd()
                    - p.vaFloor() - gib(512)) + " of this GPU's window is left)");
        }
        try {
            p.cuMemCreate(gib(81));
        } catch (CudaException e) {
            out.println("cuMemCreate(81 GiB) on an 80 GiB card: " + e.error());
        }
        out.println("cudaMemGetInfo: free " + Bytes.formatSize(p.cudaMemGetInfo().free()) + " of "
                + Bytes.formatSize(p.cudaMemGetInfo().total()) + " (the total leaves out the reserve;"
                + " free, the context too)");
        return p;
    }
    // end::va[]

    // tag::pageSizes[]
    /** Sweeps 2 MiB in 4 KiB steps, once over a 2M page and once over 512 4K pages. */
    public static void pageSizes(PrintStream out) {
        long base = GpuProcess.VA_BASE;
        for (PageSize size : List.of(PageSize.SIZE_2M, PageSize.SIZE_64K, PageSize.SIZE_4K)) {
            AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(64));
            for (long off = 0; off < mib(2); off += size.bytes()) {
                s.map(base + off, Pte.local(size, off, Access.READWRITE, 0));
            }
            for (int sweep = 0; sweep < 2; sweep++) {
                for (long off = 0; off < mib(2); off += 4096) s.translate(base + off);
            }
            out.printf("2 MiB as %3s pages: %3d PTEs, %d tables (%5d B), TLB hits %4d misses %4d\n",
                    size, mib(2) / size.bytes(), s.tableCount(), s.pageTableBytes(),
                    s.tlb().hits(), s.tlb().misses());
        }
    }
    // end::pageSizes[]

    // tag::walk[]
    /** Two cudaMallocs, then the walk of the second one and of an address nobody mapped. */
    public static GpuProcess theWalk(PrintStream out) {
        GpuProcess p = new Gpu(mib(40)).openToyProcess();
        p.cudaMalloc(mib(2));
        long ptr = p.cudaMalloc(mib(2));                  // 0x7f0a00200000: PDE0 index 1
        out.print(p.walk(ptr + 0x40));
        out.print(p.walk(ptr + gib(1)));
        return p;
    }
    // end::walk[]

    // tag::owner[]
    /** Two processes on one GPU: their chunks in the one pool, and nvidia-smi's view. */
    public static Gpu oneOwner(PrintStream out) {
        Gpu gpu = new Gpu(0, CARD, RESERVE);
        GpuProcess train = gpu.open(4242, "train.py", CONTEXT);
        GpuProcess notebook = gpu.open(5151, "notebook", CONTEXT);
        long t = train.cudaMalloc(gib(20));
        long n = notebook.cudaMalloc(gib(6));
        out.printf("train.py 0x%x -> physical 0x%x; notebook 0x%x -> physical 0x%x\n",
                t, train.translate(t).physical(), n, notebook.translate(n).physical());
        out.print(NvidiaSmi.listing(List.of(gpu)));
        out.println("both see cudaMemGetInfo free = " + Bytes.formatSize(train.cudaMemGetInfo().free()));
        gpu.checkInvariants();
        return gpu;
    }
    // end::owner[]

    // tag::peers[]
    /** One process on two GPUs; GPU 0 reaches GPU 1's allocation only after enabling peer access. */
    public static List<Gpu> peers(PrintStream out) {
        List<Gpu> gpus = Gpu.machine(2, CARD, RESERVE);
        GpuProcess on0 = gpus.get(0).open(7, "ddp", CONTEXT);
        GpuProcess on1 = gpus.get(1).open(7, "ddp", CONTEXT);
        long ptr = on1.cudaMalloc(mib(4));
        try {
            on0.translate(ptr);
        } catch (PageFault f) {
            out.println("before: " + f.getMessage());
        }
        on0.cudaDeviceEnablePeerAccess(on1);
        out.print(on0.walk(ptr));
        out.println("GPU 1's own view: " + on1.translate(ptr));
        for (PeerLink link : List.of(PeerLink.NVSWITCH, PeerLink.PCIE_BAR1)) {
            out.println("the same PTE over " + link + ": " + linked(link));
        }
        return gpus;
    }

    /** GPU 0's PTE for GPU 1's first allocation when the two are joined by {@code link}. */
    static Pte linked(PeerLink link) {
        List<Gpu> gpus = Gpu.machine(2, CARD, RESERVE);
        Gpu.link(gpus.get(0), gpus.get(1), link);
        GpuProcess on0 = gpus.get(0).open(7, "ddp", CONTEXT);
        GpuProcess on1 = gpus.get(1).open(7, "ddp", CONTEXT);
        long ptr = on1.cudaMalloc(mib(4));
        on0.cudaDeviceEnablePeerAccess(on1);
        return on0.translate(ptr).pte();
    }
    // end::peers[]

    /** What a student can try in JShell. */
    public static String help() {
        return """
                MMU lab: a GPU address space, its page tables and its physical pool. Try:
                  var s = new AddressSpace(MmuFormat.VER2, new Tlb(64));        an empty address space
                  s.map(0x7f0a00200000L, Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0));
                  s.walk(0x7f0a00200000L)                 the walk, level by level (step 1.1)
                  s.translate(0x7f0a00200040L); s.tlb()    a translation and the TLB's counters (step 1.2)
                  hex(s.walk(0x7f0a00200000L).pte().bits())   the PTE's 64 bits (step 1.3)
                  MmuFormat.VER2.directories()            the levels and the VA bits each one indexes
                  var gpu = new Gpu(0, gib(80), mib(512)); var p = gpu.open(1, "me", mib(500));
                  var ptr = p.cudaMalloc(mib(3) + 1); hex(ptr); p.walk(ptr); gpu.pool()
                  MmuLab.run(System.out)                  the whole lab, as ./vramlab lab mmu prints it
                Your steps (labs/src/main/java/vramlab/gmmu/):
                  1.1 Walk the page table      AddressSpace.walk
                  1.2 Look up the TLB          Tlb.lookup
                  1.3 Encode a PTE             Pte.bits
                Check one step: ./vramlab check 1.1   the chapter: ./vramlab check 1
                Quiz (outside JShell): ./vramlab quiz mmu   your answers: ./vramlab quiz mmu --check labs/answers/ch01.txt
                """;
    }
}
