package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AddressSpace#map2M} and {@link AddressSpace#unmap2M}, a cudaMalloc's run of 2 MiB pages
 * written in one call, against one {@link AddressSpace#map} or {@link AddressSpace#unmap} per
 * page on a twin address space: the same PTEs, tables (their serial numbers included, as a
 * printed walk shows them), byte counts, TLB, and the same error after the same pages.
 */
@DisplayName("A run of 2 MiB PTEs written in one call, against one map or unmap per page")
class PageRunTest {
    static final long P = PageSize.SIZE_2M.bytes();
    /** Four PDE0 tables' worth of VA (512 MiB each) that straddles a PDE2 boundary and 2^47. */
    static final long BASE = (1L << 47) - 2 * 256 * P;
    static final int PAGES = 4 * 256;

    /** Everything the twins must agree on, printable, walks of the pages {@code around} included. */
    private static List<String> state(AddressSpace s, long... around) {
        List<String> out = new ArrayList<>();
        s.forEachPte((va, pte) -> out.add(Long.toHexString(va) + " " + pte));
        out.add(s.tableCount() + " tables, " + s.pageTableBytes() + " B, " + s.mappedBytes() + " B mapped, "
                + s.tlb());
        for (long va : around) out.add(s.walk(va).toString());
        s.checkInvariants();
        return out;
    }

    private static long[] frames(int n, long first) {
        long[] f = new long[n];
        for (int k = 0; k < n; k++) f[k] = first + (k * 7L % n) * P;       // not in order
        return f;
    }

    /** map2M on {@code run}, one map per page on {@code single}; the same outcome. */
    private static void mapBoth(AddressSpace run, AddressSpace single, long va, long[] f, String what) {
        String e1 = outcome(() -> run.map2M(va, f, Access.READWRITE, 0));
        String e2 = outcome(() -> {
            for (int k = 0; k < f.length; k++) single.map(va + k * P, Pte.local(PageSize.SIZE_2M, f[k], Access.READWRITE, 0));
        });
        assertThat(e1).as("map %s", what).isEqualTo(e2);
        assertThat(state(run, va, va + f.length * P - P)).as("map %s", what).isEqualTo(state(single, va, va + f.length * P - P));
    }

    private static void unmapBoth(AddressSpace run, AddressSpace single, long va, int n, String what) {
        String e1 = outcome(() -> run.unmap2M(va, n));
        String e2 = outcome(() -> {
            for (int k = 0; k < n; k++) single.unmap(va + k * P, PageSize.SIZE_2M);
        });
        assertThat(e1).as("unmap %s", what).isEqualTo(e2);
        assertThat(state(run, va)).as("unmap %s", what).isEqualTo(state(single, va));
    }

    /** "ok", or the exception's class and message. */
    private static String outcome(Runnable r) {
        try {
            r.run();
            return "ok";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** Two address spaces with a TLB, each with a 2M page, a 64K page and a 4K page already mapped. */
    private static AddressSpace[] twins() {
        AddressSpace[] s = new AddressSpace[2];
        for (int i = 0; i < 2; i++) {
            s[i] = new AddressSpace(MmuFormat.VER2, new Tlb(8));
            s[i].map(BASE + 255 * P, Pte.local(PageSize.SIZE_2M, 0x4000_0000L, Access.READ, 0));
            s[i].map(BASE + 512 * P + 0x10000, Pte.local(PageSize.SIZE_64K, 0x4020_0000L, Access.READ, 0));
            s[i].map(BASE + 515 * P + 0x3000, Pte.local(PageSize.SIZE_4K, 0x4040_0000L, Access.READ, 0));
            s[i].translate(BASE + 255 * P);                             // TLB entries an unmap must drop
            s[i].translate(BASE + 512 * P + 0x10000);
        }
        return s;
    }

    @Test
    @DisplayName("every run of 1-6 pages starting at every page around two PDE0 boundaries and the mapped pages, mapped then unmapped")
    void everyShortRun() {
        int[] near = {250, 251, 252, 253, 254, 255, 256, 257, 508, 509, 510, 511, 512, 513, 514, 515, 516};
        for (int first : near) {
            for (int n = 1; n <= 6; n++) {
                AddressSpace[] s = twins();
                String what = n + " pages from page " + first;
                long va = BASE + first * P;
                mapBoth(s[0], s[1], va, frames(n, 0x8000_0000L), what);
                if (s[1].walk(va).found()) {                          // a TLB entry the unmap must drop
                    s[0].translate(va);
                    s[1].translate(va);
                }
                unmapBoth(s[0], s[1], va, n, what);                        // fails where the map failed
                unmapBoth(s[0], s[1], BASE + 255 * P, 1, what + ", then the 2M page");
                unmapBoth(s[0], s[1], BASE + 250 * P, 10, what + ", then across the first boundary");
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("seeded runs of 1-40 pages mapped and unmapped across four PDE0 tables")
    void seeded(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        AddressSpace[] s = {new AddressSpace(MmuFormat.VER2, new Tlb(16)), new AddressSpace(MmuFormat.VER2, new Tlb(16))};
        List<long[]> live = new ArrayList<>();                          // {first page, pages}
        for (int step = 0; step < 400; step++) {
            String what = "seed " + seed + " step " + step;
            if (live.isEmpty() || rnd.nextInt(5) < 3) {
                int n = 1 + rnd.nextInt(40);
                int first = rnd.nextInt(PAGES - n);
                mapBoth(s[0], s[1], BASE + first * P, frames(n, (long) step << 32), what);
                boolean free = true;
                for (long[] r : live) free &= first + n <= r[0] || r[0] + r[1] <= first;
                if (free) live.add(new long[] {first, n});
                long probe = BASE + (first + rnd.nextInt(n)) * P;
                if (s[1].walk(probe).found()) {
                    s[0].translate(probe);
                    s[1].translate(probe);
                }
            } else {
                long[] r = live.remove(rnd.nextInt(live.size()));
                int n = (int) r[1] + (rnd.nextInt(8) == 0 ? 1 : 0);     // now and then one page too many
                unmapBoth(s[0], s[1], BASE + r[0] * P, n, what);
            }
        }
    }
}
