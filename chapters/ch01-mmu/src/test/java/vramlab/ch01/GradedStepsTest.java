package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.Aperture;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageFault;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.gmmu.Walk;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;

/** The graded tests of chapter 1's steps. Failure messages show the page tables' contents. */
@DisplayName("Chapter 1 steps")
@ExtendWith(StepOrder.class)
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
            Ch01Feedback.INDICES.check("the indices of walk(0x7f0a00200123)", VA + 0x123, indices(w),
                    List.of(0, 508, 80, 1), () -> state(s));
            assertThat(w.steps()).as("the levels of walk(0x7f0a00200123); " + state(s)).extracting(Walk.Step::level)
                    .containsExactly("PDE3", "PDE2", "PDE1", "PDE0");
            Ch01Feedback.PHYSICAL.check("walk(0x7f0a00200123).physical()", VA + 0x123, w.physical(), 0x40000123L,
                    () -> state(s));
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
            assertThat(far.found()).as("walk(VA + 1 GiB).found(); " + state(s)).isFalse();
            Ch01Feedback.FAULT.check("where walk(VA + 1 GiB) stops", VA + (1L << 30),
                    far.fault().level() + "[" + far.fault().index() + "]", "PDE1[82]", () -> state(s));
            Ch01Feedback.FAULT.check("where walk(VA + 2 MiB) stops", VA + (2L << 20),
                    next.fault().level() + "[" + next.fault().index() + "]", "PDE0[2]", () -> state(s));
        }

        @Graded(step = "1.1", points = 2)
        @Timeout(10)
        @org.junit.jupiter.api.Test
        @DisplayName("a 64K page is found one level deeper, in PT_64K; on Hopper one more level on top")
        void deeper() {
            AddressSpace s = new AddressSpace(MmuFormat.VER2);
            s.map(0x10000, Pte.local(PageSize.SIZE_64K, 0x20000, Access.READWRITE, 0));
            assertThat(s.walk(0x10008).steps()).as("the levels of walk(0x10008); " + state(s))
                    .extracting(Walk.Step::level).containsExactly("PDE3", "PDE2", "PDE1", "PDE0", "PT_64K");
            assertThat(s.walk(0x10008).physical()).as("walk(0x10008).physical(); " + state(s)).isEqualTo(0x20008);
            AddressSpace h = new AddressSpace(MmuFormat.VER3);
            h.map(1L << 56, Pte.local(PageSize.SIZE_64K, 0, Access.READWRITE, 0));
            assertThat(indices(h.walk(1L << 56))).as("the indices of walk(2^56) on Hopper (VER3); " + state(h))
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
            Ch01Feedback.TLB_COUNT.check("misses after 512 lookups in one 2 MiB page, " + tlb, "misses",
                    tlb.misses(), 1L);
            Ch01Feedback.TLB_COUNT.check("hits after 512 lookups in one 2 MiB page, " + tlb, "hits", tlb.hits(), 511L);
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
            assertThat(tlb.lookup(0x1000)).as("lookup(0x1000) after filling it; " + tlb).isEqualTo(p);
            tlb.fill(0x3000, p);
            Ch01Feedback.TLB_LRU.check("fill 0x1000, 0x2000; lookup(0x1000); fill 0x3000 into 2 entries; is 0x2000 still"
                    + " there", "", tlb.lookup(0x2000) != null, false);
            assertThat(tlb.lookup(0x1000)).as("lookup(0x1000), the recently used one; " + tlb).isEqualTo(p);
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
            for (Object[] c : BITS_CASES) {
                Pte pte = (Pte) c[0];
                Ch01Feedback.BITS.check("bits() of " + pte, pte, pte.bits(), (Long) c[1]);
            }
            // system memory: ADDRESS_SYS is 46 bits wide (53:8), more than ADDRESS_VID's 25
            Pte sys = new Pte(PageSize.SIZE_4K, Aperture.SYSTEM_COHERENT, 0, 1L << 40, Access.READWRITE, 0);
            Ch01Feedback.BITS.check("bits() of " + sys + " (ADDRESS_SYS is 46 bits wide)", sys, sys.bits(),
                    (1L << 36) | (2L << 1) | 1L);
        }
    }

    /**
     * Step 1.3's cases, in order: a PTE and its bits (Pascal's dev_mmu.h layout). The last is a
     * fabric address: PA bits 36:12 in ADDRESS_VID 32:8, the bits above in COMPTAGLINE 53:36
     * (make_pte_turing).
     */
    static final Object[][] BITS_CASES = {
        {Pte.local(PageSize.SIZE_2M, 0x200000, Access.READWRITE, 0), 0x20001L},
        {Pte.peer(PageSize.SIZE_2M, 1, 0x400000, Access.READWRITE, 1), 0x200040003L},
        {Pte.local(PageSize.SIZE_4K, 0x1000, Access.READ, 0), 0x141L},
        {Pte.local(PageSize.SIZE_4K, 0x1000, Access.NONE, 0), 0x100L},
        {Pte.peer(PageSize.SIZE_2M, 1, (2L << 40) + 0x400000, Access.READWRITE, 1), 0x200040003L | (0x10L << 36)}};

    static List<Integer> indices(Walk w) { return w.steps().stream().map(Walk.Step::index).toList(); }

    @org.junit.jupiter.api.Test
    @DisplayName("a translation fault is a PageFault naming the level (not graded: uses step 1.1)")
    void faultType() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.translate(VA))
                .isInstanceOf(PageFault.class).hasMessageContaining("PDE3[0]");
    }
}
