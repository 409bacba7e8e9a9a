package vramlab.ch02;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The generated outputs the notes include say what the prose says about them. */
@DisplayName("Chapter 2's generated outputs")
class Ch02OutputsTest {
    static final long MIB = 1L << 20;

    @Test
    @DisplayName("an exact multiple of 2 MiB pays no tax; one byte over pays a whole page")
    void oneByteOver() {
        String out = Ch02Outputs.outputOneByteOver();
        assertThat(out).contains("cudaMalloc(   2097152) maps   2 MiB in   1 PTEs, tax     0 bytes")
                .as("the tax is 2 MiB - 1 B, as the notes say, not format_size's 2.00 MiB")
                .contains("cudaMalloc(   2097153) maps   4 MiB in   2 PTEs, tax 2 MiB - 1 B (50.0%)")
                .contains("cudaMalloc( 104857601) maps 102 MiB in  51 PTEs");
    }

    @Test
    @DisplayName("small requests come 512 B apart and fill 4096 slices before a second page")
    void smallShare() {
        String[] lines = Ch02Outputs.outputSmallRequestsShare().split("\n");
        assertThat(lines[1]).endsWith("-> first + 512");
        assertThat(lines[2]).isEqualTo("cudaMalloc(700) -> first + 1024");
        assertThat(lines[3]).endsWith("-> first + 2048");
        assertThat(lines[4]).isEqualTo("after 100 small requests: 1 shared page, mapped 2 MiB");
        long used = 99 + 2;                                  // 99 requests of one slice, 700 B takes two
        long fit = 2 * MIB / 512 - used;
        assertThat(lines[5]).endsWith(": " + (fit + 1));
    }

    @Test
    @DisplayName("a 4 MiB allocation succeeds on two frames that are not neighbours")
    void scattered() {
        String[] lines = Ch02Outputs.outputScatteredFrames().split("\n");
        assertThat(lines[1]).contains("free 4 MiB");
        long a = Long.decode(lines[3].replaceAll(".*physical ", ""));
        long b = Long.decode(lines[4].replaceAll(".*physical ", ""));
        assertThat(Math.abs(b - a)).isGreaterThan(2 * MIB);
    }

    @Test
    @DisplayName("a pair costs 20 us a call, 1 us a page, and 100 us for the free's sync")
    void price() {
        String out = Ch02Outputs.outputPriceOfAPair();
        assertThat(out).contains("4 KiB: cudaMalloc  21.0 us (  1 pages), cudaFree and sync 121.0 us")
                .contains("1 GiB: cudaMalloc 532.0 us (512 pages), cudaFree and sync 632.0 us");
    }

    @Test
    @DisplayName("memory goes back at the unmap and with a shared page's last slice, not before")
    void release() {
        String[] lines = Ch02Outputs.outputReleaseWhileMapped().split("\n");
        assertThat(lines[1]).contains("held 4 MiB, free 60 MiB");
        assertThat(lines[2]).contains("held 0 MiB, free 64 MiB");
        assertThat(lines[3]).endsWith("held 2 MiB");
        assertThat(lines[4]).endsWith("held 0 MiB");
    }

    @Test
    @DisplayName("after cuMemMap a read faults; cuMemSetAccess refuses a range not fully mapped")
    void mapIsNotAccess() {
        String[] lines = Ch02Outputs.outputMapIsNotAccess().split("\n");
        assertThat(lines[1]).contains("no access granted");
        assertThat(lines[2]).endsWith("CUDA_ERROR_INVALID_VALUE");
        assertThat(lines[3]).contains("physical 0x");
    }

    @Test
    @DisplayName("nvidia-smi: 500 MiB context + 110 MiB of rounded large tensors + one shared page")
    void smi() {
        String out = Ch02Outputs.outputSmiIsNotTensors();
        long large = 0;
        for (int i = 0; i < 10; i++) large += (2 * i + 2) * MIB;   // (2i+1) MiB + 1 B rounds to (2i+2) MiB
        long mapped = large + 2 * MIB;                             // fifty 1000 B slices share one page
        assertThat(out).contains("mapped for them:        " + mapped / MIB + " MiB")
                .contains("4242, train.py, " + (500 + mapped / MIB) + " MiB");
    }
}
