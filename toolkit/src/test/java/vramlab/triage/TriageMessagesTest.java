package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parser and the ladder on realistic messages, one per row: every PyTorch format family,
 * the ways people paste them, and the look-alikes. Every message is written for this test
 * (the kit's own numbers and file names); the expected bytes are computed here from the
 * printed figure with exact decimal arithmetic, independently of {@link Sizes}.
 */
class TriageMessagesTest {
    private static final String TAIL_22 = "If reserved but unallocated memory is large try setting "
            + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
            + "documentation for Memory Management  "
            + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)";
    private static final String TAIL_21 = "If reserved but unallocated memory is large try setting "
            + "max_split_size_mb to avoid fragmentation.  See documentation for Memory Management "
            + "and PYTORCH_CUDA_ALLOC_CONF";
    private static final String TAIL_1X = " If reserved memory is >> allocated memory try setting "
            + "max_split_size_mb to avoid fragmentation.  See documentation for Memory Management "
            + "and PYTORCH_CUDA_ALLOC_CONF";

    static Stream<Arguments> messages() {
        return Stream.of(
            // ---- PyTorch 2.1 and later: the sentence form ----
            c("2.x fragmentation, one line", Cause.FRAGMENTATION, Family.SENTENCE,
                "requested=1.50 GiB; device=3; capacity=79.33 GiB; free=612.00 MiB; thisProcess=78.72 GiB;"
                    + " allocatedByPyTorch=70.10 GiB; reservedButUnallocated=6.90 GiB; otherProcesses=0",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 3 has a total "
                    + "capacity of 79.33 GiB of which 612.00 MiB is free. Including non-PyTorch memory, this "
                    + "process has 78.72 GiB memory in use. Of the allocated memory 70.10 GiB is allocated by "
                    + "PyTorch, and 6.90 GiB is reserved by PyTorch but unallocated. " + TAIL_22),
            c("2.1 spelling 'capacty', a full card", Cause.FULL_OR_DRIVER_RESERVE, Family.SENTENCE,
                "requested=250.00 MiB; capacity=23.65 GiB; free=86.31 MiB; thisProcess=23.04 GiB;"
                    + " allocatedByPyTorch=22.41 GiB; reservedButUnallocated=121.77 MiB",
                "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 250.00 MiB. GPU 0 has a "
                    + "total capacty of 23.65 GiB of which 86.31 MiB is free. Including non-PyTorch memory, "
                    + "this process has 23.04 GiB memory in use. Of the allocated memory 22.41 GiB is "
                    + "allocated by PyTorch, and 121.77 MiB is reserved by PyTorch but unallocated. " + TAIL_21),
            c("2.x a co-tenant holds a third of the card", Cause.OTHER_PROCESSES, Family.SENTENCE,
                "requested=2.00 GiB; capacity=39.39 GiB; free=1.12 GiB; otherProcesses=13.50 GiB;"
                    + " thisProcess=24.70 GiB; reservedButUnallocated=310.00 MiB",
                "OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
                    + "of 39.39 GiB of which 1.12 GiB is free. Process 48213 has 13.50 GiB memory in use. "
                    + "Including non-PyTorch memory, this process has 24.70 GiB memory in use. Of the "
                    + "allocated memory 23.80 GiB is allocated by PyTorch, and 310.00 MiB is reserved by "
                    + "PyTorch but unallocated. " + TAIL_22),
            c("2.x two co-tenants, lines wrapped by a terminal", Cause.OTHER_PROCESSES, Family.SENTENCE,
                "requested=768.00 MiB; capacity=15.77 GiB; free=402.88 MiB; otherProcesses=6.25 GiB",
                """
                torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB. GPU 0 has a t
                otal capacity of 15.77 GiB of which 402.88 MiB is free. Process 7001 has 2.25 GiB memo
                ry in use. Process 7002 has 4.00 GiB memory in use. Including non-PyTorch memory, this
                 process has 9.08 GiB memory in use. Of the allocated memory 8.44 GiB is allocated by P
                yTorch, and 96.00 MiB is reserved by PyTorch but unallocated. If reserved but unalloca
                ted memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to av
                oid fragmentation.
                """),
            c("2.x private pools of CUDA graphs", Cause.CUDA_GRAPH_POOLS, Family.SENTENCE,
                "requested=512.00 MiB; capacity=79.33 GiB; privatePools=9.75 GiB; allocatedByPyTorch=77.90 GiB;"
                    + " reservedButUnallocated=88.00 MiB",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total "
                    + "capacity of 79.33 GiB of which 301.25 MiB is free. Including non-PyTorch memory, this "
                    + "process has 78.54 GiB memory in use. Of the allocated memory 77.90 GiB is allocated by "
                    + "PyTorch, with 9.75 GiB allocated in private pools (e.g., CUDA Graphs), and 88.00 MiB "
                    + "is reserved by PyTorch but unallocated. " + TAIL_22),
            c("2.x NCCL: non-PyTorch memory in a rank", Cause.NCCL_BUFFERS, Family.SENTENCE,
                "requested=1.00 GiB; device=5; thisProcess=79.01 GiB; allocatedByPyTorch=74.02 GiB;"
                    + " reservedButUnallocated=410.50 MiB",
                """
                [rank5]: Traceback (most recent call last):
                [rank5]:   File "/srv/jobs/pretrain.py", line 240, in train_step
                [rank5]:     dist.all_reduce(grad_bucket)
                [rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 5 has a
                [rank5]: total capacity of 79.33 GiB of which 318.44 MiB is free. Including non-PyTorch memory,
                [rank5]: this process has 79.01 GiB memory in use. Of the allocated memory 74.02 GiB is
                [rank5]: allocated by PyTorch, and 410.50 MiB is reserved by PyTorch but unallocated.
                """),
            c("2.x cuDNN: the traceback ends in a convolution", Cause.CUDNN_WORKSPACE, Family.SENTENCE,
                "requested=864.00 MiB; capacity=11.72 GiB; free=402.44 MiB",
                """
                  File "/home/ana/seg/model.py", line 61, in forward
                    x = self.stem(x)
                  File "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/conv.py", line 454, in _conv_forward
                    return F.conv2d(input, weight, bias, self.stride,
                torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 864.00 MiB. GPU 0 has a total capacity of 11.72 GiB of which 402.44 MiB is free. Including non-PyTorch memory, this process has 11.30 GiB memory in use. Of the allocated memory 10.51 GiB is allocated by PyTorch, and 211.08 MiB is reserved by PyTorch but unallocated.
                """),
            c("2.x with a memory fraction ('allowed')", Cause.FULL_OR_DRIVER_RESERVE, Family.SENTENCE,
                "requested=20.00 MiB; allowed=8.00 GiB; capacity=23.65 GiB; free=14.95 GiB",
                "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 1 has a total capacity of 23.65 GiB of "
                    + "which 14.95 GiB is free. Including non-PyTorch memory, this process has 8.44 GiB memory "
                    + "in use. 8.00 GiB allowed; Of the allocated memory 7.96 GiB is allocated by PyTorch, and "
                    + "4.00 MiB is reserved by PyTorch but unallocated. " + TAIL_22),
            c("2.x naming PYTORCH_ALLOC_CONF", Cause.FRAGMENTATION, Family.SENTENCE,
                "requested=3.20 GiB; reservedButUnallocated=3.61 GiB",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.20 GiB. GPU 0 has a total "
                    + "capacity of 44.52 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this "
                    + "process has 43.49 GiB memory in use. Of the allocated memory 39.40 GiB is allocated by "
                    + "PyTorch, and 3.61 GiB is reserved by PyTorch but unallocated. If reserved but "
                    + "unallocated memory is large try setting PYTORCH_ALLOC_CONF=expandable_segments:True "
                    + "to avoid fragmentation."),
            c("vLLM worker prefixes on every line", Cause.FULL_OR_DRIVER_RESERVE, Family.SENTENCE,
                "requested=448.00 MiB; capacity=47.50 GiB; free=129.75 MiB; thisProcess=47.36 GiB",
                """
                (VllmWorker rank=1 pid=9120) ERROR 07-02 11:40:12 [multiproc_executor.py:527] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 1 has a total capacity of 47.50 GiB of which
                (VllmWorker rank=1 pid=9120) ERROR 07-02 11:40:12 [multiproc_executor.py:527] 129.75 MiB is free. Including non-PyTorch memory, this process has 47.36 GiB memory in use. Of the allocated memory
                (VllmWorker rank=1 pid=9120) ERROR 07-02 11:40:12 [multiproc_executor.py:527] 46.81 GiB is allocated by PyTorch, and 58.12 MiB is reserved by PyTorch but unallocated.
                """),
            c("Ray-style worker prefix and an ISO timestamp", Cause.FRAGMENTATION, Family.SENTENCE,
                "requested=64.00 MiB; reservedButUnallocated=1.25 GiB",
                """
                (TrainWorker pid=3317) 2025-01-19 22:04:51,377 - trainer - ERROR - torch.OutOfMemoryError: CUDA out of memory.
                (TrainWorker pid=3317) 2025-01-19 22:04:51,377 - trainer - ERROR - Tried to allocate 64.00 MiB. GPU 0 has a total capacity of 15.77 GiB of which 18.50 MiB is free.
                (TrainWorker pid=3317) 2025-01-19 22:04:51,377 - trainer - ERROR - Including non-PyTorch memory, this process has 15.74 GiB memory in use. Of the allocated memory 14.02 GiB is allocated by PyTorch, and 1.25 GiB is reserved by PyTorch but unallocated.
                """),
            c("a Python repr with escaped newlines and quotes", Cause.FRAGMENTATION, Family.SENTENCE,
                "requested=2.00 MiB; free=0 bytes; reservedButUnallocated=2.31 GiB",
                "error=OutOfMemoryError('CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total "
                    + "capacity of 7.63 GiB of which 0 bytes is free.\\nIncluding non-PyTorch memory, this "
                    + "process has 7.18 GiB memory in use. Of the allocated memory 4.40 GiB is allocated by "
                    + "PyTorch, and 2.31 GiB is reserved by PyTorch but unallocated. If reserved but "
                    + "unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
                    + "to avoid fragmentation.  See documentation for Memory Management  "
                    + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)') \\'step 41\\'"),
            c("a JSON log line", Cause.FRAGMENTATION, Family.SENTENCE,
                "requested=20.00 MiB; free=4.94 MiB; reservedButUnallocated=512.00 MiB",
                "{\"level\": \"error\", \"msg\": \"torch.OutOfMemoryError: CUDA out of memory. Tried to "
                    + "allocate 20.00 MiB. GPU 0 has a total capacity of 5.78 GiB of which 4.94 MiB is "
                    + "free.\\nIncluding non-PyTorch memory, this process has 5.46 GiB memory in use. Of the "
                    + "allocated memory 4.61 GiB is allocated by PyTorch, and 512.00 MiB is reserved by "
                    + "PyTorch but unallocated.\"}"),
            c("two ranks, their lines interleaved", Cause.OTHER_PROCESSES, Family.SENTENCE,
                "requested=4.00 GiB; otherProcesses=20.00 GiB",
                """
                [rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total
                [rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 1 has a total
                [rank0]: capacity of 79.33 GiB of which 2.06 GiB is free. Process 60001 has 20.00 GiB memory in use.
                [rank1]: capacity of 79.33 GiB of which 2.06 GiB is free. Including non-PyTorch memory, this process
                [rank0]: Including non-PyTorch memory, this process has 56.75 GiB memory in use. Of the allocated
                [rank1]: has 76.75 GiB memory in use. Of the allocated memory 75.90 GiB is allocated by PyTorch,
                [rank0]: memory 55.90 GiB is allocated by PyTorch, and 200.00 MiB is reserved by PyTorch but unallocated.
                [rank1]: and 200.00 MiB is reserved by PyTorch but unallocated.
                """),
            c("cut off after 'of which'", Cause.FULL_OR_DRIVER_RESERVE, Family.SENTENCE,
                "requested=96.00 MiB; device=0; capacity=10.75 GiB",
                "RuntimeError: CUDA out of memory. Tried to allocate 96.00 MiB. GPU 0 has a total capacity "
                    + "of 10.75 GiB of which"),
            // the request alone, nothing to weigh it against: no cause is shown (ray-project/ray#47509)
            c("cut off right after the request", Cause.CANNOT_TELL, Family.SENTENCE,
                "requested=1.00 GiB",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB"),
            c("small figures in bytes and KiB", Cause.FULL_OR_DRIVER_RESERVE, Family.SENTENCE,
                "requested=2.00 MiB; free=1008.00 KiB; reservedButUnallocated=512 bytes; capacity=3.81 GiB",
                "CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 3.81 GiB of "
                    + "which 1008.00 KiB is free. Including non-PyTorch memory, this process has 3.44 GiB "
                    + "memory in use. Of the allocated memory 3.07 GiB is allocated by PyTorch, and 512 bytes "
                    + "is reserved by PyTorch but unallocated. " + TAIL_22),
            c("a request larger than the card", Cause.FULL_OR_DRIVER_RESERVE, Family.SENTENCE,
                "requested=96.00 GiB; capacity=79.33 GiB",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 96.00 GiB. GPU 0 has a total "
                    + "capacity of 79.33 GiB of which 70.12 GiB is free. Including non-PyTorch memory, this "
                    + "process has 8.65 GiB memory in use. Of the allocated memory 8.03 GiB is allocated by "
                    + "PyTorch, and 40.00 MiB is reserved by PyTorch but unallocated. " + TAIL_22),
            c("more than 1EB", Cause.FULL_OR_DRIVER_RESERVE, Family.ONE_EB,
                "requested=1152921504606846976",
                "RuntimeError: CUDA out of memory. Tried to allocate more than 1EB memory."),
            c("MPS clients: the server holds the memory", Cause.OTHER_PROCESSES, Family.SENTENCE,
                "requested=128.00 MiB; otherProcesses=10.31 GiB",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB. GPU 0 has a total "
                    + "capacity of 23.65 GiB of which 20.44 MiB is free. Process 1507 has 10.31 GiB memory in "
                    + "use. Including non-PyTorch memory, this process has 12.62 GiB memory in use. Of the "
                    + "allocated memory 12.14 GiB is allocated by PyTorch, and 60.33 MiB is reserved by "
                    + "PyTorch but unallocated."),
            // ---- what arithmetic on the card settles that a mechanical ladder does not ----
            c("a container's own pid as the only process line", Cause.FULL_OR_DRIVER_RESERVE,
                Family.SENTENCE, "otherProcesses=23.30 GiB; reservedButUnallocated=250.00 MiB",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total "
                    + "capacity of 23.65 GiB of which 100.00 MiB is free. Process 7777 has 23.30 GiB memory "
                    + "in use. Of the allocated memory 22.50 GiB is allocated by PyTorch, and 250.00 MiB is "
                    + "reserved by PyTorch but unallocated. " + TAIL_22),
            c("a co-tenant holding most of the card outranks holes in ours", Cause.OTHER_PROCESSES,
                Family.SENTENCE, "otherProcesses=60.00 GiB; reservedButUnallocated=1.90 GiB",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total "
                    + "capacity of 79.33 GiB of which 300.00 MiB is free. Process 1111 has 60.00 GiB memory in "
                    + "use. Including non-PyTorch memory, this process has 18.50 GiB memory in use. Of the "
                    + "allocated memory 16.00 GiB is allocated by PyTorch, and 1.90 GiB is reserved by "
                    + "PyTorch but unallocated. " + TAIL_22),
            c("1.x: a context and a desktop on a 24 GiB card are not a co-tenant",
                Cause.FULL_OR_DRIVER_RESERVE, Family.RESERVED_IN_TOTAL, "reserved=21.20 GiB",
                "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 23.69 GiB total "
                    + "capacity; 20.50 GiB already allocated; 120.00 MiB free; 21.20 GiB reserved in total by "
                    + "PyTorch)" + TAIL_1X),
            c("Windows: live tensors plus the request exceed the card", Cause.FULL_OR_DRIVER_RESERVE,
                Family.RESERVED_IN_TOTAL, "requested=6.00 GiB; reserved=14.00 GiB",
                "RuntimeError: CUDA out of memory. Tried to allocate 6.00 GiB (GPU 0; 8.00 GiB total "
                    + "capacity; 7.50 GiB already allocated; 0 bytes free; 14.00 GiB reserved in total by "
                    + "PyTorch)" + TAIL_1X),
            c("a serving log: the capture started and never finished", Cause.CUDA_GRAPH_POOLS,
                Family.SENTENCE, "requested=128.00 MiB",
                """
                INFO 05-02 10:11:12 [gpu_model_runner.py:1800] Capturing CUDA graph shapes:  40%|████      | 27/67
                ERROR 05-02 10:11:13 [core.py:500] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB. GPU 0 has a total capacity of 23.55 GiB of which 90.00 MiB is free. Including non-PyTorch memory, this process has 23.44 GiB memory in use. Of the allocated memory 22.60 GiB is allocated by PyTorch, with 380.00 MiB allocated in private pools (e.g., CUDA Graphs), and 150.00 MiB is reserved by PyTorch but unallocated.
                """),
            c("a serving log: the capture finished long before", Cause.FULL_OR_DRIVER_RESERVE,
                Family.SENTENCE, "requested=128.00 MiB",
                """
                INFO 05-02 10:11:12 [gpu_model_runner.py:1800] Capturing CUDA graph shapes: 100%|██████████| 67/67
                INFO 05-02 10:11:20 [gpu_model_runner.py:1900] Graph capturing finished in 8 secs, took 0.45 GiB
                ERROR 05-02 11:40:01 [core.py:500] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB. GPU 0 has a total capacity of 23.55 GiB of which 90.00 MiB is free. Including non-PyTorch memory, this process has 23.44 GiB memory in use. Of the allocated memory 22.60 GiB is allocated by PyTorch, with 20.00 MiB allocated in private pools (e.g., CUDA Graphs), and 150.00 MiB is reserved by PyTorch but unallocated.
                """),
            c("an NCCL shutdown warning after a full-card OOM", Cause.FULL_OR_DRIVER_RESERVE, Family.SENTENCE,
                "requested=2.00 GiB",
                """
                [rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 39.38 GiB of which 1.10 GiB is free. Including non-PyTorch memory, this process has 38.27 GiB memory in use. Of the allocated memory 37.40 GiB is allocated by PyTorch, and 300.00 MiB is reserved by PyTorch but unallocated.
                [rank0]:[W501 10:00:00.000000000 ProcessGroupNCCL.cpp:1476] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources.
                """),
            c("a small private pool is a passing detail", Cause.FRAGMENTATION, Family.SENTENCE,
                "privatePools=46.00 MiB; reservedButUnallocated=2.50 GiB",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total "
                    + "capacity of 39.38 GiB of which 200.00 MiB is free. Including non-PyTorch memory, this "
                    + "process has 39.10 GiB memory in use. Of the allocated memory 36.00 GiB is allocated by "
                    + "PyTorch, with 46.00 MiB allocated in private pools (e.g., CUDA Graphs), and 2.50 GiB is "
                    + "reserved by PyTorch but unallocated. " + TAIL_22),
            c("cuDNN found no algorithm it could allocate", Cause.CUDNN_WORKSPACE, Family.CUDNN_ERROR, "",
                """
                  File "/srv/seg/model.py", line 88, in forward
                    return self.head(x)
                RuntimeError: Unable to find a valid cuDNN algorithm to run convolution
                """),
            c("NCCL's own calloc failed", Cause.NCCL_BUFFERS, Family.NCCL_ERROR, "",
                """
                node7:5151:5190 [2] include/alloc.h:103 NCCL WARN Failed to CUDA calloc 8388608 bytes
                node7:5151:5190 [2] NCCL INFO transport/p2p.cc:300 -> 1
                """),
            c("a framework re-raised the OOM without figures", Cause.CANNOT_TELL, Family.WRAPPED, "",
                "RuntimeError: CUDA out of memory occurred when warming up the sampler. Please try lowering "
                    + "max_num_seqs."),
            c("a paste that starts at 'Tried to allocate'", Cause.OTHER_PROCESSES, Family.RESERVED_IN_TOTAL,
                "requested=216.00 MiB; reserved=86.00 MiB",
                "Tried to allocate 216.00 MiB (GPU 0; 7.92 GiB total capacity; 69.17 MiB already allocated; "
                    + "24.56 MiB free; 86.00 MiB reserved in total by PyTorch)"),
            // ---- PyTorch 1.4 to 2.0 ----
            c("1.x reserved in total, fragmentation", Cause.FRAGMENTATION, Family.RESERVED_IN_TOTAL,
                "requested=2.44 GiB; device=0; capacity=31.75 GiB; allocatedByPyTorch=24.10 GiB;"
                    + " free=1.37 GiB; reserved=29.02 GiB",
                "RuntimeError: CUDA out of memory. Tried to allocate 2.44 GiB (GPU 0; 31.75 GiB total "
                    + "capacity; 24.10 GiB already allocated; 1.37 GiB free; 29.02 GiB reserved in total by "
                    + "PyTorch)" + TAIL_1X),
            c("1.x with 'allowed' from a memory fraction", Cause.FULL_OR_DRIVER_RESERVE, Family.RESERVED_IN_TOTAL,
                "requested=20.00 MiB; allowed=6.00 GiB; reserved=5.95 GiB; free=17.39 GiB",
                "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.69 GiB total "
                    + "capacity; 5.94 GiB already allocated; 17.39 GiB free; 6.00 GiB allowed; 5.95 GiB "
                    + "reserved in total by PyTorch)"),
            c("1.x: a large share is nobody's in the message", Cause.OTHER_PROCESSES, Family.RESERVED_IN_TOTAL,
                "requested=1.02 GiB; capacity=10.76 GiB; free=92.19 MiB; reserved=5.86 GiB",
                "RuntimeError: CUDA out of memory. Tried to allocate 1.02 GiB (GPU 0; 10.76 GiB total "
                    + "capacity; 5.71 GiB already allocated; 92.19 MiB free; 5.86 GiB reserved in total by "
                    + "PyTorch)" + TAIL_1X),
            c("1.x in a distributed run: the missing share goes to NCCL", Cause.NCCL_BUFFERS,
                Family.RESERVED_IN_TOTAL, "requested=512.00 MiB; reserved=27.40 GiB",
                """
                Namespace(batch_size=32, dist_backend='nccl', world_size=4)
                Traceback (most recent call last):
                  File "ddp_main.py", line 131, in <module>
                    model = DistributedDataParallel(model, device_ids=[local_rank])
                RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 2; 31.75 GiB total capacity;
                27.01 GiB already allocated; 210.06 MiB free; 27.40 GiB reserved in total by PyTorch)
                """),
            c("1.x under DDP, no second rank shown: a co-tenant, NCCL only a lead", Cause.OTHER_PROCESSES,
                Family.RESERVED_IN_TOTAL, "requested=512.00 MiB; reserved=27.40 GiB",
                """
                Traceback (most recent call last):
                  File "ddp_main.py", line 131, in <module>
                    model = DistributedDataParallel(model, device_ids=[local_rank])
                RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 2; 31.75 GiB total capacity;
                27.01 GiB already allocated; 210.06 MiB free; 27.40 GiB reserved in total by PyTorch)
                """),
            c("1.x with CUDA graphs in the traceback", Cause.CUDA_GRAPH_POOLS, Family.RESERVED_IN_TOTAL,
                "requested=160.00 MiB",
                """
                  File "bench.py", line 77, in capture
                    with torch.cuda.graph(g):
                RuntimeError: CUDA out of memory. Tried to allocate 160.00 MiB (GPU 0; 39.59 GiB total capacity;
                37.20 GiB already allocated; 20.19 MiB free; 37.31 GiB reserved in total by PyTorch)
                """),
            // ---- PyTorch 0.4 to 1.3 ----
            // 'cached' is amount_cached - amount_allocated in those releases: the unallocated part
            c("0.4-1.3 'cached', fragmentation", Cause.FRAGMENTATION, Family.CACHED,
                "requested=1.46 GiB; capacity=11.17 GiB; allocatedByPyTorch=7.63 GiB; free=1.06 GiB;"
                    + " reservedButUnallocated=2.19 GiB",
                "RuntimeError: CUDA out of memory. Tried to allocate 1.46 GiB (GPU 0; 11.17 GiB total "
                    + "capacity; 7.63 GiB already allocated; 1.06 GiB free; 2.19 GiB cached)"),
            c("0.4-1.3 'cached', a full card", Cause.FULL_OR_DRIVER_RESERVE, Family.CACHED,
                "requested=64.00 MiB; free=3.19 MiB; reservedButUnallocated=30.00 MiB",
                "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.93 GiB total "
                    + "capacity; 7.41 GiB already allocated; 3.19 MiB free; 30.00 MiB cached)"),
            // ---- before 0.4 ----
            c("THCudaCheck, before 0.4", Cause.CANNOT_TELL, Family.THC_LEGACY, "",
                """
                THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1510/work/torch/lib/THC/generic/THCStorage.cu line=66 error=2 : out of memory
                Traceback (most recent call last):
                RuntimeError: cuda runtime error (2) : out of memory at /opt/conda/conda-bld/pytorch_1510/work/torch/lib/THC/generic/THCStorage.cu:66
                """),
            // ---- the cudaMallocAsync backend ----
            c("cudaMallocAsync, no fraction set", Cause.FULL_OR_DRIVER_RESERVE, Family.MALLOC_ASYNC,
                "device=0; allocatedByPyTorch=21.10 GiB; requested=3.00 GiB; capacity=23.64 GiB; free=1.20 GiB",
                """
                torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)
                Currently allocated     : 21.10 GiB
                Requested               : 3.00 GiB
                Device limit            : 23.64 GiB
                Free (according to CUDA): 1.20 GiB
                PyTorch limit (set by user-supplied memory fraction)
                                        : 17179869184.00 GiB
                """),
            c("cudaMallocAsync with a fraction", Cause.FULL_OR_DRIVER_RESERVE, Family.MALLOC_ASYNC,
                "allocatedByPyTorch=11.90 GiB; requested=256.00 MiB; allowed=12.00 GiB; free=10.93 GiB",
                """
                [rank0]: torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)
                [rank0]: Currently allocated     : 11.90 GiB
                [rank0]: Requested               : 256.00 MiB
                [rank0]: Device limit            : 23.64 GiB
                [rank0]: Free (according to CUDA): 10.93 GiB
                [rank0]: PyTorch limit (set by user-supplied memory fraction)
                [rank0]:                         : 12.00 GiB
                """),
            // ---- raw CUDA and NCCL errors ----
            c("a raw 'CUDA error: out of memory'", Cause.CANNOT_TELL, Family.CUDA_ERROR, "",
                """
                RuntimeError: CUDA error: out of memory
                CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
                For debugging consider passing CUDA_LAUNCH_BLOCKING=1.
                """),
            c("a raw CUDA error in a rank", Cause.NCCL_BUFFERS, Family.CUDA_ERROR, "",
                "[rank2]: RuntimeError: CUDA error: out of memory\n"
                    + "[rank2]: Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"),
            c("NCCL's own allocation failed", Cause.NCCL_BUFFERS, Family.NCCL_ERROR, "",
                """
                torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2006, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
                ncclUnhandledCudaError: Call to CUDA function failed.
                Last error:
                Cuda failure 'out of memory'
                """),
            // ---- look-alikes ----
            c("TensorFlow", Cause.NOT_PYTORCH_OOM, Family.LOOK_ALIKE, "",
                "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor "
                    + "with shape[64,512,56,56] and type float on /job:localhost/replica:0/task:0/device:GPU:0 "
                    + "by allocator GPU_0_bfc"),
            c("JAX / XLA", Cause.NOT_PYTORCH_OOM, Family.LOOK_ALIKE, "",
                "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
                    + "allocate 12884901888 bytes."),
            c("JAX / XLA, 'Failed to allocate request'", Cause.NOT_PYTORCH_OOM, Family.LOOK_ALIKE, "",
                "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Failed to allocate request for "
                    + "2.00GiB (2147483648B) on device ordinal 0"),
            c("the CPU allocator, with a tool's hint about CUDA", Cause.NOT_PYTORCH_OOM, Family.LOOK_ALIKE, "",
                "RuntimeError: [enforce fail at alloc_cpu.cpp:83] data. DefaultCPUAllocator: not enough memory: "
                    + "you tried to allocate 1073741824 bytes.\nIf you hit CUDA out of memory, lower --tile."),
            c("ROCm: PyTorch's allocator on HIP, read like CUDA's", Cause.FULL_OR_DRIVER_RESERVE, Family.SENTENCE,
                "requested=4.00 GiB; capacity=63.98 GiB; free=2.50 GiB",
                "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total "
                    + "capacity of 63.98 GiB of which 2.50 GiB is free. Of the allocated memory 60.11 GiB is "
                    + "allocated by PyTorch, and 1.02 GiB is reserved by PyTorch but unallocated."),
            c("ROCm: a raw HIP error", Cause.NOT_PYTORCH_OOM, Family.LOOK_ALIKE, "",
                "RuntimeError: HIP error: out of memory\nHIP kernel errors might be asynchronously reported"),
            c("Apple MPS", Cause.NOT_PYTORCH_OOM, Family.LOOK_ALIKE, "",
                "RuntimeError: MPS backend out of memory (MPS allocated: 17.42 GB, other allocations: 1.10 GB, "
                    + "max allowed: 18.13 GB). Tried to allocate 384.00 MB on private pool. Use "
                    + "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations "
                    + "(may cause system failure)."),
            c("the CPU allocator", Cause.NOT_PYTORCH_OOM, Family.LOOK_ALIKE, "",
                "RuntimeError: [enforce fail at alloc_cpu.cpp:117] err == 0. DefaultCPUAllocator: can't "
                    + "allocate memory: you tried to allocate 68719476736 bytes. Error code 12 (Cannot "
                    + "allocate memory)"),
            c("cuBLAS handle creation", Cause.NOT_PYTORCH_OOM, Family.LOOK_ALIKE, "",
                "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`"),
            c("Intel XPU", Cause.NOT_PYTORCH_OOM, Family.SENTENCE, "requested=2.00 GiB",
                "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                    + "capacity of 15.11 GiB. Of the allocated memory 12.50 GiB is allocated by PyTorch, and "
                    + "1.44 GiB is reserved by PyTorch but unallocated."),
            c("not an error message at all", Cause.NOT_PYTORCH_OOM, Family.UNRECOGNIZED, "",
                "Epoch 3/10: loss=0.412, lr=3e-4, 118 it/s"),
            c("an empty paste", Cause.NOT_PYTORCH_OOM, Family.UNRECOGNIZED, "", ""));
    }

    private static Arguments c(String name, Cause cause, Family family, String figures, String text) {
        return Arguments.of(name, cause, family, figures, text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    @DisplayName("each message gives its family, its figures to the byte, and its cause")
    void reads(String name, Cause cause, Family family, String figures, String text) {
        Diagnosis d = Triage.of(text);
        Map<Figure, Long> want = expected(figures);
        for (Map.Entry<Figure, Long> e : want.entrySet()) {
            assertThat(d.reading().get(e.getKey())).as("%s in:%n%s", e.getKey(), d.text()).isEqualTo(e.getValue());
        }
        assertThat(d.reading().family()).as(d.text()).isEqualTo(family);
        assertThat(d.cause()).as(d.text()).isEqualTo(cause);
        assertThat(d.evidence()).isNotEmpty();
        // as the release that printed it can follow them (Release: no expandable segments before 2.1); the full
        // card's in the order its figures give (FixLadder.fullCardFixes, SmallerBatchFirstTest)
        java.util.List<Fix> entries = d.finding() != null && d.finding().hasOwnFixes() ? d.finding().fixEntries()
                : cause == Cause.FULL_OR_DRIVER_RESERVE ? FixLadder.fullCardFixes(d.reading()) : cause.fixEntries();
        assertThat(d.fixes()).isEqualTo(Fix.texts(Release.fixes(d.reading(), entries)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    @DisplayName("every prefix of every message is read without an exception")
    void truncationNeverThrows(String name, Cause cause, Family family, String figures, String text) {
        for (int cut = 0; cut <= text.length(); cut += Math.max(1, text.length() / 40)) {
            String part = text.substring(0, cut);
            assertThatCode(() -> Triage.of(part).json()).as("cut at %d", cut).doesNotThrowAnyException();
        }
    }

    /** "requested=1.50 GiB; device=3" -> figures, with bytes computed exactly and rounded half up. */
    static Map<Figure, Long> expected(String spec) {
        Map<Figure, Long> m = new LinkedHashMap<>();
        if (spec.isBlank()) return m;
        for (String item : spec.split(";")) {
            String[] kv = item.trim().split("=");
            Figure f = figure(kv[0].trim());
            m.put(f, bytes(kv[1].trim()));
        }
        return m;
    }

    private static Figure figure(String key) {
        for (Figure f : Figure.values()) if (f.key().equals(key)) return f;
        throw new IllegalArgumentException("no figure " + key);
    }

    /** The reference conversion: number times 1024^k, rounded to the nearest byte. */
    static long bytes(String text) {
        String[] parts = text.split(" ");
        if (parts.length == 1) return Long.parseLong(parts[0]);
        int power = switch (parts[1]) {
            case "bytes" -> 0;
            case "KiB" -> 1;
            case "MiB" -> 2;
            case "GiB" -> 3;
            default -> throw new IllegalArgumentException(parts[1]);
        };
        return new BigDecimal(parts[0]).multiply(BigDecimal.valueOf(1024).pow(power))
                .setScale(0, RoundingMode.HALF_UP).longValueExact();
    }
}
