package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.units.Bytes;

@DisplayName("The page-table layout matches NVIDIA's VER2 and VER3 formats")
class LayoutTest {

    /** Indices worked out by hand from the VA bits of NVIDIA's MMU formats. */
    @ParameterizedTest(name = "VER2 {0}: PDE3={1} PDE2={2} PDE1={3} PDE0={4} PT_64K={5} PT_4K={6}")
    @CsvSource(textBlock = """
            0x0,             0,   0,   0,   0,  0,   0
            0x800000000000,  1,   0,   0,   0,  0,   0
            0x1000000000000, 2,   0,   0,   0,  0,   0
            0x7f0a00200000,  0, 508,  80,   1,  0,   0
            0x4000000000,    0,   1,   0,   0,  0,   0
            0x20000000,      0,   0,   1,   0,  0,   0
            0x200000,        0,   0,   0,   1,  0,   0
            0x10000,         0,   0,   0,   0,  1,  16
            0x1000,          0,   0,   0,   0,  0,   1
            0x1ffffffffffff, 3, 511, 511, 255, 31, 511
            """)
    @DisplayName("each VER2 level takes its own VA bits")
    void ver2Indices(String va, int pde3, int pde2, int pde1, int pde0, int pt64k, int pt4k) {
        long v = Long.decode(va);
        MmuFormat f = MmuFormat.VER2;
        List<Level> d = f.directories();
        assertThat(List.of(d.get(0).index(v), d.get(1).index(v), d.get(2).index(v), d.get(3).index(v),
                f.pt64k().index(v), f.pt4k().index(v)))
                .containsExactly(pde3, pde2, pde1, pde0, pt64k, pt4k);
    }

    @ParameterizedTest(name = "VER3 {0}: PDE4={1} PDE3={2}")
    @CsvSource(textBlock = """
            0x100000000000000, 1,   0
            0x800000000000,    0,   1
            0x80000000000000,  0, 256
            0x1000000000000,   0,   2
            """)
    @DisplayName("Hopper adds PDE4 [56:56] and widens PDE3 to [55:47]")
    void ver3Indices(String va, int pde4, int pde3) {
        long v = Long.decode(va);
        assertThat(MmuFormat.VER3.directories().get(0).index(v)).isEqualTo(pde4);
        assertThat(MmuFormat.VER3.directories().get(1).index(v)).isEqualTo(pde3);
    }

    @Nested
    @DisplayName("sizes of the tables")
    class Sizes {
        @Test
        @DisplayName("VER2: 4, 512, 512, 256 dual entries, then 32 or 512 PTEs")
        void ver2Entries() {
            MmuFormat f = MmuFormat.VER2;
            assertThat(f.directories()).extracting(Level::entries).containsExactly(4, 512, 512, 256);
            assertThat(f.pt64k().entries()).isEqualTo(32);
            assertThat(f.pt4k().entries()).isEqualTo(512);
            assertThat(f.vaBits()).isEqualTo(49);
        }

        @Test
        @DisplayName("entries are 8 bytes, 16 for the dual PDE0; tables 4 KiB except PT_64K's 256 B")
        void bytes() {
            MmuFormat f = MmuFormat.VER2;
            assertThat(f.directories()).extracting(Level::entryBytes).containsExactly(8, 8, 8, 16);
            assertThat(f.directories()).extracting(Level::tableBytes).containsExactly(32L, 4096L, 4096L, 4096L);
            assertThat(f.root().allocBytes()).isEqualTo(4096);
            assertThat(f.pt64k().tableBytes()).isEqualTo(256);
            assertThat(f.pt4k().tableBytes()).isEqualTo(4096);
        }

        @Test
        @DisplayName("one entry spans 128 TiB, 256 GiB, 512 MiB, 2 MiB, then 64 KiB or 4 KiB")
        void coverage() {
            MmuFormat f = MmuFormat.VER2;
            assertThat(f.directories()).extracting(Level::coverage).containsExactly(
                    128 * Bytes.TiB, 256 * Bytes.GiB, 512 * Bytes.MiB, 2 * Bytes.MiB);
            assertThat(f.pt64k().coverage()).isEqualTo(64 * Bytes.KiB);
            assertThat(f.pt4k().coverage()).isEqualTo(4 * Bytes.KiB);
        }

        @Test
        @DisplayName("Hopper: a 2-entry root over the unchanged tree, 57 bits, 6 levels")
        void ver3() {
            MmuFormat f = MmuFormat.VER3;
            assertThat(f.vaBits()).isEqualTo(57);
            assertThat(f.root().entries()).isEqualTo(2);
            assertThat(f.directories()).hasSize(5);
            assertThat(f.depthOf(PageSize.SIZE_64K)).isEqualTo(5);
            assertThat(MmuFormat.VER2.depthOf(PageSize.SIZE_64K)).isEqualTo(4);
            assertThat(MmuFormat.VER2.depthOf(PageSize.SIZE_2M)).isEqualTo(3);
        }
    }

    @Nested
    @DisplayName("PTE encoding (VER2)")
    class Bits {
        @Test
        @DisplayName("a valid read-write 2M page of video memory at 0x200000 is 0x20001")
        void localPage() {
            // VALID=1, APERTURE=0, ADDRESS_VID = 0x200000 >> 12 = 0x200 at bit 8 -> 0x20000
            assertThat(Pte.local(PageSize.SIZE_2M, 0x200000, Access.READWRITE, 0).bits()).isEqualTo(0x20001L);
        }

        @Test
        @DisplayName("a peer page carries aperture 1 and its slot in bits 35:33")
        void peerPage() {
            // 1 | (1 << 1) | (0x400 << 8) | (1 << 33)
            assertThat(Pte.peer(PageSize.SIZE_2M, 1, 0x400000, Access.READWRITE, 1).bits())
                    .isEqualTo(0x200040003L);
        }

        @Test
        @DisplayName("no access means not valid; read-only sets bit 6")
        void access() {
            assertThat(Pte.local(PageSize.SIZE_4K, 0x1000, Access.NONE, 0).bits() & 1).isZero();
            assertThat(Pte.local(PageSize.SIZE_4K, 0x1000, Access.READ, 0).bits()).isEqualTo(0x141L);
        }

        @Test
        @DisplayName("a peer address above 37 bits (NVSwitch) keeps its high bits in COMPTAGLINE 53:36")
        void fabricAddress() {
            // make_pte_turing: ADDRESS_VID 32:8 takes PA bits 36:12, COMPTAGLINE 53:36 the rest
            long addr = (2L << 40) + 0x400000;                    // a fabric window plus 4 MiB
            long pfn = addr >>> 12;
            long expected = 1L | (1L << 1) | ((pfn & 0x1ffffff) << 8) | (1L << 33) | ((pfn >>> 25) << 36);
            assertThat(Pte.peer(PageSize.SIZE_2M, 1, addr, Access.READWRITE, 1).bits()).isEqualTo(expected);
            assertThat(expected >>> 36 & 0x3ffff).isEqualTo(addr >>> 37);
        }

        @Test
        @DisplayName("system memory uses the wide address field and aperture 2")
        void system() {
            long addr = 1L << 40;                                // beyond ADDRESS_VID's 25 bits
            Pte p = new Pte(PageSize.SIZE_4K, Aperture.SYSTEM_COHERENT, 0, addr, Access.READWRITE, 0);
            assertThat(p.bits()).isEqualTo(1L | (2L << 1) | ((addr >>> 12) << 8));
        }
    }
}
