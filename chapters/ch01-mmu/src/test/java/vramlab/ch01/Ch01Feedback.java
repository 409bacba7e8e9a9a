package vramlab.ch01;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import vramlab.gmmu.Level;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.Pte;
import vramlab.quiz.feedback.Feedback;

/** What chapter 1's graded tests say to a wrong answer (see {@link Feedback}). */
public final class Ch01Feedback {
    private Ch01Feedback() {}

    static final String WALK = "ch01 \"The walk\"";
    static final String TLB = "ch01 \"The TLB\"";
    static final String PTE = "ch01 \"What a PTE holds\"";

    /** 1.1: the index the walk took at each level, for a VA on VER2. */
    public static final Feedback<Long, List<Integer>> INDICES = Feedback.<Long, List<Integer>>forStep("1.1", WALK)
            .mistake("the levels walked bottom up", (va, right, got) -> got.equals(reversed(right)),
                    "the walk starts at the root (PDE3, the VA's top bits) and goes down to PDE0")
            .mistake("an index not masked to its level's bits", (va, right, got) -> got.stream().anyMatch(i -> i > 511),
                    "an index is only its level's bits: shift the VA down to the level's lowest bit, then keep as many bits as the level's table has entries for")
            .mistake("an index taken from the wrong bits (shifted by one)", (va, right, got) -> shiftedByOne(va, got),
                    "each level's index is the VA's bits [hi:lo] of that level: PDE3 48:47, PDE2 46:38, PDE1 37:29,"
                            + " PDE0 28:21")
            .mistake("the walk stopped at a directory entry", (va, right, got) -> got.size() < right.size()
                    && right.subList(0, got.size()).equals(got),
                    "a PDE that points to a table is followed; the walk ends at a PTE, a dual PDE's page table,"
                            + " or an empty entry");

    /** 1.1: where the walk of an unmapped VA stopped, as {@code PDE1[82]}. */
    public static final Feedback<Long, String> FAULT = Feedback.<Long, String>forStep("1.1", WALK)
            .mistake("walked past an empty entry", (va, right, got) -> depth(got) > depth(right),
                    "an empty entry ends the walk at once: that level and index are the fault")
            .mistake("the fault named one level too high", (va, right, got) -> depth(got) < depth(right),
                    "the fault is the first EMPTY entry on the way down; every entry above it points to a table");

    /** 1.1: the physical address a mapped VA translates to. */
    public static final Feedback<Long, Long> PHYSICAL = Feedback.<Long, Long>forStep("1.1", WALK)
            .showing(a -> "0x" + Long.toHexString(a))
            .mistake("the offset inside the page dropped", (va, right, got) -> got == (right & ~((1L << 21) - 1)),
                    "physical = the PTE's address + the VA's offset inside the page (its low 21 bits for 2 MiB)");

    /** 1.2: a TLB counter after a sweep or a lookup. */
    public static final Feedback<String, Long> TLB_COUNT = Feedback.<String, Long>forStep("1.2", TLB)
            .mistake("a 2 MiB entry looked up by its 4 KiB page", (what, right, got) -> what.equals("misses") && got == 512,
                    "one entry covers its whole page: look the VA up at each page size (largest first) by the page"
                            + " number at that size")
            .mistake("hits not counted", (what, right, got) -> what.equals("hits") && got == 0,
                    "a lookup that finds its entry counts a hit; one that finds none counts a miss");

    /** 1.2: whether an entry is still in the TLB after another was filled. */
    public static final Feedback<String, Boolean> TLB_LRU = Feedback.<String, Boolean>forStep("1.2", TLB)
            .mistake("a lookup did not refresh its entry", (what, right, got) -> !right && got,
                    "a hit makes the entry the most recently used (LinkedHashMap in access order: get() refreshes);"
                            + " the least recently USED entry is evicted, not the oldest filled");

    /** 1.3: the PTE's 64 bits. */
    public static final Feedback<Pte, Long> BITS = Feedback.<Pte, Long>forStep("1.3", PTE)
            .showing(b -> "0x" + Long.toHexString(b))
            .mistake("VALID missing or set for no access", (p, right, got) -> (got ^ right) == 1L,
                    "VALID (bit 0) is set exactly when the page has some access")
            .mistake("READ_ONLY the wrong way round", (p, right, got) -> (got ^ right) == 1L << 6,
                    "READ_ONLY (bit 6) is set for Access.READ only")
            .mistake("the byte address where the page frame number belongs",
                    (p, right, got) -> (got >>> 8 & ((1L << 25) - 1)) == (p.address() & ((1L << 25) - 1)),
                    "the PTE holds the address >> 12 (NV_MMU_VER2_PTE_ADDRESS_SHIFT) in bits 32:8")
            .mistake("the aperture outside bits 2:1", (p, right, got) -> ((got ^ right) & ~0x7L) == 0,
                    "APERTURE is 2 bits at 2:1: 0 video memory, 1 peer, 2 and 3 system memory")
            .mistake("the peer slot outside bits 35:33", (p, right, got) -> peerElsewhere(p, right, got),
                    "a peer PTE keeps the peer's index in bits 35:33, above ADDRESS_VID");

    /** The bits right but for the peer index: missing, or shifted to another place. */
    static boolean peerElsewhere(Pte p, long right, long got) {
        long base = right & ~(7L << 33);
        if (got == base) return true;
        for (int shift = 0; shift < 62; shift++) {
            if (shift != 33 && got == (base | (long) p.peer() << shift)) return true;
        }
        return false;
    }

    static List<Integer> reversed(List<Integer> l) {
        List<Integer> r = new ArrayList<>(l);
        Collections.reverse(r);
        return r;
    }

    /** Every index taken one bit too high or too low? (VER2's directories.) */
    static boolean shiftedByOne(long va, List<Integer> got) {
        List<Level> levels = MmuFormat.VER2.directories();
        if (got.size() > levels.size()) return false;
        for (int d : new int[] {-1, 1}) {
            boolean all = true;
            for (int i = 0; i < got.size(); i++) {
                Level l = levels.get(i);
                all &= got.get(i) == (int) ((va >>> (l.lo() + d)) & (l.entries() - 1));
            }
            if (all && !got.isEmpty()) return true;
        }
        return false;
    }

    /** {@code PDE1[82]} -> 2: how far down the walk the level is. */
    static int depth(String fault) {
        String level = fault.substring(0, fault.indexOf('['));
        List<String> names = MmuFormat.VER2.directories().stream().map(Level::name).toList();
        int i = names.indexOf(level);
        return i < 0 ? names.size() : i;
    }

    static List<Feedback<?, ?>> all() { return List.of(INDICES, FAULT, PHYSICAL, TLB_COUNT, TLB_LRU, BITS); }
}
