package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.formatSize;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The message's wording is PyTorch's (CUDACachingAllocator.cpp, 2024 main, lines 1351-1376). */
class PyTorchOomMessageTest {

    @Test
    @DisplayName("a co-tenant, this process, no limit and no private pools")
    void coTenant() {
        var f = new PyTorchOomMessage.Facts(mib(20), 0, gib(24), mib(50),
                List.of(new PyTorchOomMessage.ProcessUsage(31337, gib(9), false),
                        new PyTorchOomMessage.ProcessUsage(4242, gib(14), true)),
                -1, gib(12), 0, gib(13));
        assertThat(PyTorchOomMessage.format(f)).isEqualTo(
                "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 24.00 GiB"
                + " of which 50.00 MiB is free. Process 31337 has 9.00 GiB memory in use. Including"
                + " non-PyTorch memory, this process has 14.00 GiB memory in use. Of the allocated memory"
                + " 12.00 GiB is allocated by PyTorch, and 1024.00 MiB is reserved by PyTorch but"
                + " unallocated. If reserved but unallocated memory is large try setting"
                + " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See"
                + " documentation for Memory Management "
                + " (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)");
    }

    @Test
    @DisplayName("the hint per release: 2.9 and 2.10 link #environment-variables (2.10 naming PYTORCH_ALLOC_CONF);"
            + " 2.11's form, which no modelled release prints, is the stored source's word for word")
    void hintPerRelease() {
        var f = new PyTorchOomMessage.Facts(mib(20), 0, gib(24), mib(50), List.of(), -1, gib(12), 0, gib(13));
        String link = " (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)";
        assertThat(PyTorchOomMessage.format(f, PyTorchRelease.V2_9.hintVariable()))
                .endsWith("try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See"
                        + " documentation for Memory Management " + link);
        assertThat(PyTorchOomMessage.format(f, PyTorchRelease.V2_10.hintVariable()))
                .endsWith("try setting PYTORCH_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See"
                        + " documentation for Memory Management " + link);
        // c10/cuda/CUDACachingAllocator.cpp @eb42ad6eca0c, malloc's TORCH_CHECK_WITH(OutOfMemoryError, ...),
        // its literals in order (pytorch/pytorch#172327; first printed by 2.11.0)
        assertThat(" " + PyTorchOomMessage.TAIL_SINCE_2_11).isEqualTo(" If reserved but unallocated memory is large try setting"
                + " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid"
                + " fragmentation.  See documentation for Memory Management "
                + " (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)");
        for (PyTorchRelease r : PyTorchRelease.values()) {
            assertThat(PyTorchOomMessage.format(f, r.hintVariable())).as(r.toString()).doesNotContain("docs.pytorch.org");
        }
    }

    @Test
    @DisplayName("a memory fraction adds 'allowed', and private pools are counted as allocated")
    void allowedAndPrivatePools() {
        var f = new PyTorchOomMessage.Facts(mib(2), 1, gib(80), 0, List.of(), gib(40), gib(30), gib(2), gib(35));
        assertThat(PyTorchOomMessage.format(f))
                .contains("Tried to allocate 2.00 MiB. GPU 1 has a total capacity of 80.00 GiB of which 0 bytes is free. ")
                .contains("is free. 40.00 GiB allowed; Of the allocated memory 32.00 GiB is allocated by PyTorch, "
                        + "with 2.00 GiB allocated in private pools (e.g., CUDA Graphs), and 3.00 GiB is reserved");
    }

    @Test
    @DisplayName("every size in the message prints as format_size does, ties to even: 20 MiB + 128 KiB is"
            + " 20.12 MiB, 20 MiB + 384 KiB is 20.38 MiB")
    void tiesToEven() {
        var f = new PyTorchOomMessage.Facts(mib(20) + kib(128), 0, gib(24), mib(20) + kib(384),
                List.of(new PyTorchOomMessage.ProcessUsage(7, gib(23) + mib(640), true)),
                -1, gib(22) + mib(128), 0, gib(22) + mib(640));
        assertThat(PyTorchOomMessage.format(f)).isEqualTo(
                "CUDA out of memory. Tried to allocate 20.12 MiB. GPU 0 has a total capacity of 24.00 GiB"
                + " of which 20.38 MiB is free. Including non-PyTorch memory, this process has 23.62 GiB"
                + " memory in use. Of the allocated memory 22.12 GiB is allocated by PyTorch, and 512.00 MiB"
                + " is reserved by PyTorch but unallocated. " + PyTorchOomMessage.TAIL);
    }

    /**
     * The message as it was built before its builder was reused and its sizes appended in place
     * (issue 38): a new builder and {@code formatSize}'s string per size.
     */
    private static String reference(PyTorchOomMessage.Facts f, String hintVariable) {
        StringBuilder sb = new StringBuilder(640).append("CUDA out of memory. Tried to allocate ")
                .append(formatSize(f.tried())).append(". GPU ").append(f.device())
                .append(" has a total capacity of ").append(formatSize(f.total()))
                .append(" of which ").append(formatSize(f.free())).append(" is free. ");
        for (PyTorchOomMessage.ProcessUsage p : f.processes()) {
            if (p.isThisProcess()) {
                sb.append("Including non-PyTorch memory, this process has ");
            } else {
                sb.append("Process ").append(p.pid()).append(" has ");
            }
            sb.append(formatSize(p.bytes())).append(" memory in use. ");
        }
        if (f.allowed() >= 0) sb.append(formatSize(f.allowed())).append(" allowed; ");
        sb.append("Of the allocated memory ").append(formatSize(f.allocated() + f.privatePools()))
          .append(" is allocated by PyTorch, ");
        if (f.privatePools() > 0) {
            sb.append("with ").append(formatSize(f.privatePools()))
              .append(" allocated in private pools (e.g., CUDA Graphs), ");
        }
        sb.append("and ").append(formatSize(f.reserved() - f.allocated() - f.privatePools()))
          .append(" is reserved by PyTorch but unallocated. ")
          .append(PyTorchOomMessage.TAIL.replace("PYTORCH_CUDA_ALLOC_CONF=", hintVariable + "="));
        return sb.toString();
    }

    @Test
    @DisplayName("the reused builder writes each message as a fresh one did: seeded random facts, one after another,"
            + " long and short, on two threads")
    void reusedBuilderGivesTheSameText() throws Exception {
        java.util.Random random = new java.util.Random(38);
        List<PyTorchOomMessage.Facts> facts = new java.util.ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            List<PyTorchOomMessage.ProcessUsage> ps = new java.util.ArrayList<>();
            int n = i % 50 == 0 ? 40 : random.nextInt(4);                  // now and then a long message
            for (int k = 0; k < n; k++) ps.add(new PyTorchOomMessage.ProcessUsage(random.nextInt(1 << 20), size(random), k == 0));
            facts.add(new PyTorchOomMessage.Facts(size(random), random.nextInt(8), size(random), size(random),
                    List.copyOf(ps), random.nextBoolean() ? -1 : size(random), size(random),
                    random.nextInt(4) == 0 ? size(random) : 0, size(random)));
        }
        Runnable check = () -> {
            for (PyTorchOomMessage.Facts f : facts) {
                assertThat(PyTorchOomMessage.format(f)).isEqualTo(reference(f, "PYTORCH_CUDA_ALLOC_CONF"));
                assertThat(PyTorchOomMessage.format(f, "PYTORCH_ALLOC_CONF")).isEqualTo(reference(f, "PYTORCH_ALLOC_CONF"));
            }
        };
        Thread other = new Thread(check);
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        other.setUncaughtExceptionHandler((t, e) -> failed.set(e));
        other.start();
        check.run();
        other.join();
        assertThat(failed.get()).isNull();
    }

    /** Bytes up to a few GiB, or now and then any size up to 2^62. */
    private static long size(java.util.Random random) {
        return random.nextInt(10) == 0 ? random.nextLong() >>> 2 : (long) (random.nextDouble() * gib(4));
    }
}
