package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The GMMU's small parts on their own: levels, formats, page sizes, the TLB's bookkeeping and
 * a walk's printout. (The formats' own levels are built once, when the class loads; these tests
 * build their own so that each rule runs where a test can see it.)
 */
@DisplayName("The GMMU's parts")
class GmmuPartsTest {
    @Nested
    @DisplayName("a level decodes VA bits [hi:lo], lo at least 12 and hi at most 63")
    class Levels {
        @ParameterizedTest(name = "[{0}:{1}] x {2} B -> {3} entries, {4} B")
        @CsvSource({"20, 12, 8, 512, 4096", "20, 16, 8, 32, 256", "28, 21, 16, 256, 4096", "12, 12, 8, 2, 16",
            "63, 63, 8, 2, 16"})
        @DisplayName("Level.of: a table of 2^(hi - lo + 1) entries costs entries x entry size")
        void of(int hi, int lo, int entryBytes, int entries, long bytes) {
            Level l = Level.of("L", hi, lo, entryBytes);
            assertThat(l.entries()).isEqualTo(entries);
            assertThat(l.allocBytes()).isEqualTo(bytes).isEqualTo(l.tableBytes());
            assertThat(l.coverage()).isEqualTo(1L << lo);
            assertThat(l).hasToString("L [" + hi + ":" + lo + "]");
        }

        @ParameterizedTest(name = "[{0}:{1}] is refused")
        @CsvSource({"20, 11", "64, 21", "15, 16"})
        @DisplayName("a bit range below bit 12, above bit 63, or upside down is refused")
        void refused(int hi, int lo) {
            assertThatThrownBy(() -> Level.of("BAD", hi, lo, 8)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("BAD: bad bit range [" + hi + ":" + lo + "]");
        }

        @Test
        @DisplayName("a format's root must decode its highest VA bit")
        void rootBit() {
            Level pde0 = Level.of("PDE0", 28, 21, 16);
            Level p64 = Level.of("PT_64K", 20, 16, 8), p4 = Level.of("PT_4K", 20, 12, 8);
            MmuFormat ok = new MmuFormat("T", 29, List.of(pde0), p64, p4);
            assertThat(ok).hasToString("T");
            assertThat(ok.root()).isSameAs(ok.pde0());
            assertThatThrownBy(() -> new MmuFormat("U", 30, List.of(pde0), p64, p4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("U: the root must decode bit 29");
        }
    }

    @Nested
    @DisplayName("page sizes")
    class Sizes {
        @ParameterizedTest(name = "{0}: base(0x{1}) = 0x{2}, aligned {3}")
        @CsvSource({"SIZE_4K, 1fff, 1000, false", "SIZE_4K, 2000, 2000, true", "SIZE_64K, 1ffff, 10000, false",
            "SIZE_2M, 3fffff, 200000, false", "SIZE_2M, 400000, 400000, true"})
        @DisplayName("base rounds down to the page, and only a page's first byte is aligned")
        void base(PageSize size, String va, String base, boolean aligned) {
            long v = Long.parseLong(va, 16);
            assertThat(size.base(v)).isEqualTo(Long.parseLong(base, 16));
            assertThat(size.isAligned(v)).isEqualTo(aligned);
        }

        @Test
        @DisplayName("each prints its short name and, for messages, its size")
        void names() {
            assertThat(List.of(PageSize.SIZE_4K, PageSize.SIZE_64K, PageSize.SIZE_2M)).extracting(PageSize::toString)
                    .containsExactly("4K", "64K", "2M");
            assertThat(PageSize.SIZE_2M.label()).isEqualTo("2.00 MiB");
            assertThat(PageSize.SIZE_4K.label()).isEqualTo("4.00 KiB");
        }
    }

    @Nested
    @DisplayName("the TLB's bookkeeping")
    class TlbBooks {
        @Test
        @DisplayName("a capacity must be positive; one entry is enough")
        void capacity() {
            assertThatThrownBy(() -> new Tlb(0)).hasMessageContaining("capacity must be positive, was 0");
            Tlb one = new Tlb(1);
            assertThat(one.capacity()).isEqualTo(1);
            one.fill(0, Pte.local(PageSize.SIZE_4K, 0, Access.READ, 0));
            one.fill(0x1000, Pte.local(PageSize.SIZE_4K, 0x1000, Access.READ, 0));
            assertThat(one.size()).as("the least recent entry was evicted").isEqualTo(1);
            assertThat(one.lookup(0x1000)).isNotNull();
        }

        @Test
        @DisplayName("flush drops every entry; the counters say hits and misses")
        void flush() {
            Tlb t = new Tlb(4);
            t.fill(0, Pte.local(PageSize.SIZE_2M, 0, Access.READ, 0));
            assertThat(t.lookup(8)).isNotNull();
            assertThat(t.lookup(1L << 30)).isNull();
            assertThat(t).hasToString("TLB 1/4 entries, hits=1 misses=1");
            t.flush();
            assertThat(t.size()).isZero();
            assertThat(t.lookup(8)).isNull();
            t.resetCounters();
            assertThat(t.hits() + t.misses()).isZero();
        }
    }

    @Test
    @DisplayName("withAccess keeps everything but the access")
    void withAccess() {
        Pte p = Pte.peer(PageSize.SIZE_64K, 2, 0x30000, Access.NONE, 1);
        Pte q = p.withAccess(Access.READWRITE);
        assertThat(q).isEqualTo(new Pte(PageSize.SIZE_64K, Aperture.PEER_MEMORY, 2, 0x30000, Access.READWRITE, 1));
        assertThat(q.toString()).isEqualTo("PTE 64K PEER2 (GPU 1) 0x30000 RW");
    }

    @Test
    @DisplayName("childAt reads UVM's host slots: at PDE0 slot 2i is entry i's 64K table, 2i+1 its 4K table")
    void childAt() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        long va = 5L << 21;                                  // PDE0 entry 5
        s.map(va, Pte.local(PageSize.SIZE_4K, 0x1000, Access.READWRITE, 0));
        s.map(va + 0x10000, Pte.local(PageSize.SIZE_64K, 0x10000, Access.READWRITE, 0));
        PageTable pde0 = s.root().childAt(0).childAt(0).childAt(0);
        assertThat(pde0.level().name()).isEqualTo("PDE0");
        assertThat(pde0.childAt(10).level().name()).isEqualTo("PT_64K");
        assertThat(pde0.childAt(11).level().name()).isEqualTo("PT_4K");
        assertThat(pde0.childAt(12)).isNull();
        assertThat(pde0.childAt(13)).isNull();
    }

    @Test
    @DisplayName("access carries CUDA's CUmemAccess_flags: PROT_NONE 0, PROT_READ 1, PROT_READWRITE 3")
    void accessFlags() {
        assertThat(List.of(Access.NONE, Access.READ, Access.READWRITE)).extracting(Access::cudaFlags)
                .containsExactly(0x0, 0x1, 0x3);
    }

    @Test
    @DisplayName("a translation names the aperture and GPU of its byte; a fault names the VA")
    void translationAndFault() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(2));
        s.map(0x200000, Pte.peer(PageSize.SIZE_2M, 1, 0x40000000L, Access.READWRITE, 3));
        Translation t = s.translate(0x200010);
        assertThat(t.aperture()).isEqualTo(Aperture.PEER_MEMORY);
        assertThat(t.device()).isEqualTo(3);
        assertThat(t).hasToString("0x200010 -> PEER physical 0x40000010 on GPU 3 (walk)");
        assertThat(s.translate(0x200010).toString()).endsWith(" (TLB hit)");
        assertThatThrownBy(() -> s.translate(0x600000)).isInstanceOfSatisfying(PageFault.class,
                f -> assertThat(f.va()).isEqualTo(0x600000));
    }

    @Test
    @DisplayName("a dual PDE says which of its halves point where")
    void dualText() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        s.map(0x10000, Pte.local(PageSize.SIZE_64K, 0x10000, Access.READWRITE, 0));
        PageTable pde0 = s.root().childAt(0).childAt(0).childAt(0);
        DualPde d = (DualPde) pde0.entry(0);
        assertThat(d.toString()).startsWith("dual PDE: 64K -> #").endsWith(", 4K -> -");
        assertThat(s.walk(0x10000).steps().get(3).entry()).isEqualTo(d.toString());
    }

    @Test
    @DisplayName("a walk's printout shows the page, the offset inside it and the physical address")
    void walkText() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        s.map(0x200000, Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0));
        String text = s.walk(0x212345).toString();
        assertThat(text).startsWith("walk(0x212345) on " + MmuFormat.VER2.name() + "\n")
                .contains("+ offset 0x12345 = physical 0x40012345");
        assertThat(s.walk(0x400000).toString()).contains("=> ");
    }

    @ParameterizedTest(name = "peer slot {0}: accepted {1}")
    @CsvSource({"0, true", "7, true", "8, false", "-1, false"})
    @DisplayName("a peer PTE names one of UVM's 8 peer apertures, UVM_APERTURE_PEER_0..7 (uvm_hal_types.h)")
    void peerSlots(int slot, boolean accepted) {
        if (accepted) {
            assertThat(Pte.peer(PageSize.SIZE_2M, slot, 0x200000, Access.READ, 1).peer()).isEqualTo(slot);
        } else {
            assertThatThrownBy(() -> Pte.peer(PageSize.SIZE_2M, slot, 0x200000, Access.READ, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Pte: peer slot " + slot + " with aperture PEER_MEMORY");
        }
    }
}
