package vramlab.buddy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

class BuddyAllocatorTest {

    /** The allocator and the bitmap model side by side, on a pool of {@code units} units. */
    static final class Twin {
        final BuddyAllocator buddy;
        final BitmapModel model;
        final int unitShift;
        final List<long[]> live = new ArrayList<>();   // {address, model start}
        final StringBuilder log = new StringBuilder();

        Twin(int units, int maxOrderUnits, int unitShift, boolean onDemand) {
            long pool = (long) units << unitShift;
            // A card just big enough for the pool: the exhaustive test makes a Twin per sequence
            // (over 130,000), and setting up a 4 GiB card's frames was a third of its time.
            GpuProcess p = new Gpu(Math.max(mib(64), 2 * pool)).openToyProcess();
            int min = unitShift, max = unitShift + maxOrderUnits;
            this.buddy = onDemand ? BuddyAllocator.onDemand(p, pool, min, max)
                                  : BuddyAllocator.upfront(p, pool, min, max);
            this.model = new BitmapModel(units, maxOrderUnits);
            this.unitShift = unitShift;
        }

        void alloc(long units) {
            log.append(" alloc(").append(units).append(')');
            int expected = model.alloc(units);
            long size = (units << unitShift) - (unitShift > 0 ? 1 : 0);  // an odd size rounds up too
            if (expected < 0) {
                assertThatThrownBy(() -> buddy.alloc(size)).as(this::where)
                        .isInstanceOf(BuddyOutOfMemoryError.class);
            } else {
                long address = buddy.alloc(size);
                assertThat((address - buddy.base()) >> unitShift).as(this::where).isEqualTo(expected);
                live.add(new long[] {address, expected});
            }
            check();
        }

        void free(int index) {
            long[] victim = live.remove(index);
            log.append(" free(").append(victim[1]).append(')');
            model.free((int) victim[1]);
            buddy.free(victim[0]);
            check();
        }

        void check() {
            buddy.checkInvariants();
            // isEqualTo compares the arrays as Arrays.equals does (containsExactly's diff cost more
            // than the allocator itself) and, on a difference, prints both.
            assertThat(buddy.freeCounts()).as(this::where).isEqualTo(model.freeCounts());
        }

        String where() { return "after" + log + "\n" + buddy.map(); }
    }

    @Nested
    @DisplayName("against a naive bitmap model")
    class AgainstTheModel {
        // Under PIT (-Pmutation sets vramlab.pit): sequences of 3, so a survivor costs seconds.
        static final int LENGTH = Boolean.getBoolean("vramlab.pit") ? 3 : 4;


        @ParameterizedTest(name = "on-demand pages: {0}")
        @ValueSource(booleans = {false, true})
        @DisplayName("agrees on every sequence of up to four operations on a 16-unit pool")
        void exhaustiveSmallWorld(boolean onDemand) {
            int[] sequences = {0};
            enumerate(new ArrayList<>(), onDemand, sequences);
            assertThat(sequences[0]).isGreaterThan(LENGTH == 4 ? 65_536 : 4096);   // the all-alloc ones, and frees
        }

        /** Every length-4 sequence; shorter ones are its prefixes and are checked on the way. */
        private void enumerate(List<Integer> ops, boolean onDemand, int[] count) {
            if (ops.size() == LENGTH) {
                replay(ops, onDemand);
                count[0]++;
                return;
            }
            int liveNow = liveAfter(ops);
            for (int units = 1; units <= 16; units++) { ops.add(units); enumerate(ops, onDemand, count); ops.remove(ops.size() - 1); }
            for (int k = 0; k < liveNow; k++) { ops.add(-(k + 1)); enumerate(ops, onDemand, count); ops.remove(ops.size() - 1); }
        }

        /** Live allocations after {@code ops}, computed on the model alone. */
        private int liveAfter(List<Integer> ops) {
            BitmapModel m = new BitmapModel(16, 4);
            List<Integer> starts = new ArrayList<>();
            for (int op : ops) {
                if (op > 0) { int s = m.alloc(op); if (s >= 0) starts.add(s); }
                else m.free(starts.remove(-op - 1));
            }
            return starts.size();
        }

        private void replay(List<Integer> ops, boolean onDemand) {
            Twin t = onDemand ? new Twin(16, 4, 21, true) : new Twin(16, 4, 0, false);
            for (int op : ops) {
                if (op > 0) t.alloc(op); else t.free(-op - 1);
            }
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 42})
        @DisplayName("agrees on 3000 seeded random operations on a 4096-unit pool of four top blocks")
        void seededRandomLargePool(long seed) {
            Random rnd = new Random(seed);
            Twin t = new Twin(4096, 10, 0, false);
            for (int i = 0; i < (LENGTH == 4 ? 3000 : 600); i++) {
                boolean alloc = t.live.isEmpty() || rnd.nextInt(100) < 55;
                if (alloc) t.alloc(1 + (rnd.nextBoolean() ? rnd.nextInt(16) : rnd.nextInt(1024)));
                else t.free(rnd.nextInt(t.live.size()));
            }
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {7, 8})
        @DisplayName("agrees on seeded random operations with 2 MiB units committed on demand")
        void seededRandomOnDemand(long seed) {
            Random rnd = new Random(seed);
            Twin t = new Twin(512, 8, 21, true);
            for (int i = 0; i < 1500; i++) {
                if (t.live.isEmpty() || rnd.nextInt(100) < 55) t.alloc(1 + rnd.nextInt(64));
                else t.free(rnd.nextInt(t.live.size()));
            }
            long committed = t.buddy.reserved();
            assertThat(committed).isEqualTo(t.buddy.allocated());   // 2 MiB units: pages == blocks
        }
    }

    @Nested
    @DisplayName("the bit tricks: the buddy is one XOR away, the parent clears that bit (Linux __find_buddy_pfn, mm/internal.h)")
    class BitTricks {
        @ParameterizedTest(name = "buddy({0}, order {1}) = {2}, parent {3}")
        @CsvSource(textBlock = """
                8,    1, 10,   8
                10,   1, 8,    8
                0x12, 2, 0x16, 0x12
                0,    4, 16,   0
                """)
        @DisplayName("the buddy is one XOR away and the parent clears that bit")
        void buddyAndParent(String offset, int order, String buddy, String parent) {
            long off = Long.decode(offset.trim());
            assertThat(BuddyAllocator.buddyOf(off, order)).isEqualTo(Long.decode(buddy.trim()));
            assertThat(BuddyAllocator.parentOf(off, order)).isEqualTo(Long.decode(parent.trim()));
        }

        @ParameterizedTest(name = "{0} bytes -> order {1}")
        @CsvSource(textBlock = """
                1,       12
                4096,    12
                4097,    13
                8192,    13
                1048576, 20
                1048577, 21
                4194304, 22
                """)
        @DisplayName("a size rounds up to the smallest power of two, at least the minimum block")
        void orderForSize(long size, int order) {
            BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(4), 12, 22);
            assertThat(b.orderFor(size)).isEqualTo(order);
        }

        @Test
        @DisplayName("a size above the largest block, or not positive, is refused with its value")
        void tooLarge() {
            BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(4), 12, 22);
            assertThatThrownBy(() -> b.alloc(mib(4) + 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("alloc(4194305)").hasMessageContaining("largest block");
            assertThatThrownBy(() -> b.alloc(0)).hasMessageContaining("alloc(0)");
        }
    }

    @Nested
    @DisplayName("buddyinfo, in /proc/buddyinfo's layout (Linux frag_show_print, mm/vmstat.c)")
    class BuddyInfo {
        /**
         * The kernel's line, typed from mm/vmstat.c {@code frag_show_print}:
         * {@code "Node %d, zone %8s "}, then {@code "%6lu "} per order, then a newline.
         */
        static String line(int... counts) {
            StringBuilder sb = new StringBuilder("Node 0, zone   Normal ");
            for (int c : counts) sb.append(String.format("%6d ", c));
            return sb.append('\n').toString();
        }

        BuddyAllocator zone() {   // a 4 MiB zone of 4 KiB pages: orders 0..10 in page units
            return BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(4), 12, 22);
        }

        @Test
        @DisplayName("a fresh 4 MiB zone is one order-10 block: eleven columns, 0 ... 0 1")
        void fresh() {
            assertThat(zone().buddyinfo()).isEqualTo(line(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
        }

        @Test
        @DisplayName("one page allocated splits the block: 1 1 1 1 1 1 1 1 1 1 0, lowest address first")
        void onePage() {
            BuddyAllocator z = zone();
            long page = z.alloc(kib(4));
            assertThat(page).isEqualTo(z.base());
            assertThat(z.buddyinfo()).isEqualTo(line(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0));
            z.free(page);
            z.checkInvariants();
            assertThat(z.buddyinfo()).isEqualTo(line(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
        }

        @Test
        @DisplayName("the line has frag_show_print's fields: 'Node %d, zone %8s ' and eleven '%6lu ' columns")
        void kernelFormat() {
            String ours = zone().buddyinfo();
            StringBuilder kernel = new StringBuilder(String.format("Node %d, zone %8s ", 0, "Normal"));
            for (int order = 0; order <= 10; order++) kernel.append(String.format("%6d ", order == 10 ? 1 : 0));
            assertThat(ours).isEqualTo(kernel.append('\n').toString());
            assertThat(ours).hasSize(22 + 11 * 7 + 1);
        }

        @Test
        @Tag("host")
        @DisplayName("(host-dependent: reads this machine's /proc/buddyinfo) the line splits into the same fields")
        void sameShapeAsTheKernel() throws Exception {
            String ours = zone().buddyinfo();
            assertThat(ours).matches("Node \\d+, zone +\\w+( {1,6}\\d+ )+\\n");
            Path proc = Path.of("/proc/buddyinfo");
            org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(proc),
                    "host-dependent: this machine has no readable /proc/buddyinfo (not Linux, or /proc hidden); "
                            + "kernelFormat checks the same layout from the kernel's format strings");
            String kernel = Files.readAllLines(proc).get(0) + "\n";
            assertThat(kernel.indexOf(',')).isEqualTo(ours.indexOf(','));
            assertThat(kernel.substring(0, 22).replaceAll("zone +\\w+", "zone"))
                    .isEqualTo(ours.substring(0, 22).replaceAll("zone +\\w+", "zone"));
            assertThat(kernel.length()).isEqualTo(ours.length());   // 11 orders, 7 characters each
        }
    }

    @Nested
    @DisplayName("errors and the driver")
    class Errors {
        @Test
        @DisplayName("a double free names the address and leaves the pool intact")
        void doubleFree() {
            BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(4), 12, 22);
            long a = b.alloc(100);
            b.free(a);
            assertThatThrownBy(() -> b.free(a)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("free(0x" + Long.toHexString(a) + ")");
            b.checkInvariants();
        }

        @Test
        @DisplayName("an upfront pool is one cudaMalloc of the whole pool")
        void upfrontIsOneCudaMalloc() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            BuddyAllocator b = BuddyAllocator.upfront(p, mib(64), 21, 26);
            assertThat(p.cudaMallocCalls()).isEqualTo(1);
            assertThat(b.reserved()).isEqualTo(mib(64)).isEqualTo(p.mappedBytes());
        }

        @Test
        @DisplayName("on demand, a commit the driver cannot back fails the alloc and changes nothing")
        void onDemandOom() {
            GpuProcess p = new Gpu(mib(4)).openToyProcess();
            BuddyAllocator b = BuddyAllocator.onDemand(p, mib(32), 21, 25);
            b.alloc(mib(2));
            b.alloc(mib(2));
            String before = b.map();
            assertThatThrownBy(() -> b.alloc(mib(2))).isInstanceOf(BuddyOutOfMemoryError.class)
                    .hasMessageContaining("driver");
            assertThat(b.map()).isEqualTo(before);
            assertThat(p.mappedBytes()).isEqualTo(mib(4));
            b.checkInvariants();
        }

        @Test
        @DisplayName("on demand, pages go back to the driver when their last block is freed")
        void onDemandGivesBack() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            BuddyAllocator b = BuddyAllocator.onDemand(p, mib(32), 12, 25);
            long x = b.alloc(kib(4)), y = b.alloc(kib(4));
            assertThat(p.mappedBytes()).isEqualTo(mib(2));          // two blocks share one page
            b.free(x);
            assertThat(p.mappedBytes()).isEqualTo(mib(2));
            b.free(y);
            assertThat(p.mappedBytes()).isZero();
            b.checkInvariants();
        }
    }

    @Nested
    @DisplayName("external fragmentation and compaction")
    class Fragmentation {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {21, 22})
        @DisplayName("the unusable index is the share of free units in blocks below the order, in thousandths")
        void unusableIndexAgainstSpans(long seed) {
            Random rnd = new Random(seed);
            BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), 1024, 0, 10);
            List<Long> live = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                if (live.isEmpty() || rnd.nextBoolean()) {
                    try { live.add(b.alloc(1 + rnd.nextInt(32))); } catch (BuddyOutOfMemoryError e) { }
                } else {
                    b.free(live.remove(rnd.nextInt(live.size())));
                }
                for (int order = 0; order <= 10; order++) {
                    long free = 0, small = 0;
                    for (BuddyAllocator.Span s : b.spans()) {
                        if (!s.free()) continue;
                        free += s.size();
                        if (s.order() < order) small += s.size();
                    }
                    long expected = free == 0 ? 1000 : small * 1000 / free;
                    assertThat(b.unusableIndex(order)).as(b::map).isEqualTo(expected);
                }
            }
        }

        @Test
        @DisplayName("half the pool free in single units still cannot serve two units (the seed's tautology)")
        void checkerboard() {
            BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), 16, 0, 4);
            List<Long> units = new ArrayList<>();
            for (int i = 0; i < 16; i++) units.add(b.alloc(1));
            for (int i = 0; i < 16; i += 2) b.free(units.get(i));
            b.checkInvariants();
            assertThat(b.freeBytes()).isEqualTo(8);
            assertThat(b.largestFreeBlock()).isEqualTo(1);
            assertThat(b.fits(2)).isFalse();
            assertThat(b.unusableIndex(1)).isEqualTo(1000);       // every free byte unusable for 2
            assertThat(b.unusableIndex(0)).isZero();
        }

        @Test
        @DisplayName("compaction packs the live blocks and frees the top half again")
        void compaction() {
            BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), 16, 0, 4);
            List<Long> units = new ArrayList<>();
            for (int i = 0; i < 16; i++) units.add(b.alloc(1));
            for (int i = 0; i < 16; i += 2) b.free(units.get(i));
            assertThat(b.fitsAfterCompaction(8)).isTrue();
            assertThat(b.fitsAfterCompaction(9)).as("16 - 8 live leaves one aligned 8").isFalse();
            BuddyAllocator.Compaction c = b.compact();
            b.checkInvariants();
            assertThat(b.largestFreeBlock()).isEqualTo(8);
            assertThat(b.liveBlocks()).isEqualTo(8);
            assertThat(c.bytesMoved()).isEqualTo(c.moved().size()).isPositive();
            assertThat(b.map()).isEqualTo("[A 1][A 1][A 1][A 1][A 1][A 1][A 1][A 1][F 8]");
        }
    }
}
