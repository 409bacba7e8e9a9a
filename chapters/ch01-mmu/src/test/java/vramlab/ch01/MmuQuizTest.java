package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.Aperture;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.quiz.Graded;
import vramlab.units.Bytes;

/** Each quiz answer, checked against the simulator (none of these needs a lab step). */
@DisplayName("Chapter 1 quiz answers hold in the simulator")
class MmuQuizTest {
    private static String answer(String id) {
        return MmuQuiz.QUESTIONS.stream().filter(q -> q.id().equals(id)).findFirst().orElseThrow().answer();
    }

    @Graded(step = "q1.1")
    @Timeout(10)
    @org.junit.jupiter.api.Test
    @DisplayName("q1.1: VA 2^48 selects root entry 2")
    void q1() {
        assertThat(String.valueOf(MmuFormat.VER2.root().index(1L << 48))).isEqualTo(answer("q1.1"));
    }

    @Graded(step = "q1.2")
    @Timeout(10)
    @org.junit.jupiter.api.Test
    @DisplayName("q1.2: one PDE1 entry spans 512 MiB")
    void q2() {
        long span = MmuFormat.VER2.directories().get(2).coverage();
        assertThat(Bytes.toyMiB(span)).isEqualTo(answer("q1.2"));
    }

    @Graded(step = "q1.3")
    @Timeout(10)
    @org.junit.jupiter.api.Test
    @DisplayName("q1.3: a 100 TiB reservation takes no memory and no page table")
    void q3() {
        Gpu gpu = new Gpu(0, gib(80), 0);
        GpuProcess p = gpu.openToyProcess();
        p.cuMemAddressReserve(100 * Bytes.TiB);
        assertThat(gpu.free()).isEqualTo(gib(80));
        assertThat(p.addressSpace().tableCount()).isEqualTo(1);
        assertThat(answer("q1.3")).isEqualTo("none");
    }

    @Graded(step = "q1.4")
    @Timeout(10)
    @org.junit.jupiter.api.Test
    @DisplayName("q1.4: nvidia-smi's number is mappings plus context")
    void q4() {
        Gpu gpu = new Gpu(0, gib(80), mib(512));
        GpuProcess p = gpu.open(1, "train", mib(500));
        p.cudaMalloc(gib(30));
        assertThat(String.valueOf(p.physicalBytes() / Bytes.MiB)).isEqualTo(answer("q1.4"));
    }

    @Graded(step = "q1.5")
    @Timeout(10)
    @org.junit.jupiter.api.Test
    @DisplayName("q1.5: 512 4K PTEs need one extra table where a 2M PTE needs none")
    void q5() {
        AddressSpace big = new AddressSpace(MmuFormat.VER2);
        big.map(0, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
        AddressSpace small = new AddressSpace(MmuFormat.VER2);
        for (int i = 0; i < 512; i++) small.map(i * 4096L, Pte.local(PageSize.SIZE_4K, 0, Access.READWRITE, 0));
        int extraTables = small.tableCount() - big.tableCount();
        long extraEntries = mib(2) / PageSize.SIZE_4K.bytes() - 1;
        assertThat(extraTables + " table, " + extraEntries + " entries").isEqualTo(answer("q1.5"));
    }

    @Graded(step = "q1.6")
    @Timeout(10)
    @org.junit.jupiter.api.Test
    @DisplayName("q1.6: the peer PTE carries aperture 1")
    void q6() {
        var gpus = Gpu.machine(2, gib(1), 0);
        GpuProcess a = gpus.get(0).open(3, "x", 0);
        GpuProcess b = gpus.get(1).open(3, "x", 0);
        long ptr = b.cudaMalloc(mib(2));
        a.cudaDeviceEnablePeerAccess(b);
        Aperture ap = a.addressSpace().find(ptr, PageSize.SIZE_2M).aperture();
        assertThat(ap.code() + " (" + ap.name() + ")").isEqualTo(answer("q1.6"));
    }
}
