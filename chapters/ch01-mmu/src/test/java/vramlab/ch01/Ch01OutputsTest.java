package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The generated outputs the notes include say what the prose says about them. */
@DisplayName("Chapter 1's generated outputs")
class Ch01OutputsTest {
    @Test
    @DisplayName("the address 0x7f0a00200040 selects PDE3 entry 0 and PDE0 entry 1 in VER2")
    void slice() {
        String out = Ch01Outputs.outputSliceTheAddress();
        // 0x7f0a00200040 >> 47 = 0; >> 21 & 0xff = 1
        assertThat(out).contains("PDE3   bits [48:47]  2 bits,   4 entries").contains("index   1");
        assertThat(out).contains("VER3 (57-bit, Hopper)");
    }

    @Test
    @DisplayName("a 2M page costs the root and three tables; a 64K page adds a 256-byte table")
    void tables() {
        String out = Ch01Outputs.outputTablesPerPage();
        assertThat(out).containsPattern("one  2M page at 0x7f0a00000000: +4 tables \\(16384 B\\)")
                .containsPattern("one 64K page at 0x7f0a00000000: +5 tables \\(16640 B\\)")
                .containsPattern("one  4K page at 0x7f0a00000000: +5 tables \\(20480 B\\)");
    }

    @Test
    @DisplayName("a 2M TLB entry reaches 128 MiB of 64; 4K pages miss on every page")
    void reach() {
        String out = Ch01Outputs.outputTlbReach();
        assertThat(out).contains("2M pages: 64 entries reach 128 MiB").contains("4088 hits,    8 misses")
                .contains("4K pages: 64 entries reach 256 KiB").contains("   0 hits, 4096 misses");
    }

    @Test
    @DisplayName("a reservation leaves free memory as it was; only the mapping takes frames")
    void reserve() {
        String[] lines = Ch01Outputs.outputReserveIsFree().split("\n");
        assertThat(free(lines[0])).isEqualTo(free(lines[2]));
        assertThat(free(lines[0]) - free(lines[3])).isEqualTo(2);
        assertThat(lines[2]).contains("page tables 1,");
    }

    private static long free(String line) {
        return Long.parseLong(line.replaceAll(".*free (\\d+) MiB.*", "$1"));
    }

    @Test
    @DisplayName("nvidia-smi charges the context plus whole 2 MiB pages; a 64 B request shares a page")
    void smi() {
        String[] lines = Ch01Outputs.outputSmiCharge().split("\n");
        assertThat(lines[2]).contains("1, python, 500").contains("free 80908 MiB of 81408 MiB");
        assertThat(lines[3]).contains("1, python, 504").contains("free 80904 MiB");
        assertThat(lines[4]).contains("1, python, 506").contains("free 80902 MiB");
    }

    @Test
    @DisplayName("GPU 0 gives slot 0 to the first peer it enables, slot 1 to the next; the owner's PTE is video")
    void peers() {
        String[] lines = Ch01Outputs.outputPeerSlots().split("\n");
        assertThat(lines[0]).contains("PEER0 (GPU 2)").endsWith("; aperture 1, slot 0");
        assertThat(lines[1]).contains("PEER1 (GPU 1)").endsWith("; aperture 1, slot 1");
        assertThat(lines[2]).endsWith("; aperture 0");
    }

    @Test
    @DisplayName("two processes get the same VA and different frames; a fault is not an OOM; frames go back")
    void misconceptions() {
        assertThat(Ch01Outputs.outputSameVaTwoProcesses()).contains("same virtual address: true; same frame: false");
        assertThat(Ch01Outputs.outputFaultIsNotOom()).contains("is empty").contains("cudaErrorMemoryAllocation")
                .contains("still translates: true");
        String back = Ch01Outputs.outputFramesGoBack();
        String[] lines = back.split("\n");
        assertThat(lines[2]).contains("notebook's 40 GiB starts at physical");
        String[] phys = lines[2].replaceAll(".*physical (0x[0-9a-f]+).*started at (0x[0-9a-f]+)", "$1 $2").split(" ");
        assertThat(phys[0]).isEqualTo(phys[1]);
    }
}
