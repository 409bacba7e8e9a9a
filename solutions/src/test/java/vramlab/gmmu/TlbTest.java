package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.units.Bytes;

@DisplayName("The TLB")
class TlbTest {
    static final long BASE = 0x7f0a00000000L;
    static final long K4 = 4 * Bytes.KiB;

    @Test
    @DisplayName("one 2M entry answers a sweep of 512 4 KiB steps after a single miss")
    void hugePage() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(64));
        s.map(BASE, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
        for (int i = 0; i < 512; i++) s.translate(BASE + i * K4);
        assertThat(s.tlb().misses()).isEqualTo(1);
        assertThat(s.tlb().hits()).isEqualTo(511);
    }

    @Test
    @DisplayName("512 4K pages miss on every access of every sweep when the TLB holds 64")
    void smallPages() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(64));
        for (int i = 0; i < 512; i++) s.map(BASE + i * K4, Pte.local(PageSize.SIZE_4K, i * K4, Access.READWRITE, 0));
        for (int sweep = 0; sweep < 2; sweep++) {
            for (int i = 0; i < 512; i++) s.translate(BASE + i * K4);
        }
        assertThat(s.tlb().misses()).isEqualTo(1024);
        assertThat(s.tlb().hits()).isZero();
        assertThat(s.tlb().size()).isEqualTo(64);
    }

    @Test
    @DisplayName("an unmap drops the cached entry, so the next access faults instead of hitting")
    void invalidate() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(4));
        s.map(BASE, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
        assertThat(s.translate(BASE).fromTlb()).isFalse();
        assertThat(s.translate(BASE + 8).fromTlb()).isTrue();
        s.unmap(BASE, PageSize.SIZE_2M);
        assertThatThrownBy(() -> s.translate(BASE)).isInstanceOf(PageFault.class);
    }

    @Test
    @DisplayName("least recently used goes first")
    void lru() {
        Tlb t = new Tlb(2);
        Pte a = Pte.local(PageSize.SIZE_4K, 0, Access.READ, 0);
        t.fill(0x1000, a);
        t.fill(0x2000, a);
        t.lookup(0x1000);                                    // 0x1000 is now the most recent
        t.fill(0x3000, a);                                   // evicts 0x2000
        assertThat(t.lookup(0x2000)).isNull();
        assertThat(t.lookup(0x1000)).isNotNull();
        assertThat(t.hits()).isEqualTo(2);
        assertThat(t.misses()).isEqualTo(1);
    }
}
