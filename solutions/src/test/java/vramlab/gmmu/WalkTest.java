package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.units.Bytes;

@DisplayName("A page walk")
class WalkTest {
    static final long VA = 0x7f0a00200000L;       // PDE3 0, PDE2 508, PDE1 80, PDE0 1 (by hand)
    final AddressSpace s = new AddressSpace(MmuFormat.VER2);

    @Nested
    @DisplayName("of a mapped 2M page")
    class Mapped {
        @Test
        @DisplayName("visits PDE3 -> PDE2 -> PDE1 -> PDE0 with the indices the VA bits give")
        void levels() {
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0));
            Walk w = s.walk(VA + 0x1234);
            assertThat(w.steps()).extracting(Walk.Step::level).containsExactly("PDE3", "PDE2", "PDE1", "PDE0");
            assertThat(w.steps()).extracting(Walk.Step::index).containsExactly(0, 508, 80, 1);
            assertThat(w.found()).isTrue();
            assertThat(w.physical()).isEqualTo(0x40001234L);
        }

        @Test
        @DisplayName("prints one line per level and the physical address")
        void prints() {
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0));
            String text = s.walk(VA).toString();
            assertThat(text).contains("walk(0x7f0a00200000)", "PDE3   [  0]", "PDE2   [508]",
                    "PDE1   [ 80]", "PDE0   [  1] PTE 2M VID 0x40000000 RW", "physical 0x40000000");
            assertThat(text.indexOf("PDE3")).isLessThan(text.indexOf("PDE2"));
        }
    }

    @Nested
    @DisplayName("of an unmapped address")
    class Faults {
        @Test
        @DisplayName("in an empty space stops at the root")
        void atRoot() {
            Walk w = s.walk(VA);
            assertThat(w.found()).isFalse();
            assertThat(w.fault().level()).isEqualTo("PDE3");
            assertThatThrownBy(() -> s.translate(VA)).isInstanceOf(PageFault.class)
                    .hasMessageContaining("PDE3[0] is empty");
        }

        @Test
        @DisplayName("1 GiB further on stops at PDE1, entry 82")
        void atPde1() {
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
            assertThatThrownBy(() -> s.translate(VA + Bytes.GiB)).isInstanceOf(PageFault.class)
                    .hasMessageContaining("PDE1[82] is empty").hasMessageContaining("stopped at PDE1");
        }

        @Test
        @DisplayName("the next 2 MiB stops at PDE0, entry 2")
        void atPde0() {
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
            PageFault f = (PageFault) catchFault(VA + 2 * Bytes.MiB);
            assertThat(f.level()).isEqualTo("PDE0");
            assertThat(f.index()).isEqualTo(2);
        }

        @Test
        @DisplayName("a page mapped with no access faults where its PTE is")
        void noAccess() {
            s.map(VA, Pte.local(PageSize.SIZE_2M, 0, Access.NONE, 0));
            assertThat(s.walk(VA).found()).isTrue();
            assertThatThrownBy(() -> s.translate(VA)).isInstanceOf(PageFault.class)
                    .hasMessageContaining("PDE0[1]").hasMessageContaining("no access");
        }

        @Test
        @DisplayName("beyond 49 bits is not an address at all")
        void outside() {
            assertThatThrownBy(() -> s.walk(1L << 49)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("49-bit");
        }

        private RuntimeException catchFault(long va) {
            try {
                s.translate(va);
            } catch (PageFault f) {
                return f;
            }
            throw new AssertionError("no fault at 0x" + Long.toHexString(va));
        }
    }

    @Test
    @DisplayName("below a dual PDE0 a 64K page wins and the 4K table answers elsewhere")
    void dual() {
        s.map(0x10000, Pte.local(PageSize.SIZE_64K, 0x100000, Access.READWRITE, 0));
        s.map(0x1000, Pte.local(PageSize.SIZE_4K, 0x5000, Access.READWRITE, 0));
        assertThat(s.walk(0x10010).last().level()).isEqualTo("PT_64K");
        assertThat(s.walk(0x1010).steps()).extracting(Walk.Step::level).endsWith("PT_64K", "PT_4K");
        assertThat(s.translate(0x1010).physical()).isEqualTo(0x5010);
        assertThat(s.translate(0x10010).physical()).isEqualTo(0x100010);
    }
}
