package vramlab.pinned;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.KiB;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.driver.CudaGraph;
import vramlab.driver.DeviceBuffer;

@DisplayName("Properties of the pinned allocator, against reference models")
class PinnedPropertiesTest {
    /**
     * The naive model with no streams: blocks are numbers; one LIFO list per size, and a new
     * block whenever the list for the rounded size is empty.
     */
    static final class Model {
        final Map<Long, Deque<Integer>> free = new HashMap<>();
        final Map<Integer, Long> size = new HashMap<>();
        long owned, active;
        int nextId;

        int alloc(long n) {
            long r = CachingHostAllocatorTest.powerOf2Ceil(n);
            Deque<Integer> l = free.get(r);
            int id = l == null || l.isEmpty() ? nextId++ : l.pollLast();
            if (!size.containsKey(id)) { size.put(id, r); owned += r; }
            active += r;
            return id;
        }

        void free(int id) {
            free.computeIfAbsent(size.get(id), k -> new ArrayDeque<>()).addLast(id);
            active -= size.get(id);
        }

        void empty() {
            for (Deque<Integer> l : free.values()) for (int id : l) owned -= size.get(id);
            free.clear();
        }
    }

    static final long[] SIZES = {1 * KiB, 3 * KiB, 4 * KiB, 5 * KiB};

    @Test
    @DisplayName("every sequence of 5 operations (4 sizes, free oldest/newest, empty) matches the model")
    void exhaustive() {
        int ops = SIZES.length + 3;
        int n = (int) Math.pow(ops, 5);
        for (int code = 0; code < n; code++) {
            int[] seq = new int[5];
            for (int i = 0, c = code; i < 5; i++, c /= ops) seq[i] = c % ops;
            run(seq);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 7, 42, 2024, 31337})
    @DisplayName("seeded random runs of 400 operations match the model")
    void random(long seed) {
        Random r = new Random(seed);
        int[] seq = new int[400];
        for (int i = 0; i < seq.length; i++) seq[i] = r.nextInt(SIZES.length + 3);
        run(seq);
    }

    private void run(int[] seq) {
        PinnedSim sim = new PinnedSim();
        Model model = new Model();
        List<HostBlock> live = new ArrayList<>();
        List<Integer> liveIds = new ArrayList<>();
        Map<HostBlock, Integer> idOf = new IdentityHashMap<>();
        for (int op : seq) {
            if (op < SIZES.length) {
                HostBlock b = sim.pin(SIZES[op]);
                int id = model.alloc(SIZES[op]);
                // The same block exactly when the model reuses the same number: a block seen
                // before must carry the model's number, and a new block a number never seen.
                Integer known = idOf.get(b);
                if (known != null) {
                    assertThat(known).as("the block the model reuses, after %s", sim).isEqualTo(id);
                } else {
                    assertThat(idOf.containsValue(id)).as("model reuses block %d but the allocator made a new "
                            + "one, after %s", id, sim).isFalse();
                    idOf.put(b, id);
                }
                live.add(b);
                liveIds.add(id);
            } else if (op < SIZES.length + 2 && !live.isEmpty()) {
                int i = op == SIZES.length ? 0 : live.size() - 1;
                sim.del(live.remove(i));
                model.free(liveIds.remove(i));
            } else if (op == SIZES.length + 2) {
                sim.emptyHostCache();
                model.empty();
                idOf.keySet().retainAll(sim.allocator().blocks());
                model.size.keySet().retainAll(new HashSet<>(idOf.values()));
            }
            sim.checkInvariants();
            assertThat(sim.hostMemoryStats().allocatedBytes()).as("owned").isEqualTo(model.owned);
            assertThat(sim.hostMemoryStats().activeBytes()).as("active").isEqualTo(model.active);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {3, 11, 99, 500, 8675309})
    @DisplayName("no block is handed out while a copy that used it is still in flight (events on)")
    void neverEarly(long seed) {
        Random r = new Random(seed);
        PinnedSim sim = new PinnedSim();
        DeviceBuffer dev = sim.cuda(8 * KiB);
        Map<HostBlock, Long> lastCopyEnd = new IdentityHashMap<>();
        List<HostBlock> live = new ArrayList<>();
        int[] reusedAfterCopy = {0};
        for (int step = 0; step < 500; step++) {
            switch (r.nextInt(6)) {
                case 0, 1 -> {
                    HostBlock b = sim.pin(SIZES[r.nextInt(SIZES.length)]);
                    assertThat(sim.clock().now()).as("%s handed out during its copy", b)
                            .isGreaterThanOrEqualTo(lastCopyEnd.getOrDefault(b, 0L));
                    if (lastCopyEnd.containsKey(b)) reusedAfterCopy[0]++;
                    live.add(b);
                }
                case 2 -> {
                    if (live.isEmpty()) break;
                    HostBlock b = live.get(r.nextInt(live.size()));
                    long bytes = Math.min(b.size(), dev.size());
                    long end = sim.stream().memcpyAsync(dev, b, bytes);
                    sim.allocator().recordEvent(b, sim.stream());
                    lastCopyEnd.merge(b, end, Math::max);
                }
                case 3 -> { if (!live.isEmpty()) sim.del(live.remove(r.nextInt(live.size()))); }
                case 4 -> sim.kernel("k", r.nextInt(3_000_000));
                default -> {
                    if (r.nextInt(10) == 0) sim.emptyHostCache(); else sim.clock().advanceBy(r.nextInt(2_000_000));
                }
            }
            sim.checkInvariants();
        }
        assertThat(reusedAfterCopy[0]).as("blocks handed out again after a copy used them").isPositive();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {5, 13, 77, 1234, 4242})
    @DisplayName("no captured block is ever handed to another request, and replays hit the same address")
    void capturedNeverRecycled(long seed) {
        Random r = new Random(seed);
        PinnedSim sim = new PinnedSim();
        DeviceBuffer dev = sim.cuda(KiB);
        Set<HostBlock> captured = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        List<CudaGraph> graphs = new ArrayList<>();
        Map<CudaGraph, List<Long>> addresses = new IdentityHashMap<>();
        List<HostBlock> live = new ArrayList<>();
        int[] replays = {0};
        for (int step = 0; step < 400; step++) {
            switch (r.nextInt(7)) {
                case 0, 1 -> {
                    HostBlock b = sim.pin(SIZES[r.nextInt(SIZES.length)]);
                    assertThat(captured).as("request %d got a captured block", step).doesNotContain(b);
                    live.add(b);
                }
                case 2 -> { if (!live.isEmpty()) sim.del(live.remove(r.nextInt(live.size()))); }
                case 3 -> {
                    List<HostBlock> inGraph = new ArrayList<>();
                    CudaGraph g = sim.capture(() -> {
                        HostBlock staging = sim.pin(SIZES[r.nextInt(SIZES.length)]);
                        sim.copyToHost(staging, dev);
                        inGraph.add(staging);
                    });
                    captured.addAll(inGraph);
                    if (r.nextBoolean()) sim.del(inGraph.get(0)); else live.add(inGraph.get(0));
                    graphs.add(g);
                    addresses.put(g, g.addresses());
                }
                case 4 -> {
                    if (graphs.isEmpty()) break;
                    CudaGraph g = graphs.get(r.nextInt(graphs.size()));
                    sim.replay(g);
                    replays[0]++;
                    assertThat(g.addresses()).isEqualTo(addresses.get(g));
                }
                case 5 -> sim.emptyHostCache();
                default -> sim.synchronize();
            }
            sim.checkInvariants();
            assertThat(sim.allocator().blocks()).containsAll(captured);
        }
        assertThat(captured).as("blocks captured in this run").isNotEmpty();
        assertThat(replays[0]).as("replays in this run").isPositive();
        for (HostBlock b : captured) {
            assertThat(sim.allocator().freeLists().values()).noneMatch(l -> l.contains(b));
        }
    }
}
