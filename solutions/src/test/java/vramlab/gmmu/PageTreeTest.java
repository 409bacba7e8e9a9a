package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.units.Bytes;

/** The cases of UVM's own page-tree unit tests (uvm_page_tree_test.c, tag 595.45.04). */
@DisplayName("The page tree behaves as UVM's page-tree tests expect")
class PageTreeTest {
    private static final long K64 = 64 * Bytes.KiB;
    private static final long K4 = 4 * Bytes.KiB;
    private static final long M2 = 2 * Bytes.MiB;

    private static Pte page(PageSize s, long addr) { return Pte.local(s, addr, Access.READWRITE, 0); }

    @Nested
    @DisplayName("alloc_64k_memory: one 64K page at VA 0")
    class One64k {
        final AddressSpace s = new AddressSpace(MmuFormat.VER2);

        @Test
        @DisplayName("lands in a PT_64K at depth 4, index 0, with ref count 1 on all 5 nodes")
        void depthAndRefs() {
            s.map(0, page(PageSize.SIZE_64K, 0));
            s.checkInvariants();
            PageTable pde2 = s.root().childAt(0);
            PageTable pde1 = pde2.childAt(0);
            PageTable pde0 = pde1.childAt(0);
            PageTable pt = pde0.childAt(0);                      // host slot 2*0 = the big table
            assertThat(pt.level().name()).isEqualTo("PT_64K");
            assertThat(pt.depth()).isEqualTo(4);
            assertThat(pt.entry(0)).isInstanceOf(Pte.class);
            assertThat(new int[] {s.root().refCount(), pde2.refCount(), pde1.refCount(),
                    pde0.refCount(), pt.refCount()}).containsOnly(1);
            assertThat(s.tableCount()).isEqualTo(5);
            assertThat(s.pageTableBytes()).isEqualTo(4 * 4096 + 256);
        }

        @Test
        @DisplayName("after the unmap the root's ref count is 0 and only the root remains")
        void release() {
            s.map(0, page(PageSize.SIZE_64K, 0));
            s.unmap(0, PageSize.SIZE_64K);
            s.checkInvariants();
            assertThat(s.root().refCount()).isZero();
            assertThat(s.tableCount()).isEqualTo(1);
            assertThat(s.pageTableBytes()).isEqualTo(4096);
        }
    }

    @Test
    @DisplayName("alloc_adjacent_64k_memory: two adjacent 64K pages share one table")
    void adjacent64k() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        s.map(K64, page(PageSize.SIZE_64K, 0));
        s.map(0, page(PageSize.SIZE_64K, K64));
        PageTable pt = s.root().childAt(0).childAt(0).childAt(0).childAt(0);
        assertThat(pt.refCount()).isEqualTo(2);
        assertThat(pt.entry(0)).isNotNull();
        assertThat(pt.entry(1)).isNotNull();
        assertThat(s.tableCount()).isEqualTo(5);
    }

    @Test
    @DisplayName("get_entire_table_4k: 2 MiB of 4K pages at 2^47 fill one table, root child 1 -> 0 -> 0 -> slot 1")
    void entireTable4k() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        long base = 1L << 47;
        for (int i = 0; i < 512; i++) s.map(base + i * K4, page(PageSize.SIZE_4K, i * K4));
        s.checkInvariants();
        PageTable pde0 = s.root().childAt(1).childAt(0).childAt(0);
        assertThat(pde0.childAt(0)).as("no 64K table").isNull();
        PageTable small = pde0.childAt(1);
        assertThat(small.level().name()).isEqualTo("PT_4K");
        assertThat(small.refCount()).isEqualTo(512);
    }

    @Test
    @DisplayName("split_4k_from_2m: a released 2M window remapped as 16 4K + 31 64K pages")
    void split4kFrom2m() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        long base = 1L << 48;
        s.map(base, page(PageSize.SIZE_2M, 0));
        s.map(base + M2, page(PageSize.SIZE_2M, M2));
        PageTable pde0 = s.root().childAt(2).childAt(0).childAt(0);
        assertThat(pde0.depth()).isEqualTo(3);
        assertThat(pde0.refCount()).isEqualTo(2);

        s.unmap(base, PageSize.SIZE_2M);
        for (int i = 0; i < 16; i++) s.map(base + i * K4, page(PageSize.SIZE_4K, 8 * M2 + i * K4));
        for (int i = 1; i < 32; i++) s.map(base + i * K64, page(PageSize.SIZE_64K, 8 * M2 + i * K64));
        s.checkInvariants();

        assertThat(pde0.childAt(1).refCount()).as("4K table").isEqualTo(16);
        assertThat(pde0.childAt(0).refCount()).as("64K table").isEqualTo(31);
        assertThat(pde0.refCount()).as("two child tables + one 2M PTE").isEqualTo(3);
        assertThat(s.translate(base + 0x1234).pte().size()).isEqualTo(PageSize.SIZE_4K);
        assertThat(s.translate(base + K64 + 5).physical()).isEqualTo(8 * M2 + K64 + 5);
        assertThat(s.translate(base + M2 + 7).physical()).isEqualTo(M2 + 7);
    }

    @Test
    @DisplayName("alloc_64k_memory_57b_va: on Hopper a 64K page at 2^56 sits at depth 5 under root child 1")
    void hopper64k() {
        AddressSpace s = new AddressSpace(MmuFormat.VER3);
        s.map(1L << 56, page(PageSize.SIZE_64K, 0));
        s.checkInvariants();
        PageTable pt = s.root().childAt(1).childAt(0).childAt(0).childAt(0).childAt(0);
        assertThat(pt.depth()).isEqualTo(5);
        assertThat(pt.level().name()).isEqualTo("PT_64K");
        assertThat(s.walk(1L << 56).steps()).extracting(Walk.Step::level)
                .containsExactly("PDE4", "PDE3", "PDE2", "PDE1", "PDE0", "PT_64K");
    }

    @Nested
    @DisplayName("overlaps are refused")
    class Overlaps {
        final AddressSpace s = new AddressSpace(MmuFormat.VER2);

        @Test
        @DisplayName("a 64K page under a 2M page, or a 4K page under a 64K page")
        void refused() {
            s.map(0, page(PageSize.SIZE_2M, 0));
            assertThatThrownBy(() -> s.map(K64, page(PageSize.SIZE_64K, 0)))
                    .hasMessageContaining("already mapped");
            s.map(M2, page(PageSize.SIZE_64K, 0));
            assertThatThrownBy(() -> s.map(M2 + K4, page(PageSize.SIZE_4K, 0)))
                    .hasMessageContaining("already mapped");
            assertThatThrownBy(() -> s.map(M2, page(PageSize.SIZE_2M, 0)))
                    .hasMessageContaining("already mapped");
            s.checkInvariants();
        }

        @Test
        @DisplayName("unmapping what is not there names the page")
        void unmapNothing() {
            assertThatThrownBy(() -> s.unmap(M2, PageSize.SIZE_2M)).hasMessageContaining("no 2M page");
        }
    }
}
