package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/**
 * PyTorch's own allocator tests as specifications: each test here is one of
 * test/test_cuda.py's (TestCuda, TestCudaMallocAsync), test/test_cuda_multigpu.py's or
 * c10/test/core/AllocatorConfig_test.cpp's assertions about allocator arithmetic, on a
 * simulated device, and names the test it comes from (pytorch/pytorch @000e43c for
 * test_cuda.py; test_cuda_expandable_segments.py runs the same tests with
 * {@code expandable_segments:True}, which the parameterised ones here do too). What the kit
 * cannot reproduce is listed in the README ("PyTorch's own tests").
 *
 * <p>A float tensor of {@code n} elements is {@code 4 n} bytes.
 */
@DisplayName("PyTorch's allocator tests, ported")
class PyTorchSuitePortTest {
    static final long CARD = 8 * GiB;

    static CachingAllocator allocator(String conf) {
        return new CachingAllocator(new Gpu(CARD).openToyProcess(), new PyTorchPolicy(conf));
    }

    /** The same under {@code r}'s rules: the settings tests run under every release the kit models. */
    static CachingAllocator allocator(String conf, PyTorchRelease r) {
        return new CachingAllocator(new Gpu(CARD).openToyProcess(), PyTorchPolicy.of(conf, r));
    }

    static long stat(CachingAllocator a, String key) { return a.memoryStats().asMap().get(key); }

    @Nested
    @DisplayName("test_cuda.py")
    class TestCuda {
        @Test
        @DisplayName("test_memory_allocation: one byte raises memory_allocated; freeing it restores it")
        void memoryAllocation() {
            CachingAllocator a = allocator("");
            long prev = a.allocated();
            Block mem = a.alloc(1);
            assertThat(a.allocated()).isGreaterThan(prev);
            a.free(mem);
            assertThat(a.allocated()).isEqualTo(prev);
        }

        @ParameterizedTest(name = "\"{0}\"")
        @ValueSource(strings = {"", "expandable_segments:True"})
        @DisplayName("test_memory_stats: 1 kB active; after del and empty_cache it is freed; peaks reset")
        void memoryStats(String conf) {
            CachingAllocator a = allocator(conf);
            a.memoryStats().resetPeak();
            a.memoryStats().resetAccumulated();
            long prevMaxAllocated = a.memoryStats().stat("allocated_bytes", "all").peak();
            long prevMaxReserved = a.memoryStats().stat("reserved_bytes", "all").peak();
            long active = stat(a, "active_bytes.all.current");
            Block tmp = a.alloc(256 * 4);                                 // torch.randn(256)
            assertThat(stat(a, "active_bytes.all.current")).isEqualTo(1024 + active);
            assertThat(stat(a, "active_bytes.all.freed")).isZero();
            a.free(tmp);
            a.emptyCache();
            assertThat(stat(a, "active_bytes.all.current")).isEqualTo(active);
            assertThat(stat(a, "active_bytes.all.freed")).isEqualTo(1024);
            a.memoryStats().resetPeak();
            assertThat(a.memoryStats().stat("allocated_bytes", "all").peak()).isEqualTo(prevMaxAllocated);
            assertThat(a.memoryStats().stat("reserved_bytes", "all").peak()).isEqualTo(prevMaxReserved);
        }

        @Test
        @DisplayName("test_out_of_memory: 800000000 GiB is an OOM naming it; 8000000000 GiB is the 1EB front door;"
                + " the allocator still works after both")
        void outOfMemory() {
            CachingAllocator a = allocator("");
            Block tensor = a.alloc(1024 * 4);
            assertThatThrownBy(() -> a.alloc(800000000L * GiB)).isInstanceOf(CudaOutOfMemoryError.class)
                    .hasMessageContaining("Tried to allocate 800000000.00 GiB. GPU 0 has a total capacity of");
            assertThatThrownBy(() -> a.alloc(8000000000L * GiB)).isInstanceOf(CudaOutOfMemoryError.class)
                    .hasMessage("CUDA out of memory. Tried to allocate more than 1EB memory.");
            assertThat(a.memoryStats().numOoms()).as("the front door counts no OOM").isEqualTo(1);
            a.free(tensor);
            a.free(a.alloc(1024 * 4));
            a.checkInvariants();
        }

        @Test
        @DisplayName("test_out_of_memory_retry: half the card twice fails (the context takes some); after del"
                + " the second half fits")
        void outOfMemoryRetry() {
            Gpu gpu = new Gpu(0, 4 * GiB, 0);
            GpuProcess p = gpu.open(1, "python", 300 * MiB);           // the CUDA context
            CachingAllocator a = new CachingAllocator(p, new PyTorchPolicy());
            long size = gpu.capacity() / 2;
            Block first = a.alloc(size);
            assertThatThrownBy(() -> a.alloc(size)).isInstanceOf(CudaOutOfMemoryError.class)
                    .hasMessageContaining("Tried to allocate");
            a.free(first);
            a.free(a.alloc(size));
            a.emptyCache();
            assertThat(a.reserved()).isZero();
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(PyTorchRelease.class)
        @DisplayName("test_set_per_process_memory_fraction: a bad fraction is refused; at 0.5, 0.499 of the card"
                + " fits and 0.5 is an OOM (under each release)")
        void setPerProcessMemoryFraction(PyTorchRelease r) {
            CachingAllocator a = allocator("", r);
            assertThatThrownBy(() -> a.setMemoryFraction(-0.1)).hasMessageContaining("invalid fraction");
            assertThatThrownBy(() -> a.setMemoryFraction(2.0)).hasMessageContaining("invalid fraction");
            Block tensor = a.alloc(1024 * 4);
            a.emptyCache();
            a.setMemoryFraction(0.5);
            long application = (long) (CARD * 0.499) - a.memoryStats().stat("reserved_bytes", "all").peak();
            a.free(a.alloc(application));
            a.emptyCache();
            assertThatThrownBy(() -> a.alloc(CARD / 2)).isInstanceOf(CudaOutOfMemoryError.class)
                    .hasMessageContaining("out of memory").hasMessageContaining("4.00 GiB allowed; ");
            a.free(tensor);
            a.checkInvariants();
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(PyTorchRelease.class)
        @DisplayName("test_get_per_process_memory_fraction: 1.0, 0.0 and random fractions read back (under each"
                + " release: 1.0 reads back 1.0 whether it is a limit or none)")
        void getPerProcessMemoryFraction(PyTorchRelease r) {
            CachingAllocator a = allocator("", r);
            assertThat(a.memoryFraction()).as("none set").isEqualTo(1.0);
            a.setMemoryFraction(1.0);
            assertThat(a.memoryFraction()).isEqualTo(1.0);
            a.setMemoryFraction(0.0);
            assertThat(a.memoryFraction()).isEqualTo(0.0);
            Random random = new Random(3);
            for (int i = 0; i < 3; i++) {
                double v = random.nextDouble();
                a.setMemoryFraction(v);
                assertThat(a.memoryFraction()).isCloseTo(v, within(1e-9));
            }
        }

        @ParameterizedTest(name = "max_split_size_mb set: {0}")
        @ValueSource(booleans = {false, true})
        @DisplayName("test_raises_oom: 4 TiB of floats is an OutOfMemoryError, with or without max_split_size")
        void raisesOom(boolean maxSplit) {
            CachingAllocator a = allocator(maxSplit ? "max_split_size_mb:1024" : "");
            assertThatThrownBy(() -> a.alloc(4L << 40)).isInstanceOf(CudaOutOfMemoryError.class);
        }

        @Test
        @DisplayName("test_allocator_fuzz: 10,000 random allocs, frees and empty_caches under 100 MB live,"
                + " every invariant after each (the kit's own random numbers)")
        void allocatorFuzz() {
            Random random = new Random(123);
            CachingAllocator a = allocator("");
            List<long[]> sizes = new ArrayList<>();
            List<Block> mem = new ArrayList<>();
            long total = 0;
            for (int step = 0; step < 10_000; step++) {
                while (total >= GiB / (4 * 10)) {
                    int idx = random.nextInt(mem.size());
                    total -= sizes.remove(idx)[0];
                    a.free(mem.remove(idx));
                }
                double choice = random.nextDouble() * (mem.isEmpty() ? 1.1 : 2.1);
                if (choice < 1) {
                    long b = 2 * MiB / 4 + random.nextInt((int) (18 * MiB / 4));
                    mem.add(a.alloc(4 * b));
                    sizes.add(new long[] {b});
                    total += b;
                } else if (choice < 2 && !mem.isEmpty()) {
                    int idx = random.nextInt(mem.size());
                    total -= sizes.remove(idx)[0];
                    a.free(mem.remove(idx));
                } else {
                    a.emptyCache();
                }
                a.checkInvariants();
            }
        }
    }

    /** Each test here runs under every release the kit models ({@link PyTorchRelease}): they all pass it. */
    @Nested
    @DisplayName("test_cuda.py TestCudaMallocAsync: allocator settings, under each release's rules")
    class Settings {
        /** test_allocator_settings' power2_div: the size rounded up to the next 1/div step. */
        static long power2Div(long size, long div) {
            long pow2 = 1;
            while (pow2 < size) pow2 *= 2;
            if (pow2 == size) return pow2;
            long step = pow2 / 2 / div, ret = pow2 / 2;
            while (ret < size) ret += step;
            return ret;
        }

        static long activeAllocated(String conf, long bytes, PyTorchRelease r) {
            CachingAllocator a = allocator(conf, r);
            long start = stat(a, "active_bytes.all.allocated");
            a.alloc(bytes);
            return stat(a, "active_bytes.all.allocated") - start;
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(PyTorchRelease.class)
        @DisplayName("test_allocator_settings: divisions 4, the list [64:8,...,>:1], 400 MB under 2 divisions,"
                + " and settings that reset the divisions")
        void allocatorSettings(PyTorchRelease r) {
            long nbytes = 4L * 21 * 1024 * 1024, nbytesBig = 4L * 100 * 1024 * 1024;
            assertThat(activeAllocated("", nbytes, r)).isEqualTo(nbytes);
            assertThat(activeAllocated("roundup_power2_divisions:4", nbytes, r)).isEqualTo(power2Div(nbytes, 4));
            CachingAllocator req = allocator("roundup_power2_divisions:4", r);
            req.alloc(nbytes);
            assertThat(stat(req, "requested_bytes.all.allocated")).isEqualTo(nbytes);
            assertThat(activeAllocated("garbage_collection_threshold:0.5,max_split_size_mb:40", nbytes, r))
                    .as("a new setting resets the divisions").isEqualTo(nbytes);
            String list = "garbage_collection_threshold:0.5,roundup_power2_divisions:[64:8,128:2,256:2,512:2,1024:1,>:1]";
            assertThat(activeAllocated(list, nbytes, r)).isEqualTo(power2Div(nbytes, 8));
            assertThat(activeAllocated(list, nbytesBig, r)).isEqualTo(power2Div(nbytesBig, 2));
            assertThat(activeAllocated("release_lock_on_cudamalloc:True", nbytes, r)).isEqualTo(nbytes);
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"foo:1,bar:2", "garbage_collection_threshold:1.2", "max_split_size_mb:2",
            "release_lock_on_cudamalloc:none", "pinned_use_cuda_host_register:none",
            "pinned_num_register_threads:none", "pinned_num_register_threads:1024"})
        @DisplayName("test_allocator_settings: strings the parser rejects, by every release's parser")
        void rejected(String conf) {
            for (PyTorchRelease r : PyTorchRelease.values()) {
                assertThatThrownBy(() -> AllocConf.parse(conf, r.rules())).as("%s", r)
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(PyTorchRelease.class)
        @DisplayName("test_allocator_memory_fraction_setting: per_process_memory_fraction 0.0, 0.5, 1.0 read;"
                + " -0.1 and 1.1 are invalid")
        void memoryFractionSetting(PyTorchRelease r) {
            if (!r.rules().keys().contains("per_process_memory_fraction")) {       // 2.9: no such key
                assertThatThrownBy(() -> AllocConf.parse("per_process_memory_fraction:0.5", r.rules()))
                        .hasMessageStartingWith("Unrecognized CachingAllocator option: per_process_memory_fraction");
                return;
            }
            for (double f : new double[] {0.0, 0.5, 1.0}) {
                CachingAllocator a = allocator("per_process_memory_fraction:" + f, r);
                assertThat(a.memoryFraction()).isEqualTo(f);
            }
            for (String bad : new String[] {"-0.1", "1.1"}) {
                assertThatThrownBy(() -> AllocConf.parse("per_process_memory_fraction:" + bad, r.rules()))
                        .hasMessageContaining("per_process_memory_fraction is invalid");
            }
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(PyTorchRelease.class)
        @DisplayName("test_max_split_expandable (its expandable_segments:False half): three 40 MiB blocks fill"
                + " 120 MiB; a fourth is an OOM; after del, 120 MiB fits by releasing the oversize blocks")
        void maxSplitUnderFraction(PyTorchRelease r) {
            CachingAllocator a = allocator("max_split_size_mb:40", r);
            a.setMemoryFraction((double) (120 * MiB) / CARD);
            Block x = a.alloc(40 * MiB), y = a.alloc(40 * MiB), z = a.alloc(40 * MiB);
            assertThatThrownBy(() -> a.alloc(40 * MiB)).isInstanceOf(CudaOutOfMemoryError.class);
            a.free(x);
            a.free(y);
            a.free(z);
            a.alloc(120 * MiB);
            assertThat(a.memoryStats().oversizeSegments().current()).isEqualTo(1);
            a.checkInvariants();
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(PyTorchRelease.class)
        @DisplayName("test_garbage_collect_expandable (its expandable_segments:False half): with a fraction and"
                + " threshold 0.5, 80 MiB fits after two freed 40 MiB blocks")
        void garbageCollectUnderFraction(PyTorchRelease r) {
            CachingAllocator a = allocator("garbage_collection_threshold:0.5", r);
            a.setMemoryFraction((double) (120 * MiB) / CARD);
            Block x = a.alloc(40 * MiB), y = a.alloc(40 * MiB);
            a.free(x);
            a.free(y);
            a.alloc(80 * MiB);
            assertThat(a.reserved()).isLessThanOrEqualTo(120 * MiB);
            a.checkInvariants();
        }
    }

    @Nested
    @DisplayName("test_cuda.py: snapshots")
    class Snapshots {
        @SuppressWarnings("unchecked")
        static List<Map<String, Object>> trace(Map<String, Object> snapshot) {
            return (List<Map<String, Object>>) ((List<?>) snapshot.get("device_traces")).get(0);
        }

        @Test
        @DisplayName("test_memory_snapshot: x, the second block of its segment, is at its address with its"
                + " request; segments have frames; after empty_cache the trace ends with a segment_free")
        void memorySnapshot() {
            CachingAllocator a = allocator("");
            a.trace().record(true, Long.MAX_VALUE);
            a.alloc(4L * 2 * 311 * 411);
            a.alloc(4L * 310 * 410);
            Block x = a.alloc(4L * 311 * 411);
            List<Block> tensors = new ArrayList<>();
            for (int i = 0; i < 1000; i++) tensors.add(a.alloc(4 * 128));
            Random r = new Random(0);
            while (!tensors.isEmpty()) a.free(tensors.remove(r.nextInt(tensors.size())));
            a.alloc(4 * 128 * 5);
            boolean found = false;
            for (Object o : (List<?>) MemorySnapshot.of(a).get("segments")) {
                Map<?, ?> seg = (Map<?, ?>) o;
                assertThat(seg.containsKey("frames")).isTrue();
                for (Object b : (List<?>) seg.get("blocks")) {
                    Map<?, ?> block = (Map<?, ?>) b;
                    if ((Long) block.get("requested_size") == 4L * 311 * 411) {
                        assertThat(block.get("address")).isEqualTo(x.address());
                        found = true;
                    }
                }
            }
            assertThat(found).isTrue();
            a.emptyCache();
            List<Map<String, Object>> t = trace(MemorySnapshot.of(a));
            assertThat(t.get(t.size() - 1).get("action")).isIn("segment_free", "segment_unmap");
        }

        @Test
        @DisplayName("test_cpp_memory_snapshot_pickle: the last action is the alloc just made, not the"
                + " snapshot's own entry")
        void lastActionIsTheAlloc() {
            CachingAllocator a = allocator("");
            a.trace().record(true, 10);
            MemorySnapshot.of(a);                        // an earlier snapshot: its entry comes later
            a.alloc(4L * 311 * 411);
            List<Map<String, Object>> t = trace(MemorySnapshot.of(a));
            assertThat(t.get(t.size() - 1)).containsEntry("action", "alloc").containsEntry("size", 4L * 311 * 411);
            assertThat(t).anyMatch(e -> "snapshot".equals(e.get("action")) && !e.containsKey("frames"));
        }
    }

    /** test_cuda_multigpu.py: _test_memory_stats_generator and _check_memory_stat_consistency. */
    @Nested
    @DisplayName("test_cuda_multigpu.py")
    class MultiGpu {
        /** The generator's assert_change: allocated moves as said; peaks and reserved stay ordered. */
        static final class Checker {
            final CachingAllocator a;
            long lastM, maxM, lastR, maxR;

            Checker(CachingAllocator a) {
                this.a = a;
                lastM = a.allocated();
                maxM = peak("allocated_bytes");
                lastR = a.reserved();
                maxR = peak("reserved_bytes");
            }

            long peak(String s) { return a.memoryStats().stat(s, "all").peak(); }

            void change(int comp, boolean emptyCache, boolean resetPeak) {
                long m = a.allocated(), mm = peak("allocated_bytes");
                if (comp > 0) assertThat(m).isGreaterThan(lastM);
                else if (comp < 0) assertThat(m).isLessThan(lastM);
                else assertThat(m).isEqualTo(lastM);
                assertThat(m).isLessThanOrEqualTo(mm);
                assertThat(mm).isGreaterThanOrEqualTo(maxM);
                lastM = m;
                maxM = mm;
                long r = a.reserved(), mr = peak("reserved_bytes");
                assertThat(r).isLessThanOrEqualTo(mr);
                assertThat(mr).isGreaterThanOrEqualTo(maxR);
                lastR = r;
                maxR = mr;
                if (emptyCache) {
                    long sync = stat(a, "num_sync_all_streams");
                    a.emptyCache();
                    assertThat(stat(a, "num_sync_all_streams")).isEqualTo(sync + 1);
                    assertThat(a.reserved()).isLessThanOrEqualTo(lastR);
                    assertThat(peak("reserved_bytes")).isEqualTo(maxR);
                    lastR = a.reserved();
                }
                if (resetPeak) {
                    a.memoryStats().resetPeak();
                    assertThat(peak("allocated_bytes")).isEqualTo(lastM);
                    assertThat(peak("reserved_bytes")).isEqualTo(lastR);
                    maxM = lastM;
                    maxR = lastR;
                }
                consistent(a);
            }
        }

        /** _check_memory_stat_consistency: the statistics are what the snapshot's segments add up to. */
        static void consistent(CachingAllocator a) {
            Map<String, Long> expected = new HashMap<>();
            for (Object o : (List<?>) MemorySnapshot.of(a).get("segments")) {
                Map<?, ?> seg = (Map<?, ?>) o;
                String pool = seg.get("segment_type") + "_pool";
                boolean expandable = (Boolean) seg.get("is_expandable");
                if (!expandable) add(expected, "segment", pool, 1);
                add(expected, "allocated_bytes", pool, (Long) seg.get("allocated_size"));
                add(expected, "reserved_bytes", pool, (Long) seg.get("total_size"));
                add(expected, "active_bytes", pool, (Long) seg.get("active_size"));
                add(expected, "requested_bytes", pool, (Long) seg.get("requested_size"));
                List<?> blocks = (List<?>) seg.get("blocks");
                long sumRequested = 0;
                for (Object b : blocks) {
                    Map<?, ?> block = (Map<?, ?>) b;
                    String state = (String) block.get("state");
                    if (state.equals("active_allocated")) add(expected, "allocation", pool, 1);
                    if (state.startsWith("active_")) {
                        sumRequested += (Long) block.get("requested_size");
                        add(expected, "active", pool, 1);
                    }
                    if (state.equals("inactive") && blocks.size() > 1 && !expandable) {
                        add(expected, "inactive_split", pool, 1);
                        add(expected, "inactive_split_bytes", pool, (Long) block.get("size"));
                    }
                }
                assertThat(sumRequested).isEqualTo((Long) seg.get("requested_size"));
            }
            Map<String, Long> stats = a.memoryStats().asMap();
            expected.forEach((k, v) -> assertThat(stats.get(k)).as(k).isEqualTo(v));
        }

        static void add(Map<String, Long> m, String stat, String pool, long n) {
            m.merge(stat + ".all.current", n, Long::sum);
            m.merge(stat + "." + pool + ".current", n, Long::sum);
        }

        /** The generator's steps, one per call of {@code next()}; false when done. */
        static final class Generator {
            final CachingAllocator a;
            final Checker c;
            final Random random;
            final List<Block> tensors1 = new ArrayList<>(), tensors2 = new ArrayList<>();
            final List<Runnable> steps = new ArrayList<>();
            int next;

            Generator(CachingAllocator a, int n, long seed) {
                this.a = a;
                this.c = new Checker(a);
                this.random = new Random(seed);
                steps.add(() -> {
                    c.change(0, false, false);
                    c.change(0, false, true);
                    c.change(0, true, false);
                    c.change(0, false, true);
                });
                steps.add(() -> {
                    tensors1.add(floats(1));
                    tensors1.add(floats(10 * 20));
                    tensors1.add(floats(200L * 300 * 2000));
                    c.change(1, false, false);
                });
                for (int i = 1; i <= n / 2; i++) {
                    int k = i;
                    steps.add(() -> { tensors2.add(floats((long) k * k * 4)); c.change(1, false, false); });
                }
                for (int i = 5; i < n / 2 + 5; i++) {
                    int k = i;
                    steps.add(() -> {
                        tensors2.add(floats((long) k * (k * 7) * (k * 9) * (k * 11)));
                        c.change(1, false, k % 2 == 0);
                    });
                }
                steps.add(() -> {
                    tensors2.add(a.alloc(0));                 // alloc(0, 0, 0): a null pointer, no malloc
                    c.change(0, false, false);
                });
                steps.add(() -> {
                    java.util.Collections.shuffle(tensors2, random);
                    c.change(0, false, true);
                });
                for (int i = 0; i < n / 2; i++) {
                    steps.add(() -> {
                        Block b = tensors2.remove(0);
                        a.free(b);
                        c.change(b == null ? 0 : -1, false, false);
                    });
                }
                for (int i = 2; i < 2 * n / 3 + 2; i++) {
                    int k = i;
                    steps.add(() -> { tensors2.add(floats((long) k * (k * 3) * (k * 8))); c.change(1, false, false); });
                }
                steps.add(() -> {
                    boolean any = tensors2.stream().anyMatch(java.util.Objects::nonNull);
                    tensors2.forEach(a::free);
                    tensors2.clear();
                    c.change(any ? -1 : 0, false, true);
                    c.change(0, false, false);
                });
                steps.add(() -> {
                    tensors1.forEach(a::free);
                    tensors1.clear();
                    c.change(-1, false, true);
                    assertThat(a.allocated()).isZero();
                    c.change(0, true, false);
                    c.change(0, false, true);
                });
            }

            Block floats(long n) { return a.alloc(4 * n); }

            boolean advance() {
                if (next >= steps.size()) return false;
                steps.get(next++).run();
                a.checkInvariants();
                return true;
            }
        }

        @ParameterizedTest(name = "\"{0}\"")
        @ValueSource(strings = {"", "expandable_segments:True"})
        @DisplayName("test_memory_stats: every step keeps allocated, peaks and reserved consistent, and the"
                + " statistics equal what the snapshot adds up to")
        void memoryStats(String conf) {
            Generator g = new Generator(allocator(conf), 35, 1);
            while (g.advance()) { }
        }

        @Test
        @DisplayName("test_memory_stats_multigpu: two devices interlaced, then in semi-random order, keep"
                + " their statistics apart")
        void memoryStatsMultiGpu() {
            for (int order = 0; order < 2; order++) {
                List<Gpu> gpus = Gpu.machine(2, CARD, 0);
                Generator g0 = new Generator(new CachingAllocator(gpus.get(0).openToyProcess(), new PyTorchPolicy()), 35, 2);
                Generator g1 = new Generator(new CachingAllocator(gpus.get(1).openToyProcess(), new PyTorchPolicy()), 35, 3);
                Random r = new Random(order);
                boolean end0 = false, end1 = false;
                while (!(end0 && end1)) {
                    end0 = end0 || !g0.advance();
                    int times = order == 0 ? 1 : end0 ? Integer.MAX_VALUE : r.nextInt(3);
                    for (int t = 0; t < times && !end1; t++) end1 = !g1.advance();
                }
            }
        }
    }
}
