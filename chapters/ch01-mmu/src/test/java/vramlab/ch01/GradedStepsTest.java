package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageFault;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.gmmu.Walk;
import vramlab.quiz.Graded;

/** The graded tests of chapter 1's steps. Failure messages show the page tables' contents. */
@DisplayName("Chapter 1 steps")
class GradedStepsTest {
    static final long VA = 0x7f0a00200000L;          // PDE3 0, PDE2 508, PDE1 80, PDE0 1

    /** The PTEs an address space holds, for failure messages (no walk involved). */
    static String state(AddressSpace s) {
        StringBuilder b = new StringBuilder("page tables (" + s.tableCount() + " tables):\n");
        s.forEachPte((va, pte) -> b.append(String.format("  0x%x -> %s%n", va, pte)));
        return b.toString();
    }

    @Nested
    @DisplayName("1.1 the walk")
    class Step1 {
        @Graded(step = "1.1", points = 3)
        @Timeout(10)
        @org.junit.jupiter.api.Test
        @DisplayName("a mapped 2M page is found at PDE0 after the indices 0, 508, 80, 1")
        void twoMeg() {
            AddressSpace s = new AddressSpace(MmuFormat.VER2);
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0));
            Walk w = s.walk(VA + 0x123);
            assertThat(w.steps()).as(state(s)).extracting(Walk.Step::index).containsExactly(0, 508, 80, 1);
            assertThat(w.steps()).as(state(s)).extracting(Walk.Step::level)
                    .containsExactly("PDE3", "PDE2", "PDE1", "PDE0");
            assertThat(w.physical()).as(state(s)).isEqualTo(0x40000123L);
        }

        @Graded(step = "1.1", points = 2)
        @Timeout(10)
        @org.junit.jupiter.api.Test
        @DisplayName("an unmapped address stops where the first empty entry is")
        void stops() {
            AddressSpace s = new AddressSpace(MmuFormat.VER2);
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
            Walk far = s.walk(VA + (1L << 30));              // PDE1 index 82
            Walk next = s.walk(VA + (2L << 20));             // PDE0 index 2
            assertThat(far.found()).as(state(s)).isFalse();
            assertThat(far.fault().level() + "[" + far.fault().index() + "]").as(state(s)).isEqualTo("PDE1[82]");
            assertThat(next.fault().level() + "[" + next.fault().index() + "]").as(state(s)).isEqualTo("PDE0[2]");
        }

        @Graded(step = "1.1", points = 2)
        @Timeout(10)
        @org.junit.jupiter.api.Test
        @DisplayName("a 64K page is found one level deeper, in PT_64K; on Hopper one more level on top")
        void deeper() {
            AddressSpace s = new AddressSpace(MmuFormat.VER2);
            s.map(0x10000, Pte.local(PageSize.SIZE_64K, 0x20000, Access.READWRITE, 0));
            assertThat(s.walk(0x10008).steps()).as(state(s)).extracting(Walk.Step::level)
                    .containsExactly("PDE3", "PDE2", "PDE1", "PDE0", "PT_64K");
            assertThat(s.walk(0x10008).physical()).isEqualTo(0x20008);
            AddressSpace h = new AddressSpace(MmuFormat.VER3);
            h.map(1L << 56, Pte.local(PageSize.SIZE_64K, 0, Access.READWRITE, 0));
            assertThat(h.walk(1L << 56).steps()).as(state(h)).extracting(Walk.Step::index)
                    .containsExactly(1, 0, 0, 0, 0, 0);
        }
    }

    @Nested
    @DisplayName("1.2 the TLB")
    class Step2 {
        @Graded(step = "1.2", points = 2)
        @Timeout(10)
        @org.junit.jupiter.api.Test
        @DisplayName("a 2 MiB page swept in 4 KiB steps misses once and then hits 511 times")
        void sweep() {
            Tlb tlb = new Tlb(8);
            Pte big = Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0);
            for (int i = 0; i < 512; i++) {
                long va = VA + i * 4096L;
                if (tlb.lookup(va) == null) tlb.fill(va, big);
            }
            assertThat(tlb.misses()).as(tlb.toString()).isEqualTo(1);
            assertThat(tlb.hits()).as(tlb.toString()).isEqualTo(511);
        }

        @Graded(step = "1.2", points = 2)
        @Timeout(10)
        @org.junit.jupiter.api.Test
        @DisplayName("a lookup refreshes an entry, so the least recently used one is evicted")
        void lru() {
            Tlb tlb = new Tlb(2);
            Pte p = Pte.local(PageSize.SIZE_4K, 0, Access.READ, 0);
            tlb.fill(0x1000, p);
            tlb.fill(0x2000, p);
            assertThat(tlb.lookup(0x1000)).as(tlb.toString()).isEqualTo(p);
            tlb.fill(0x3000, p);
            assertThat(tlb.lookup(0x2000)).as("0x2000 was least recently used; " + tlb).isNull();
            assertThat(tlb.lookup(0x1000)).as(tlb.toString()).isEqualTo(p);
        }
    }

    @Nested
    @DisplayName("1.3 the PTE's bits")
    class Step3 {
        @Graded(step = "1.3", points = 2)
        @Timeout(10)
        @org.junit.jupiter.api.Test
        @DisplayName("VALID, APERTURE, READ_ONLY, ADDRESS_VID, COMPTAGLINE and the peer slot sit where dev_mmu.h puts them")
        void bits() {
            Pte local = Pte.local(PageSize.SIZE_2M, 0x200000, Access.READWRITE, 0);
            Pte peer = Pte.peer(PageSize.SIZE_2M, 1, 0x400000, Access.READWRITE, 1);
            Pte fabric = Pte.peer(PageSize.SIZE_2M, 1, (2L << 40) + 0x400000, Access.READWRITE, 1);
            Pte ro = Pte.local(PageSize.SIZE_4K, 0x1000, Access.READ, 0);
            Pte off = Pte.local(PageSize.SIZE_4K, 0x1000, Access.NONE, 0);
            assertThat(local.bits()).as(local.toString()).isEqualTo(0x20001L);
            assertThat(peer.bits()).as(peer.toString()).isEqualTo(0x200040003L);
            assertThat(ro.bits()).as(ro.toString()).isEqualTo(0x141L);
            assertThat(off.bits()).as(off.toString()).isEqualTo(0x100L);
            // PA bits 36:12 in ADDRESS_VID 32:8, bits above in COMPTAGLINE 53:36 (make_pte_turing)
            assertThat(fabric.bits()).as(fabric.toString()).isEqualTo(0x200040003L | (0x10L << 36));
        }
    }

    @org.junit.jupiter.api.Test
    @DisplayName("a translation fault is a PageFault naming the level (not graded: uses step 1.1)")
    void faultType() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.translate(VA))
                .isInstanceOf(PageFault.class).hasMessageContaining("PDE3[0]");
    }
}
