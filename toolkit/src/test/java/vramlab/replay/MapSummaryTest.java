package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Segment;
import vramlab.alloc.SegmentMap;
import vramlab.driver.Gpu;

@DisplayName("the replay summary's segment map")
class MapSummaryTest {

    static CachingAllocator withSegments(int live, long seed) {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64 * 1024)).openToyProcess(), Policies.create("toy", ""));
        Random r = new Random(seed);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < live; i++) blocks.add(a.alloc(1 + r.nextInt(r.nextBoolean() ? 1 << 20 : 30 << 20)));
        for (int i = 0; i < live / 2; i++) a.free(blocks.remove(r.nextInt(blocks.size())));
        return a;
    }

    static String print(CachingAllocator a, boolean full) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MapSummary.print(a, full, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("draws every segment while there are few")
    void fewSegmentsInFull() {
        CachingAllocator a = withSegments(12, 1);
        assertThat(a.segments().size()).isLessThanOrEqualTo(MapSummary.FULL_MAP_LIMIT);
        assertThat(print(a, false)).isEqualTo(SegmentMap.text(a));
    }

    @Test
    @DisplayName("beyond the limit, fits a screen and its counts add up to the allocator's")
    void manySegmentsCompact() {
        CachingAllocator a = withSegments(3000, 2);
        int segments = a.segments().size();
        assertThat(segments).isGreaterThan(10 * MapSummary.FULL_MAP_LIMIT);
        String text = print(a, false);
        assertThat(text.lines()).hasSizeLessThan(20);
        assertThat(text).startsWith("segment map: " + segments + " segments (");

        List<Segment> bySize = new ArrayList<>(a.segments());
        bySize.sort((x, y) -> x.reservedBytes() != y.reservedBytes()
                ? Long.compare(y.reservedBytes(), x.reservedBytes()) : Integer.compare(x.id(), y.id()));
        List<String> drawn = text.lines().filter(l -> l.startsWith("  segment ")).toList();
        assertThat(drawn).hasSize(MapSummary.LARGEST);
        assertThat(text).contains("\nthe " + MapSummary.LARGEST + " largest:\n");
        for (int i = 0; i < drawn.size(); i++) {
            assertThat(drawn.get(i)).startsWith("  segment " + bySize.get(i).id() + " (");
        }

        String fill = text.lines().filter(l -> l.startsWith("segments by fill:")).findFirst().orElseThrow();
        assertThat(sumOfCounts(fill, "(empty|under 25%|25-50%|50-75%|75-99%|full) (\\d+)")).isEqualTo(segments);

        long freeBlocks = 0, freeBytes = 0;
        for (PoolKind k : PoolKind.values()) {
            for (Block b : a.freeBlocks(k)) {
                freeBlocks++;
                freeBytes += b.size();
            }
        }
        String sizes = text.lines().filter(l -> l.startsWith("free blocks by size:")).findFirst().orElseThrow();
        assertThat(sumOfCounts(sizes, "(M|G|\\+) (\\d+)")).isEqualTo(freeBlocks);
        assertThat(text).contains("fragmentation: " + freeBlocks + " free blocks hold "
                + vramlab.units.Bytes.formatSize(freeBytes));
    }

    @Test
    @DisplayName("picks the largest segments in one pass exactly as a full sort orders them, ties by id")
    void largestAsASort() {
        for (long seed = 1; seed <= 4; seed++) {
            CachingAllocator a = withSegments(400 * (int) seed, seed);
            List<Segment> segments = new ArrayList<>(a.segments());
            java.util.Collections.shuffle(segments, new Random(seed));   // any order in
            List<Segment> sorted = new ArrayList<>(segments);
            sorted.sort(MapSummary.LARGEST_FIRST);
            for (int n : new int[] {0, 1, 3, MapSummary.LARGEST, segments.size(), segments.size() + 5}) {
                assertThat(MapSummary.largest(segments, n)).as("seed %d, n %d", seed, n)
                        .containsExactlyElementsOf(sorted.subList(0, Math.min(n, sorted.size())));
            }
        }
    }

    /** A toy allocator whose one small segment holds {@code live} blocks of 512 B and the free rest. */
    static CachingAllocator oneSegmentOf(int live) {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), Policies.create("toy", ""));
        for (int i = 0; i < live; i++) a.alloc(512);
        return a;
    }

    static int blocks(CachingAllocator a) {
        int n = 0;
        for (Segment s : a.segments()) n += s.blocks().size();
        return n;
    }

    @Test
    @DisplayName("draws every block up to the block limit, and the compact map one block past it")
    void blockLimit() {
        CachingAllocator atLimit = oneSegmentOf(MapSummary.FULL_MAP_BLOCKS - 1);
        assertThat(blocks(atLimit)).isEqualTo(MapSummary.FULL_MAP_BLOCKS);
        assertThat(print(atLimit, false)).isEqualTo(SegmentMap.text(atLimit));

        CachingAllocator past = oneSegmentOf(MapSummary.FULL_MAP_BLOCKS);
        assertThat(blocks(past)).isEqualTo(MapSummary.FULL_MAP_BLOCKS + 1);
        String text = print(past, false);
        assertThat(text).startsWith("segment map: 1 segment (1 small, 0 large)")
                .contains("\nthe segment:\n  segment 0 (small, 2M): |").contains((MapSummary.FULL_MAP_BLOCKS + 1) + " blocks, "
                        + MapSummary.FULL_MAP_BLOCKS + " live");
        assertThat(print(past, true)).isEqualTo(SegmentMap.text(past));
    }

    @Test
    @DisplayName("an expandable segment of thousands of blocks is drawn as one short line, its blocks counted")
    void expandableWithManyBlocks() {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64 * 1024)).openToyProcess(),
                Policies.create("pytorch", "expandable_segments:True"));
        Random r = new Random(38);
        List<Block> live = new ArrayList<>();
        for (int i = 0; i < 3000; i++) live.add(a.alloc(mib(1) + 1 + r.nextInt(3 << 20)));
        for (int i = 0; i < 1500; i++) a.free(live.remove(r.nextInt(live.size())));
        assertThat(a.segments().size()).isLessThanOrEqualTo(MapSummary.FULL_MAP_LIMIT);
        assertThat(blocks(a)).isGreaterThan(10 * MapSummary.FULL_MAP_BLOCKS);

        String text = print(a, false);
        int n = a.segments().size();
        assertThat(text).startsWith("segment map: " + n + (n == 1 ? " segment (" : " segments ("));
        assertThat(text.lines()).hasSizeLessThan(20).allMatch(l -> l.length() < 300);
        assertThat(text).contains(n == 1 ? "\nthe segment:\n" : "\nall " + n + ", largest first:\n");
        for (Segment s : a.segments()) {
            assertThat(text).contains("  " + SegmentMap.head(s) + ": " + SegmentMap.bar(s) + " " + s.blocks().size() + " blocks, ");
        }
    }

    @Test
    @DisplayName("with the full map asked for, draws every segment however many")
    void fullOnRequest() {
        CachingAllocator a = withSegments(600, 3);
        String text = print(a, true);
        assertThat(text).isEqualTo(SegmentMap.text(a));
        assertThat(Arrays.stream(text.split("\n")).filter(l -> l.startsWith("segment ")).count())
                .isEqualTo(a.segments().size());
    }

    @Test
    @DisplayName("counts each segment's fill as a walk along its blocks does: toy, pytorch, expandable, frees waiting on events")
    void fillAsAWalk() {
        for (long seed = 1; seed <= 3; seed++) {
            for (String conf : List.of("toy", "pytorch", "pytorch expandable_segments:True", "pytorch pending")) {
                CachingAllocator a = randomAllocator(conf, seed);
                if (conf.contains("expandable")) {
                    assertThat(a.segments()).as(conf).anyMatch(Segment::isExpandable);
                } else {
                    assertThat(a.segments().size()).as(conf).isGreaterThan(MapSummary.FULL_MAP_LIMIT);
                }
                long[] walked = new long[6];
                for (Segment s : a.segments()) {
                    long live = 0;
                    for (Block b : s.blocks()) if (b.isAllocated()) live += b.size();
                    long held = s.reservedBytes();
                    walked[live == 0 ? 0 : live >= held ? 5 : 1 + (int) Math.min(3, 4 * live / held)]++;
                }
                String fill = MapSummary.compact(a).lines().filter(l -> l.startsWith("segments by fill:"))
                        .findFirst().orElseThrow();
                assertThat(fill).as("%s, seed %d", conf, seed).isEqualTo("segments by fill:  empty " + walked[0]
                        + "  under 25% " + walked[1] + "  25-50% " + walked[2] + "  50-75% " + walked[3]
                        + "  75-99% " + walked[4] + "  full " + walked[5]);
            }
        }
    }

    /** Random allocs and frees on two streams; "pending": some frees wait on an event that never completes. */
    private static CachingAllocator randomAllocator(String conf, long seed) {
        String[] words = conf.split(" ");
        boolean pending = conf.endsWith("pending");
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64 * 1024)).openToyProcess(),
                Policies.create(words[0], words.length > 1 && !pending ? words[1] : ""));
        if (pending) {
            a.setEventQuery(new CachingAllocator.EventQuery() {
                @Override
                public boolean isComplete(int stream, long seq) { return false; }
            });
        }
        Random r = new Random(seed);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            if (!blocks.isEmpty() && r.nextInt(3) == 0) {
                a.free(blocks.remove(r.nextInt(blocks.size())));
            } else {
                Block b = a.alloc(1 + r.nextInt(r.nextBoolean() ? 1 << 20 : 30 << 20), r.nextInt(4) == 0 ? 1 : 0);
                if (pending && r.nextInt(5) == 0) a.recordStream(b, 7);
                blocks.add(b);
            }
        }
        if (pending) assertThat(a.pendingEvents()).isPositive();
        return a;
    }

    @Test
    @DisplayName("prints the fragmentation percentage from the exact quotient, one decimal, half up")
    void percentHalfUp() {
        assertThat(MapSummary.percent(0, 5)).isEqualTo("0.0");
        assertThat(MapSummary.percent(1, 8)).isEqualTo("12.5");
        assertThat(MapSummary.percent(1, 16)).isEqualTo("6.3");       // 6.25: the tie goes up
        assertThat(MapSummary.percent(1, 3)).isEqualTo("33.3");
        assertThat(MapSummary.percent(2, 3)).isEqualTo("66.7");
        assertThat(MapSummary.percent(999, 1000)).isEqualTo("99.9");
        assertThat(MapSummary.percent(9999, 10000)).isEqualTo("100.0");  // 99.99 rounds up, as %.1f does
        assertThat(MapSummary.percent(5, 5)).isEqualTo("100.0");
    }

    private static long sumOfCounts(String line, String regex) {
        Matcher m = Pattern.compile(regex).matcher(line);
        long sum = 0;
        while (m.find()) sum += Long.parseLong(m.group(2));
        return sum;
    }
}
