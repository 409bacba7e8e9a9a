package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.gmmu.Aperture;
import vramlab.gmmu.PageFault;

@DisplayName("Peer access between two GPUs")
class PeerTest {
    List<Gpu> gpus;
    GpuProcess on0;
    GpuProcess on1;

    @BeforeEach
    void open() {
        gpus = Gpu.machine(2, gib(1), mib(64));
        on0 = gpus.get(0).open(7, "ddp", mib(100));
        on1 = gpus.get(1).open(7, "ddp", mib(100));
    }

    @Test
    @DisplayName("before cudaDeviceEnablePeerAccess GPU 0 cannot reach GPU 1's allocation")
    void before() {
        long ptr = on1.cudaMalloc(mib(4));
        assertThatThrownBy(() -> on0.translate(ptr)).isInstanceOf(PageFault.class);
    }

    @Test
    @DisplayName("after it, GPU 0's walk ends in a PEER PTE at GPU 1's own frame")
    void after() {
        long ptr = on1.cudaMalloc(mib(4));
        on0.cudaDeviceEnablePeerAccess(on1);
        var there = on0.translate(ptr + 12345);
        var home = on1.translate(ptr + 12345);
        assertThat(there.aperture()).isEqualTo(Aperture.PEER_MEMORY);
        assertThat(there.device()).isEqualTo(1);
        assertThat(there.physical()).isEqualTo(home.physical());
        assertThat(on0.walk(ptr).toString()).contains("PEER0 (GPU 1)");
        assertThat(gpus.get(0).free()).as("no memory of GPU 0 is used").isEqualTo(gib(1) - mib(164));
        gpus.forEach(Gpu::checkInvariants);
    }

    @Test
    @DisplayName("later allocations appear too, and a cudaFree on the peer removes them")
    void mirrorFollows() {
        on0.cudaDeviceEnablePeerAccess(on1);
        long ptr = on1.cudaMalloc(mib(2));
        assertThat(on0.translate(ptr).aperture()).isEqualTo(Aperture.PEER_MEMORY);
        on1.cudaFree(ptr);
        assertThatThrownBy(() -> on0.translate(ptr)).isInstanceOf(PageFault.class);
        gpus.forEach(Gpu::checkInvariants);
    }

    @Test
    @DisplayName("enabling twice, or towards the same GPU, fails as CUDA does")
    void errors() {
        on0.cudaDeviceEnablePeerAccess(on1);
        assertThatThrownBy(() -> on0.cudaDeviceEnablePeerAccess(on1)).isInstanceOfSatisfying(CudaException.class,
                e -> assertThat(e.error()).isEqualTo(CudaError.cudaErrorPeerAccessAlreadyEnabled));
        GpuProcess other = gpus.get(0).open(8, "other", 0);
        assertThatThrownBy(() -> on0.cudaDeviceEnablePeerAccess(other)).isInstanceOfSatisfying(CudaException.class,
                e -> assertThat(e.error()).isEqualTo(CudaError.cudaErrorInvalidDevice));
    }

    @Test
    @DisplayName("closing the peer's process removes its pages from GPU 0's tables")
    void closePeer() {
        long ptr = on1.cudaMalloc(mib(2));
        on0.cudaDeviceEnablePeerAccess(on1);
        gpus.get(1).close(on1);
        assertThatThrownBy(() -> on0.translate(ptr)).isInstanceOf(PageFault.class);
        gpus.forEach(Gpu::checkInvariants);
        assertThat(gpus.get(1).pool().usedBytes()).isEqualTo(mib(64));
    }

    @org.junit.jupiter.api.Nested
    @DisplayName("the link decides the PTE (uvm_gpu.c: parent_gpu_peer_aperture, uvm_gpu_peer_phys_address)")
    class Links {
        long ptr;

        private vramlab.gmmu.Translation through(PeerLink link) {
            Gpu.link(gpus.get(0), gpus.get(1), link);
            ptr = on1.cudaMalloc(mib(4));
            on0.cudaDeviceEnablePeerAccess(on1);
            gpus.forEach(Gpu::checkInvariants);
            return on0.translate(ptr + mib(2) + 100);
        }

        /** Where GPU 1 itself sees the byte. */
        private long home() { return on1.translate(ptr + mib(2) + 100).physical(); }

        @Test
        @DisplayName("direct NVLink: PEER aperture, the owner's address moved into its GPA window")
        void nvlink() {
            var t = through(PeerLink.NVLINK);
            assertThat(t.aperture()).isEqualTo(Aperture.PEER_MEMORY);
            assertThat(t.physical() - home()).isEqualTo(PeerLink.NVLINK.offset(gpus.get(1))).isNotZero();
        }

        @Test
        @DisplayName("NVSwitch: PEER aperture, the address moved into the owner's fabric window")
        void nvswitch() {
            var t = through(PeerLink.NVSWITCH);
            assertThat(t.aperture()).isEqualTo(Aperture.PEER_MEMORY);
            assertThat(t.physical() - home()).isEqualTo(PeerLink.NVSWITCH.offset(gpus.get(1)));
            assertThat(t.physical()).as("a 47-bit fabric address").isLessThan(1L << 47).isGreaterThan(1L << 37);
        }

        @Test
        @DisplayName("PCIe BAR1: a system aperture, no peer slot, the address moved by the BAR1 base")
        void bar1() {
            var t = through(PeerLink.PCIE_BAR1);
            assertThat(t.aperture()).isEqualTo(Aperture.SYSTEM_NON_COHERENT);
            assertThat(t.pte().peer()).isZero();
            assertThat(t.physical() - home()).isEqualTo(PeerLink.PCIE_BAR1.offset(gpus.get(1)));
        }

        @Test
        @DisplayName("PCIe BAR1 with PCIe atomics routed: the coherent system aperture")
        void bar1Atomics() {
            assertThat(through(PeerLink.PCIE_BAR1_ATOMICS).aperture()).isEqualTo(Aperture.SYSTEM_COHERENT);
        }

        @Test
        @DisplayName("plain PCIe peer-to-peer: PEER aperture at the owner's own address")
        void pcie() {
            var t = through(PeerLink.PCIE);
            assertThat(t.aperture()).isEqualTo(Aperture.PEER_MEMORY);
            assertThat(t.physical()).isEqualTo(home());
        }

        @Test
        @DisplayName("small allocations are mirrored page by page, and unmapped with their page")
        void sharedPages() {
            Gpu.link(gpus.get(0), gpus.get(1), PeerLink.NVSWITCH);
            on0.cudaDeviceEnablePeerAccess(on1);
            long a = on1.cudaMalloc(100);
            long b = on1.cudaMalloc(100);
            assertThat(on0.translate(b).physical() - on1.translate(b).physical())
                    .isEqualTo(PeerLink.NVSWITCH.offset(gpus.get(1)));
            on1.cudaFree(a);
            assertThat(on0.translate(b).aperture()).isEqualTo(Aperture.PEER_MEMORY);
            on1.cudaFree(b);
            assertThatThrownBy(() -> on0.translate(b)).isInstanceOf(PageFault.class);
            gpus.forEach(Gpu::checkInvariants);
        }
    }
}
