package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;

/** The PTE and TLB figures show what the simulator encodes and counts. */
@DisplayName("The PTE bit layout and TLB reach figures")
class PteAndTlbFiguresTest {
    @Test
    @DisplayName("the PTE's fields, read back from the bits the figure draws, are the entry's own")
    void pteFields() {
        Pte pte = Ch01Figures.examplePte();
        long bits = pte.bits();
        long read = 0;
        for (Ch01Figures.Field f : Ch01Figures.PTE_FIELDS) {
            read |= f.value(bits) << f.low();
            for (Ch01Figures.Field g : Ch01Figures.PTE_FIELDS) {
                assertThat(f == g || f.low() > g.high() || g.low() > f.high()).as(f + " overlaps " + g).isTrue();
            }
        }
        assertThat(read).as("the fields cover every bit the encoding sets").isEqualTo(bits);
        assertThat(field("VALID").value(bits)).isEqualTo(1);
        assertThat(field("APERTURE").value(bits)).isEqualTo(pte.aperture().code());
        assertThat(field("ADDRESS_VID").value(bits)).isEqualTo(pte.address() >>> 12);
        assertThat(field("READ_ONLY").value(bits)).isZero();
        assertThat(Ch01Figures.figurePteBits()).contains("ADDRESS_VID 32:8").contains("= 0x" + Long.toHexString(pte.address() >>> 12));
    }

    @Test
    @DisplayName("TLB reach: 2 MiB pages walk once per page, 4 KiB pages on every read")
    void tlbReach() {
        assertThat(Ch01Outputs.sweep(PageSize.SIZE_2M).misses()).isEqualTo(8);
        assertThat(Ch01Outputs.sweep(PageSize.SIZE_64K).misses()).isEqualTo(256);
        assertThat(Ch01Outputs.sweep(PageSize.SIZE_4K).misses()).isEqualTo(4096);
        assertThat(Ch01Figures.figureTlbReach()).contains("8 walks / 4096 reads").contains("4096 walks / 4096 reads");
    }

    private static Ch01Figures.Field field(String name) {
        return Ch01Figures.PTE_FIELDS.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }
}
