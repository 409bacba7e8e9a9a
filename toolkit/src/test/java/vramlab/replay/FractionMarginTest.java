package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;

/**
 * A verdict's margin is measured against what PyTorch may reserve. Under
 * per_process_memory_fraction:0.99 (advise's garbage-collection row) that is 99% of the card, not
 * the card: on nesta's real OOM snapshot with --device 22.5GiB the row said "fits with 438.00 MiB
 * to spare (peak reserved 22.07 GiB of 22.50 GiB)" where the fraction left 207.60 MiB.
 */
@DisplayName("fits with X to spare: X under the memory fraction, not the whole card")
class FractionMarginTest {
    /** A recorded run that peaks at 600 MiB reserved: 30 blocks of 20 MiB, all live at the end. */
    static Snapshot recorded() {
        CachingAllocator a = new CachingAllocator(new Gpu(8L << 30).openToyProcess(), new PyTorchPolicy(""));
        a.trace().record(true, Long.MAX_VALUE);
        for (int i = 0; i < 30; i++) a.alloc(20 * MiB, 0);
        return SnapshotReader.read(SnapshotWriter.pickle(MemorySnapshot.of(a)), "run.pickle");
    }

    static WhatIf on(Snapshot s, String conf, long card) {
        return WhatIf.run(s, s.device(0), new SnapshotReplay.Options(          // 2.10: the release with the key
                        vramlab.alloc.PyTorchPolicy.of(conf, vramlab.alloc.PyTorchRelease.V2_10), card),
                (step, e, r, b, al) -> { }, false);
    }

    @Test
    @DisplayName("on a 1000 MiB card: 400 MiB to spare without a fraction, 390 MiB under 0.99 (990 MiB allowed)")
    void fractionShrinksTheMargin() {
        Snapshot s = recorded();
        WhatIf plain = on(s, "", 1000 * MiB);
        WhatIf fraction = on(s, "per_process_memory_fraction:0.99", 1000 * MiB);
        assertThat(plain.peak()).isEqualTo(600 * MiB);
        assertThat(fraction.peak()).isEqualTo(600 * MiB);
        assertThat(plain.spare()).isEqualTo(400 * MiB);
        assertThat(fraction.spare()).isEqualTo(390 * MiB);
        assertThat(plain.verdict()).contains("fits with 400.00 MiB to spare").contains("of 1000.00 MiB)");
        assertThat(fraction.verdict()).contains("fits with 390.00 MiB to spare",
                "(peak reserved 600.00 MiB of 990.00 MiB the memory fraction allows, of 1000.00 MiB on the card)");
    }

    @Test
    @DisplayName("failing against the fraction's limit, the verdict names that limit, and a note says the kit takes it of PyTorch's share")
    void failingUnderTheFraction() {
        Snapshot s = recorded();
        WhatIf fraction = on(s, "per_process_memory_fraction:0.99", 606 * MiB);   // 599.94 MiB allowed < 600
        WhatIf plain = on(s, "", 606 * MiB);
        assertThat(plain.fits()).isTrue();
        assertThat(fraction.fits()).isFalse();
        assertThat(fraction.verdict()).contains("it would not have fitted: fails by ")
                .endsWith("(1 OOM, against the 599.94 MiB the memory fraction allows, of 606.00 MiB on the card)");
        assertThat(WhatIf.fractionNote(plain.main())).isNull();
        assertThat(WhatIf.fractionNote(fraction.main())).startsWith("memory fraction 0.99: the kit takes it of"
                + " PyTorch's share of the card, 606.00 MiB, so 599.94 MiB allowed; PyTorch takes it of the card's"
                + " total as CUDA reports it");
    }

    @Test
    @DisplayName("a fraction of 1.0 is no limit: the margin is the card's")
    void wholeCard() {
        WhatIf w = on(recorded(), "per_process_memory_fraction:1.0", 1000 * MiB);
        assertThat(w.spare()).isEqualTo(400 * MiB);
    }
}
