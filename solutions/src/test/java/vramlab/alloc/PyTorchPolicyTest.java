package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/**
 * PyTorch's size rules, request by request, on a fresh allocator (a cold cache, so every row
 * makes one new segment). Each row cites the lines of c10/cuda/CUDACachingAllocator.cpp
 * (2024 main, 001074d) that decide it; the numbers are worked out by hand from those lines.
 */
@DisplayName("PyTorch policy: request -> block, pool and segment")
class PyTorchPolicyTest {

    @ParameterizedTest(name = "{0} B -> block {1} B in the {2} pool, segment {3} B ({4})")
    @CsvSource(delimiter = '|', textBlock = """
            # request | block    | pool  | segment  | why (CCA lines)
            1         | 512      | small | 2097152  | round_size: under 512 becomes 512 (2026-2028); small segment 2 MiB (2489-2490)
            100       | 512      | small | 2097152  | same; a 2 MiB segment split at >= 512 B remaining (2480-2481)
            300000    | 300032   | small | 2097152  | 512-B multiple (2034)
            1048576   | 1048576  | small | 2097152  | exactly 1 MiB is still small: size <= kSmallSize (2463)
            1048577   | 1049088  | large | 20971520 | 1 MiB + 1 is large; under 10 MiB -> kLargeBuffer (2491-2492)
            1572864   | 1572864  | large | 20971520 | block stays 512-rounded, not 2 MiB (2034); split: 19 MiB > 1 MiB left (2483-2484)
            2516582   | 2516992  | large | 20971520 | 2.4 MiB -> next 512 B
            3145729   | 3146240  | large | 20971520 | 3 MiB + 1 B
            5242881   | 5243392  | large | 20971520 | 5 MiB + 1 B
            8388608   | 8388608  | large | 20971520 | 8 MiB: 12 MiB remain, split
            10485248  | 10485248 | large | 20971520 | just under 10 MiB: still kLargeBuffer, 10 MiB + 512 remain, split
            10485760  | 10485760 | large | 10485760 | at 10 MiB: not < kMinLargeAlloc, so rounded to 2 MiB (2493-2494); nothing left
            10485761  | 10486272 | large | 12582912 | 10 MiB + 1: a 12 MiB segment; 2047.5 KiB > 1 MiB remain, split
            19922944  | 20971520 | large | 20971520 | 19 MiB: a 20 MiB segment; exactly 1 MiB remains, not > 1 MiB: no split
            26214400  | 27262976 | large | 27262976 | 25 MiB: a 26 MiB segment; 1 MiB remains: the block is the whole segment
            """)
    @DisplayName("a cold allocation gets PyTorch's block, pool and segment")
    void coldAllocation(long request, long block, String pool, long segment, String why) {
        GpuProcess p = new Gpu(gib(80)).openToyProcess();
        CachingAllocator a = new CachingAllocator(p, new PyTorchPolicy());
        Block b = a.alloc(request);
        a.checkInvariants();
        assertThat(b.size()).as("block (%s)", why).isEqualTo(block);
        assertThat(b.pool().name().toLowerCase()).as("pool").isEqualTo(pool);
        assertThat(b.segment().size()).as("segment").isEqualTo(segment);
        assertThat(a.reserved()).as("reserved is that one segment").isEqualTo(segment);
        assertThat(p.cudaMallocCalls()).isEqualTo(1);
        assertThat(a.memoryStats().stat("requested_bytes", "all").current()).isEqualTo(request);
    }

    @Nested
    @DisplayName("roundup_power2_divisions")
    class Divisions {
        @ParameterizedTest(name = "{0} B with {1} divisions -> {2} B")
        @CsvSource(delimiter = '|', textBlock = """
                5242881 | 4 | 6291456  | 5 MiB + 1 between 4 and 8 MiB, steps of 1 MiB
                3145729 | 4 | 3670016  | 3 MiB + 1 between 2 and 4 MiB, steps of 512 KiB
                1200    | 4 | 1536     | the guard needs size > 512 * 4, so plain 512 rounding (CCA:2031)
                4194304 | 4 | 4194304  | a power of two stays (CCA:2006-2024)
                2500    | 4 | 2560     | 2500 > 2048: between 2048 and 4096 in steps of 512
                """)
        @DisplayName("round to the next 1/d step between powers of two")
        void rounds(long size, int divisions, long expected, String why) {
            PyTorchPolicy p = new PyTorchPolicy("roundup_power2_divisions:" + divisions);
            assertThat(p.roundSize(size)).as(why).isEqualTo(expected);
        }

        @ParameterizedTest(name = "{0}: {1} B -> {2} B")
        @CsvSource(delimiter = '|', textBlock = """
                [4:4,>:0]       | 3145729   | 3670016   | the first entry also fills the intervals below it
                [4:4,>:0]       | 5242881   | 5243392   | '>' fills from the last listed interval on, 4..8 MB included
                [4:4,>:0]       | 10485761  | 10486272  | '>' set 8 MB and up to 0: plain 512 rounding
                [1:4,64:8,>:0]  | 3145729   | 3146240   | intervals between listed keys stay 0
                [1:4,64:8,>:0]  | 104857601 | 104858112 | 64..128 MB: its 8 overwritten by '>' (0)
                [1:4,64:8,>:0]  | 209715201 | 209715712 | above the last key: '>' gives 0
                [1:4,64:8,128:2] | 104857601 | 109051904 | 64..128 MB in steps of 8 MiB when no '>' follows
                [256:1,512:2,1024:4,>:8] | 314572801  | 314573312  | docs' example: 300 MiB is in 256..512 MB, 1 division
                [256:1,512:2,1024:4,>:8] | 629145601  | 805306368  | 600 MiB: 512 MB..1 GB has 2 divisions
                [256:1,512:2,1024:4,>:8] | 1610612737 | 1744830464 | 1.5 GiB: 1024:4 was overwritten by '>:8'
                [256:1,512:2,1024:4,>:8] | 3221225473 | 3489660928 | 3 GiB: 8 divisions, steps of 256 MiB
                """)
        @DisplayName("a per-interval list applies each listed interval's divisions; '>' from the last listed on,"
                + " inclusive (CUDAAllocatorConfig.cpp parseRoundUpPower2Divisions, PyTorch up to 2.9)")
        void perInterval(String list, long size, long expected, String why) {
            PyTorchPolicy p = new PyTorchPolicy("roundup_power2_divisions:" + list);
            assertThat(p.roundSize(size)).as(why).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "block {0}, request {1}, pool {2}, max_split {3} MiB -> {4}")
    @CsvSource({
        "2097152, 1572864, SMALL, 0, true",       // small: 512 KiB >= 512 B remain
        "2097152, 2096640, SMALL, 0, true",       // exactly 512 B remain
        "2097152, 2096641, SMALL, 0, false",
        "20971520, 19922944, LARGE, 0, false",    // exactly 1 MiB: not > kSmallSize
        "20971520, 19922432, LARGE, 0, true",     // 1 MiB + 512
        "104857600, 52428800, LARGE, 40, false",  // request >= max_split_size never splits
        "104857600, 31457280, LARGE, 40, true"})
    @DisplayName("should_split: small >= 512 B left; large > 1 MiB left and request under max_split_size")
    void shouldSplit(long block, long request, PoolKind pool, int maxSplitMb, boolean split) {
        PyTorchPolicy p = maxSplitMb == 0 ? new PyTorchPolicy() : new PyTorchPolicy("max_split_size_mb:" + maxSplitMb);
        assertThat(p.shouldSplit(pool, block, request)).isEqualTo(split);
    }

    @ParameterizedTest(name = "expandable: block {0}, request {1} -> {2}")
    @CsvSource({"20971520, 19922944, true", "20971520, 20971008, true", "20971520, 20971009, false"})
    @DisplayName("with expandable segments the large pool splits at >= 512 B too (CCA:2480-2481)")
    void expandableSplit(long block, long request, boolean split) {
        PyTorchPolicy p = new PyTorchPolicy("expandable_segments:True");
        assertThat(p.shouldSplit(PoolKind.LARGE, block, request)).isEqualTo(split);
    }

    @ParameterizedTest(name = "{0} B -> segment {1} B")
    @CsvSource({"512, 2097152", "1048576, 2097152", "1049088, 20971520", "10485248, 20971520",
        "10485760, 10485760", "10486272, 12582912", "27262976, 27262976", "27263488, 29360128"})
    @DisplayName("get_allocation_size: 2 MiB, 20 MiB under 10 MiB, else rounded up to 2 MiB")
    void segmentSize(long rounded, long segment) {
        assertThat(new PyTorchPolicy().segmentSize(rounded)).isEqualTo(segment);
        assertThat(mib(1)).isEqualTo(PyTorchPolicy.SMALL_SIZE);
    }
}
