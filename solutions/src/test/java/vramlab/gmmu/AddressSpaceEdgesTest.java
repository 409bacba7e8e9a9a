package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.units.Bytes;

/** The address space's and the physical pool's smaller promises, each at its edge. */
@DisplayName("The address space and the physical pool at their edges")
class AddressSpaceEdgesTest {
    static final long VA = 0x7f0a00200000L;

    @Nested
    @DisplayName("protect, clear and the VA limit")
    class Space {
        @Test
        @DisplayName("protect replaces the access of exactly the PTE of that size, and the TLB forgets it")
        void protect() {
            Tlb tlb = new Tlb(4);
            AddressSpace s = new AddressSpace(MmuFormat.VER2, tlb);
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0));
            assertThat(s.translate(VA + 8).fromTlb()).isFalse();
            assertThat(s.translate(VA + 8).fromTlb()).as("the second look-up hits").isTrue();
            s.protect(VA, PageSize.SIZE_2M, Access.READ);
            assertThat(s.find(VA, PageSize.SIZE_2M).access()).isEqualTo(Access.READ);
            assertThat(s.translate(VA + 8).fromTlb()).as("protect invalidated the TLB entry").isFalse();
            assertThatThrownBy(() -> s.protect(VA, PageSize.SIZE_64K, Access.READ))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("no 64K page mapped there");
            assertThatThrownBy(() -> s.protect(VA + (2L << 20), PageSize.SIZE_2M, Access.READ))
                    .hasMessageContaining("no 2M page mapped there");
            s.protect(VA, PageSize.SIZE_2M, Access.NONE);
            assertThatThrownBy(() -> s.translate(VA)).isInstanceOf(PageFault.class)
                    .hasMessageContaining("no access granted");
        }

        @Test
        @DisplayName("clear unmaps everything, frees every table but the root, and returns the bytes freed")
        void clear() {
            AddressSpace s = new AddressSpace(MmuFormat.VER2);
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
            s.map(1L << 47, Pte.local(PageSize.SIZE_4K, 0x1000, Access.READWRITE, 0));
            long before = s.pageTableBytes();
            long freed = s.clear();
            s.checkInvariants();
            assertThat(freed).isEqualTo(before - MmuFormat.VER2.root().allocBytes()).isPositive();
            assertThat(s.tableCount()).isEqualTo(1);
            assertThat(s.mappedBytes()).isZero();
            assertThat(s.clear()).as("nothing left to free").isZero();
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"-1", "562949953421312"})
        @DisplayName("map, unmap and walk refuse a VA outside the 49-bit space, naming it")
        void vaLimit(long va) {
            AddressSpace s = new AddressSpace(MmuFormat.VER2);
            assertThatThrownBy(() -> s.unmap(va, PageSize.SIZE_4K)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0x" + Long.toHexString(va)).hasMessageContaining("49-bit VA space");
            assertThatThrownBy(() -> s.walk(va)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> s.map(va & ~0xfffL, Pte.local(PageSize.SIZE_4K, 0, Access.READ, 0)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("49-bit VA space");
            assertThat(s.format()).isSameAs(MmuFormat.VER2);
            assertThat(MmuFormat.VER2.vaLimit()).isEqualTo(562949953421312L);
        }

        @Test
        @DisplayName("a walk's steps say what each entry held, and the space describes its books")
        void descriptions() {
            AddressSpace s = new AddressSpace(MmuFormat.VER2);
            Walk empty = s.walk(VA);
            assertThat(empty.steps()).singleElement().satisfies(st -> assertThat(st.entry()).isEqualTo("(empty)"));
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0));
            Walk w = s.walk(VA);
            assertThat(w.steps().get(0).entry()).startsWith("-> PDE2 table #").endsWith("(refs 1)");
            assertThat(w.last().entry()).isEqualTo("PTE 2M VID 0x40000000 " + Access.READWRITE);
            assertThat(Access.READWRITE).hasToString("RW");
            assertThat(s.toString()).isEqualTo("AddressSpace " + MmuFormat.VER2.name() + ": 4 tables ("
                    + s.pageTableBytes() + " B), 2097152 B mapped, no TLB");
            assertThat(new AddressSpace(MmuFormat.VER2, new Tlb(2)).toString()).doesNotContain("no TLB");
        }
    }

    @Nested
    @DisplayName("the physical pool")
    class Pool {
        static final long F = PhysicalPool.FRAME;

        @Test
        @DisplayName("a capacity of 0 or less is refused")
        void capacity() {
            assertThatThrownBy(() -> new PhysicalPool(0, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("capacity 0");
            PhysicalPool p = new PhysicalPool(3, 4 * F);
            assertThat(p.capacity()).isEqualTo(4 * F);
            assertThat(p.device()).isEqualTo(3);
        }

        @Test
        @DisplayName("the last frames of the pool can be taken, to the very end")
        void toTheEnd() {
            PhysicalPool p = new PhysicalPool(0, 4 * F);
            assertThat(p.allocate(4 * F, F, "all")).isZero();
            assertThat(p.usedBytes()).isEqualTo(4 * F);
            assertThat(p.freeBytes()).isZero();
            assertThat(p.allocate(F, F, "more")).isEqualTo(-1);
            p.checkInvariants();
        }

        @Test
        @DisplayName("a run that ends right where a used frame starts fits")
        void adjacentRun() {
            PhysicalPool p = new PhysicalPool(0, 4 * F);
            long a = p.allocate(F, F, "a"), b = p.allocate(F, F, "b"), c = p.allocate(F, F, "c");
            p.release(a);
            p.release(b);
            assertThat(p.allocate(2 * F, F, "d")).as("frames 0-1 end where c begins").isZero();
            assertThat(c).isEqualTo(2 * F);
            p.checkInvariants();
        }

        @Test
        @DisplayName("chunkAt finds the chunk holding an address, up to but not including its end")
        void chunkAt() {
            PhysicalPool p = new PhysicalPool(0, 4 * F);
            long a = p.allocate(2 * F, F, "a");
            assertThat(p.chunkAt(a + 2 * F - 1).owner()).isEqualTo("a");
            assertThat(p.chunkAt(a + 2 * F)).isNull();
            assertThat(p.chunks()).extracting(PhysicalPool.Chunk::owner).containsExactly("a");
            assertThat(p.toString()).isEqualTo("GPU 0 pool: 128.00 KiB used of 256.00 KiB in 1 chunks");
            assertThat(Bytes.formatSize(2 * F)).isEqualTo("128.00 KiB");
        }
    }
}
