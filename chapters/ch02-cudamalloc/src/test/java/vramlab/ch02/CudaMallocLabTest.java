package vramlab.ch02;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.Chapters;

@DisplayName("The cudaMalloc lab")
class CudaMallocLabTest {
    private static PrintStream sink(ByteArrayOutputStream b) { return new PrintStream(b, true, StandardCharsets.UTF_8); }

    @Test
    @DisplayName("prints the packing and the tax, the call counts, the VMM error codes and an nvidia-smi row")
    void runs() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        CudaMallocLab.run(sink(b));
        assertThat(b.toString(StandardCharsets.UTF_8)).contains("in a shared page: takes  512 bytes",
                "in its own pages: takes   4.00 MiB", "maps   4.00 MiB, tax 1 MiB - 1 B", "CUDA_ERROR_INVALID_VALUE",
                "CUDA_ERROR_ALREADY_MAPPED", "after cuMemUnmap + cuMemAddressFree: 0 MiB held",
                "used_gpu_memory [MiB]", "4242, python, ");
    }

    @Test
    @DisplayName("per-tensor cudaMalloc makes two calls per tensor per step; the cache makes fewer than one step's worth")
    void perTensor() {
        long[] calls = CudaMallocLab.perTensor(sink(new ByteArrayOutputStream()), 3, 200, 7);
        assertThat(calls[0]).isEqualTo(3 * 200 * 2);
        assertThat(calls[1]).isLessThan(200);
    }

    @Test
    @DisplayName("is registered as chapter 2 and draws its figure")
    void registered() {
        assertThat(Chapters.find("cudamalloc")).isInstanceOf(CudaMallocChapter.class);
        assertThat(new CudaMallocChapter().jshellStartup()).contains("void help()");
        assertThat(Ch02Figures.figureRoundingTax()).startsWith("<svg").contains("4 MiB mapped")
                .contains("512 bytes of a shared page");
    }

    @Test
    @DisplayName("the first three sizes share one page; the large ones are rounded to whole pages")
    void packedThenRounded() {
        var p = CudaMallocLab.roundingTax(sink(new ByteArrayOutputStream()));
        long large = 0;
        for (long size : CudaMallocLab.SIZES) if (size > mib(1)) large += (size + mib(2) - 1) / mib(2) * mib(2);
        assertThat(p.sharedPages()).isEqualTo(1);
        assertThat(p.mappedBytes()).isEqualTo(mib(2) + large);
    }
}
