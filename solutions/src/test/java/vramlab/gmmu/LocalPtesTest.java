package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.units.Bytes;

/**
 * The kept 2 MiB PTEs (issue 38) against the plain path they replace: {@code Pte.local} made
 * anew. A kept PTE must equal a fresh one field by field and bit by bit, for every page and
 * access; an address space that uses them must hold the same PTEs as one that does not.
 */
@DisplayName("LocalPtes: a kept PTE is the one Pte.local would make")
class LocalPtesTest {
    static final long P = PageSize.SIZE_2M.bytes();

    @Test
    @DisplayName("every page of a 3-leaf card, every access: equal to a fresh PTE, and the same object again")
    void everyPage() {
        long capacity = 2 * LocalPtes.LEAF * P + 5 * P;         // two whole leaves and a part
        LocalPtes ptes = new LocalPtes(3, capacity);
        for (Access a : Access.values()) {
            for (long addr = 0; addr < capacity; addr += P) {
                Pte kept = ptes.get(addr, a);
                Pte fresh = Pte.local(PageSize.SIZE_2M, addr, a, 3);
                assertThat(kept).isEqualTo(fresh);
                assertThat(kept.bits()).isEqualTo(fresh.bits());
                assertThat(kept.toString()).isEqualTo(fresh.toString());
                assertThat(ptes.get(addr, a)).isSameAs(kept);
            }
        }
    }

    @Test
    @DisplayName("an address that is no whole page of the card: a fresh PTE, or the constructor's refusal")
    void notAPage() {
        LocalPtes ptes = new LocalPtes(0, 64 * Bytes.MiB);
        Pte beyond = ptes.get(64 * Bytes.MiB, Access.READWRITE);
        assertThat(beyond).isEqualTo(Pte.local(PageSize.SIZE_2M, 64 * Bytes.MiB, Access.READWRITE, 0));
        assertThat(ptes.get(64 * Bytes.MiB, Access.READWRITE)).isNotSameAs(beyond);
        for (long odd : new long[] {P / 2, -P, 3 * P + 4096, 4096, Long.MIN_VALUE}) {
            Pte fresh = null;
            String refusal = null;
            try {
                fresh = Pte.local(PageSize.SIZE_2M, odd, Access.READ, 0);
            } catch (IllegalArgumentException e) {
                refusal = e.getMessage();
            }
            if (refusal == null) {
                assertThat(ptes.get(odd, Access.READ)).isEqualTo(fresh);
            } else {
                assertThatThrownBy(() -> ptes.get(odd, Access.READ))
                        .isInstanceOf(IllegalArgumentException.class).hasMessage(refusal);
            }
        }
    }

    @Test
    @DisplayName("withAccess equals Pte.withAccess for local, peer, system, other-device and small PTEs")
    void withAccess() {
        LocalPtes ptes = new LocalPtes(1, Bytes.GiB);
        List<Pte> all = List.of(
                Pte.local(PageSize.SIZE_2M, 4 * P, Access.NONE, 1),
                Pte.local(PageSize.SIZE_2M, 4 * P, Access.NONE, 2),            // another GPU's
                Pte.local(PageSize.SIZE_2M, 2 * Bytes.GiB, Access.NONE, 1),    // beyond the card
                Pte.local(PageSize.SIZE_64K, 64 * Bytes.KiB, Access.READ, 1),
                Pte.local(PageSize.SIZE_4K, 4 * Bytes.KiB, Access.READ, 1),
                Pte.peer(PageSize.SIZE_2M, 3, 4 * P, Access.READ, 0),
                Pte.system(PageSize.SIZE_2M, Aperture.SYSTEM_COHERENT, 4 * P, Access.NONE, 0));
        for (Pte pte : all) {
            for (Access a : Access.values()) {
                assertThat(ptes.withAccess(pte, a)).as(pte + " -> " + a).isEqualTo(pte.withAccess(a));
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 38, 2026})
    @DisplayName("random map2M / protect / unmap2M: the same PTEs with kept ones as with fresh ones")
    void sameTables(long seed) {
        Random r = new Random(seed);
        long capacity = 256 * P;
        LocalPtes kept = new LocalPtes(0, capacity);
        AddressSpace plain = new AddressSpace(MmuFormat.VER2, new Tlb(8));
        AddressSpace shared = new AddressSpace(MmuFormat.VER2, new Tlb(8), kept);
        long base = 0x7f0a00000000L;
        List<long[]> live = new ArrayList<>();                  // {va, pages}
        long nextVa = base;
        for (int step = 0; step < 400; step++) {
            int op = r.nextInt(4);
            if (op <= 1 || live.isEmpty()) {
                int n = 1 + r.nextInt(6);
                long[] addrs = new long[n];
                for (int k = 0; k < n; k++) addrs[k] = r.nextInt(300) * P;    // some beyond the card
                Access a = Access.values()[r.nextInt(3)];
                int device = r.nextInt(4) == 0 ? 1 : 0;                     // now and then another GPU's
                plain.map2M(nextVa, addrs, a, device);
                shared.map2M(nextVa, addrs, a, device);
                live.add(new long[] {nextVa, n});
                nextVa += (n + r.nextInt(3)) * P;
            } else if (op == 2) {
                long[] m = live.get(r.nextInt(live.size()));
                Access a = Access.values()[r.nextInt(3)];
                for (int k = 0; k < m[1]; k++) {
                    plain.protect(m[0] + k * P, PageSize.SIZE_2M, a);
                    shared.protect(m[0] + k * P, PageSize.SIZE_2M, a);
                }
            } else {
                long[] m = live.remove(r.nextInt(live.size()));
                plain.unmap2M(m[0], (int) m[1]);
                shared.unmap2M(m[0], (int) m[1]);
            }
            if (step % 50 == 0 || step == 399) {
                assertThat(ptesOf(shared)).isEqualTo(ptesOf(plain));
                shared.checkInvariants();
            }
        }
    }

    private static List<String> ptesOf(AddressSpace s) {
        List<String> out = new ArrayList<>();
        s.forEachPte((va, pte) -> out.add(Long.toHexString(va) + " " + pte + " dev " + pte.device()
                + " bits " + Long.toHexString(pte.bits())));
        return out;
    }
}
