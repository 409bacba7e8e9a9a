package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.PhysicalPool;
import vramlab.gmmu.Pte;

/**
 * A process's checker on books broken the way a bug would break them: a PTE moved off its
 * allocation, a PTE into memory the process does not own (another process's, the driver's), a
 * shared page's slice count off by one, a released handle kept. Pool chunks name their owners,
 * so the package's tests reach the same objects the driver's code does.
 */
@DisplayName("A process's checker notices PTEs and books that do not match its memory")
class ProcessCheckTest {
    static final long PAGE = Gpu.PAGE;

    /** The one pool chunk of {@code gpu} whose owner is a {@code type}. */
    static <T> T owned(Gpu gpu, Class<T> type) {
        return gpu.pool().chunks().stream().map(PhysicalPool.Chunk::owner).filter(type::isInstance)
                .map(type::cast).reduce((a, b) -> { throw new AssertionError("two owners of " + type); })
                .orElseThrow();
    }

    /** Moves the 2M PTE at {@code from} to {@code to}: the same frame, behind another VA. */
    static Pte move(GpuProcess p, long from, long to) {
        AddressSpace s = p.addressSpace();
        Pte pte = s.unmap(from, PageSize.SIZE_2M);
        s.map(to, pte);
        return pte;
    }

    static void broken(Gpu gpu, String message) {
        assertThatThrownBy(gpu::checkInvariants).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(message);
    }

    static String hex(long va) { return "0x" + Long.toHexString(va); }

    @Nested
    @DisplayName("a PTE must lie inside the allocation whose frame it maps")
    class InsideItsOwner {
        @Test
        @DisplayName("a cudaMalloc's last page mapped one page past its end")
        void largePastItsEnd() {
            Gpu gpu = new Gpu(gib(1));
            GpuProcess p = gpu.openToyProcess();
            long ptr = p.cudaMalloc(mib(4));
            gpu.checkInvariants();
            move(p, ptr + PAGE, ptr + 2 * PAGE);
            broken(gpu, hex(ptr + 2 * PAGE) + " -> PTE 2M VID");
        }

        @Test
        @DisplayName("a shared page's PTE mapped one page past the page")
        void sharedPastItsEnd() {
            Gpu gpu = new Gpu(gib(1));
            GpuProcess p = gpu.openToyProcess();
            long ptr = p.cudaMalloc(512);
            gpu.checkInvariants();
            move(p, ptr, ptr + PAGE);
            broken(gpu, hex(ptr + PAGE) + " -> PTE 2M VID");
        }

        @Test
        @DisplayName("the last page of a cudaMalloc at its own last page is fine")
        void inside() {
            Gpu gpu = new Gpu(gib(1));
            GpuProcess p = gpu.openToyProcess();
            long ptr = p.cudaMalloc(mib(4));
            move(p, ptr + PAGE, ptr + PAGE);
            gpu.checkInvariants();
        }
    }

    @Nested
    @DisplayName("a PTE must map memory of this process")
    class NotMine {
        @Test
        @DisplayName("a PTE into another process's cuMemCreate handle")
        void anotherProcesssHandle() {
            Gpu gpu = new Gpu(gib(1));
            GpuProcess p = gpu.openToyProcess(), q = gpu.open(2, "other", 0);
            q.cuMemCreate(PAGE);
            long frame = gpu.pool().chunks().iterator().next().address();
            long at = p.vaBase() + gib(1);
            p.addressSpace().map(at, Pte.local(PageSize.SIZE_2M, frame, Access.READWRITE, gpu.id()));
            broken(gpu, "process 1: " + hex(at) + " -> PTE 2M VID " + hex(frame));
        }

        @Test
        @DisplayName("a PTE into the driver's reserve")
        void theDriversReserve() {
            Gpu gpu = new Gpu(0, gib(1), mib(64));
            GpuProcess p = gpu.openToyProcess();
            long at = p.vaBase();
            p.addressSpace().map(at, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, gpu.id()));
            broken(gpu, "process 1: " + hex(at) + " -> PTE 2M VID 0x0");
        }

        @Test
        @DisplayName("a PTE into another process's context")
        void anotherProcesssContext() {
            Gpu gpu = new Gpu(gib(1));
            gpu.open(2, "other", mib(64));                     // its context at frame 0
            GpuProcess p = gpu.openToyProcess();
            p.addressSpace().map(p.vaBase(), Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, gpu.id()));
            broken(gpu, "not at memory of process 1 (toy) on GPU 0");
        }
    }

    @Nested
    @DisplayName("the books of shared pages and handles")
    class Books {
        @Test
        @DisplayName("a shared page that counts no slice while one is live")
        void sliceCountLost() {
            Gpu gpu = new Gpu(gib(1));
            GpuProcess p = gpu.openToyProcess();
            long ptr = p.cudaMalloc(512);
            owned(gpu, SharedPages.Page.class).live = 0;     // a decrement too many
            broken(gpu, "shared page " + hex(ptr) + " holds 0 slices of 512 B and " + (PAGE - 512)
                    + " B free runs");
        }

        @Test
        @DisplayName("a handle released and mapped nowhere whose memory is still held")
        void handleLeaked() {
            Gpu gpu = new Gpu(gib(1));
            GpuProcess p = gpu.openToyProcess();
            long h = p.cuMemCreate(PAGE);
            gpu.checkInvariants();
            owned(gpu, Vmm.Handle.class).released = true;    // released, never freed
            broken(gpu, "handle " + h + " leaked");
        }
    }

    @Test
    @DisplayName("a context at physical address 0 goes back to the pool when its process closes")
    void contextAtFrameZero() {
        Gpu gpu = new Gpu(gib(1));
        GpuProcess p = gpu.open(1, "first", mib(64));
        assertThat(gpu.pool().chunkAt(0).owner()).isSameAs(p);
        gpu.close(p);
        gpu.checkInvariants();
        assertThat(gpu.pool().chunks()).isEmpty();
        assertThat(gpu.free()).isEqualTo(gib(1));
    }
}
