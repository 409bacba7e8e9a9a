package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/**
 * The address space's checker on books broken from inside the package, the way a bug in map or
 * unmap would break them (a PTE written into the wrong slot of its table), and the tables'
 * serial numbers that a printed walk shows.
 */
@DisplayName("The address space's checker notices broken tables")
class AddressSpaceCheckTest {
    static final long VA = 0x200000;                          // PDE0 entry 1 of the first 1 GiB

    /** A 64K page at {@code VA} and one 4K page at {@code fourK}: a dual PDE with both halves. */
    static AddressSpace dual(long fourK) {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        s.map(VA, Pte.local(PageSize.SIZE_64K, 0x10000, Access.READWRITE, 0));
        s.map(fourK, Pte.local(PageSize.SIZE_4K, 0x1000, Access.READWRITE, 0));
        s.checkInvariants();
        return s;
    }

    /** Moves the 64K PTE from slot 0 of its table to slot 1: counts and sizes stay right. */
    static void slideBigPage(AddressSpace s) {
        PageTable pde0 = s.root().childAt(0).childAt(0).childAt(0);
        PageTable big = ((DualPde) pde0.entry(1)).big();
        Object pte = big.entry(0);
        big.set(0, null);
        big.set(1, pte);
    }

    @Nested
    @DisplayName("no two PTEs may cover one byte of VA")
    class Overlaps {
        @Test
        @DisplayName("a 64K PTE written where a 4K page starts: two PTEs start at one address")
        void sameStart() {
            AddressSpace s = dual(VA + 0x10000);
            slideBigPage(s);
            assertThatThrownBy(s::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessage("AddressSpace: two PTEs start at 0x210000");
        }

        @Test
        @DisplayName("a 64K PTE written over a 4K page that starts 4 KiB into it: the two overlap")
        void overlapInside() {
            AddressSpace s = dual(VA + 0x11000);
            slideBigPage(s);
            assertThatThrownBy(s::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessage("AddressSpace: two PTEs overlap at 0x211000");
        }

        @Test
        @DisplayName("a 4K page below a 64K one in the same 2 MiB: listed after it, out of address order, and fine")
        void outOfWalkOrder() {
            AddressSpace s = new AddressSpace(MmuFormat.VER2);
            s.map(VA + 0x10000, Pte.local(PageSize.SIZE_64K, 0x10000, Access.READWRITE, 0));
            s.map(VA, Pte.local(PageSize.SIZE_4K, 0x1000, Access.READWRITE, 0));
            List<Long> starts = new ArrayList<>();
            s.forEachPte((va, p) -> starts.add(va));
            assertThat(starts).containsExactly(VA + 0x10000, VA);
            s.checkInvariants();
        }

        @Test
        @DisplayName("the same two pages side by side, 64K then 4K right after it, are fine")
        void adjacent() {
            AddressSpace s = dual(VA + 0x10000);
            List<Long> starts = new ArrayList<>();
            s.forEachPte((va, p) -> starts.add(va));
            assertThat(starts).containsExactly(VA, VA + 0x10000);
        }
    }

    @Test
    @DisplayName("tables are numbered in the order they are created, the root #0")
    void serialNumbers() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        s.map(VA, Pte.local(PageSize.SIZE_4K, 0x1000, Access.READWRITE, 0));
        PageTable pde2 = s.root().childAt(0), pde1 = pde2.childAt(0), pde0 = pde1.childAt(0);
        PageTable small = pde0.childAt(2 * 1 + 1);           // UVM's slot 2i+1: entry 1's 4K table
        assertThat(List.of(s.root(), pde2, pde1, pde0, small)).extracting(PageTable::id)
                .containsExactly(0, 1, 2, 3, 4);
        s.map(VA + 0x10000, Pte.local(PageSize.SIZE_64K, 0x10000, Access.READWRITE, 0));
        assertThat(pde0.childAt(2).id()).as("the 64K table comes next").isEqualTo(5);
        assertThat(s.walk(VA).steps().get(0).entry()).isEqualTo("-> PDE2 table #1 (refs 1)");
    }

    @Test
    @DisplayName("a GPU's checker checks each process's page tables too")
    void throughTheGpu() {
        Gpu gpu = new Gpu(gib(1));
        GpuProcess p = gpu.openToyProcess();
        p.cudaMalloc(mib(2));
        gpu.checkInvariants();
        p.addressSpace().root().refCount++;                  // a lost decrement
        assertThatThrownBy(gpu::checkInvariants).isInstanceOf(IllegalStateException.class)
                .hasMessage("AddressSpace: PDE3 table #0 (refs 2) counts 1 slots");
    }
}
