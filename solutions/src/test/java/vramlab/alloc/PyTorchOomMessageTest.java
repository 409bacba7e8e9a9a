package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
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
}
