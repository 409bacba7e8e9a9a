package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;
import vramlab.kit.ChapterLab;

@DisplayName("The MMU lab")
class MmuLabTest {
    private static String run() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MmuLab.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("shows a reservation succeed, one past 128 TiB and the commit fail, a fault at PDE1 and a peer walk")
    void runs() {
        String out = run();
        assertThat(out).contains("the GMMU decodes 512 TiB", "ends at 0x7ffffffff000",
                "cuMemAddressReserve(100 TiB): CUDA_ERROR_OUT_OF_MEMORY", "cuMemCreate(81 GiB) on an 80 GiB card: "
                + "CUDA_ERROR_OUT_OF_MEMORY", "of 79.50 GiB", "PDE1[82] is empty", "PEER0 (GPU 1)", "train.py",
                "notebook");
    }

    @Test
    @DisplayName("over NVSwitch the peer PTE holds the fabric address; over BAR1 it is a system PTE")
    void links() {
        var fabric = MmuLab.linked(vramlab.driver.PeerLink.NVSWITCH);
        var bar1 = MmuLab.linked(vramlab.driver.PeerLink.PCIE_BAR1);
        assertThat(fabric.aperture()).isEqualTo(vramlab.gmmu.Aperture.PEER_MEMORY);
        assertThat(fabric.address()).isGreaterThanOrEqualTo(2L << 40);
        assertThat(bar1.aperture()).isEqualTo(vramlab.gmmu.Aperture.SYSTEM_NON_COHERENT);
        assertThat(run()).contains("the same PTE over NVSWITCH: PTE 2M PEER0 (GPU 1)", "over PCIE_BAR1: PTE 2M SYSNC");
    }

    @Test
    @DisplayName("keeps the driver's invariants in its one-owner scenario")
    void invariants() {
        Gpu gpu = MmuLab.oneOwner(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        gpu.checkInvariants();
        assertThat(gpu.processes()).hasSize(2);
    }

    @Test
    @DisplayName("is registered as chapter 1, slug mmu, with a JShell startup")
    void registered() {
        ChapterLab c = new MmuChapter();
        assertThat(c.id()).isEqualTo("ch01-mmu");
        assertThat(vramlab.kit.Chapters.find("mmu")).isInstanceOf(MmuChapter.class);
        assertThat(c.jshellStartup()).contains("import vramlab.gmmu.*;", "void help()");
    }

    @Test
    @DisplayName("draws its page-walk figure from the simulator")
    void figure() {
        assertThat(Ch01Figures.figurePageWalk()).startsWith("<svg").contains("PDE3[0]", "PDE2[508]",
                "PDE1[80]", "PDE0[1]").endsWith("</svg>\n");
    }
}
