package vramlab.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import vramlab.trace.TraceEvent;

/**
 * A seeded trace that fills to {@code live} blocks and then churns around that level: each
 * step frees a random live handle or allocates a new one, with sizes mixed across both pools
 * (mostly small, some large, a few very large). Used by the benchmarks and the streaming check.
 * With {@code emptyCachePerMille} above 0, that many events in a thousand are {@code empty_cache}
 * (the draw is skipped at 0, so such traces are the same as before the option existed).
 *
 * <p>As a program it writes the text trace to standard output:
 * {@code java -cp bench/target/benchmarks.jar vramlab.bench.SteadyTrace EVENTS LIVE SEED [EMPTY_PER_MILLE]}.
 */
public final class SteadyTrace {
    private final SplittableRandom random;
    private final int live;
    private final int emptyCachePerMille;
    private int sizeShift;
    private long uniformMin, uniformMax;            // 0: the mixed sizes of size()
    private long[] drawnFrom;                       // non-null: each size one of these
    private final List<String> handles = new ArrayList<>();
    private long nextHandle;
    private long emitted;

    public SteadyTrace(int live, long seed) { this(live, seed, 0); }

    public SteadyTrace(int live, long seed, int emptyCachePerMille) {
        this.live = live;
        this.random = new SplittableRandom(seed);
        this.emptyCachePerMille = emptyCachePerMille;
    }

    /**
     * Every size divided by {@code 2^shift} (at least 1 B), so that a million live blocks fit one
     * card; 0, the default, leaves the trace as it always was.
     */
    public SteadyTrace scaledDown(int shift) {
        sizeShift = shift;
        return this;
    }

    /**
     * Every size drawn uniformly from {@code [min, max]} bytes instead of the mixed shape (issue
     * 38's workload: 1-24 MiB, every request in the large pool, most segments 20 MiB).
     */
    public SteadyTrace uniformSizes(long min, long max) {
        if (min < 1 || max < min) throw new IllegalArgumentException("uniformSizes(" + min + ", " + max + ")");
        uniformMin = min;
        uniformMax = max;
        return this;
    }

    /**
     * Every size drawn uniformly from {@code sizes} (repeats count: a size listed twice is drawn
     * twice as often), instead of the mixed shape: e.g. every alloc of the real snapshots beside
     * the kit, so that a trace has their shape at any live count (bench/e2e.sh).
     */
    public SteadyTrace sizesFrom(long[] sizes) {
        if (sizes.length == 0) throw new IllegalArgumentException("sizesFrom: no sizes");
        for (long size : sizes) {
            if (size < 1) throw new IllegalArgumentException("sizesFrom: size " + size + " (at least 1 byte)");
        }
        drawnFrom = sizes.clone();
        return this;
    }

    /** Sizes in the shape of a training step: many small tensors, some large, rare huge. */
    long size() {
        if (drawnFrom != null) return drawnFrom[random.nextInt(drawnFrom.length)];
        if (uniformMax > 0) return uniformMin + random.nextLong(uniformMax - uniformMin + 1);
        int kind = random.nextInt(100);
        long size;
        if (kind < 70) size = 1 + random.nextLong(1 << 20);              // small pool
        else if (kind < 98) size = (1 << 20) + random.nextLong(8L << 20); // up to 9 MiB
        else size = (16L << 20) + random.nextLong(48L << 20);            // 16-64 MiB
        return Math.max(1, size >> sizeShift);
    }

    public TraceEvent next() {
        emitted++;
        if (emptyCachePerMille > 0 && random.nextInt(1000) < emptyCachePerMille) {
            return TraceEvent.emptyCache(emitted);
        }
        boolean alloc = handles.size() < live ? random.nextInt(10) < 9 : random.nextBoolean();
        if (alloc || handles.isEmpty()) {
            String h = "t" + nextHandle++;
            handles.add(h);
            return TraceEvent.alloc(emitted, h, size());
        }
        int i = random.nextInt(handles.size());
        String h = handles.get(i);
        handles.set(i, handles.get(handles.size() - 1));                 // O(1) removal
        handles.remove(handles.size() - 1);
        return TraceEvent.free(emitted, h);
    }

    /** Handles allocated and not yet freed by the events so far. */
    public int liveHandles() { return handles.size(); }

    public static List<TraceEvent> events(int count, int live, long seed) {
        return events(count, live, seed, 0);
    }

    public static List<TraceEvent> events(int count, int live, long seed, int emptyCachePerMille) {
        SteadyTrace t = new SteadyTrace(live, seed, emptyCachePerMille);
        List<TraceEvent> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) out.add(t.next());
        return out;
    }

    /**
     * {@code SIZES}: {@code mixed} (the default: {@link #size()}'s shape),
     * {@code MIN-MAX} in MiB, uniform ({@code 1-24}: issue 38's workload), or {@code @FILE}, a
     * file of sizes in bytes, one a line ({@link #sizesFrom}).
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 3 || args.length > 5) {
            System.err.println("usage: SteadyTrace EVENTS LIVE SEED [EMPTY_CACHE_PER_MILLE [mixed|MIN-MAX (MiB)|@FILE]]");
            System.exit(2);
        }
        long events = Long.parseLong(args[0]);
        SteadyTrace t = new SteadyTrace(Integer.parseInt(args[1]), Long.parseLong(args[2]),
                args.length >= 4 ? Integer.parseInt(args[3]) : 0);
        if (args.length == 5 && args[4].startsWith("@")) {
            t.sizesFrom(sizes(Path.of(args[4].substring(1))));
        } else if (args.length == 5 && !args[4].equals("mixed")) {
            String[] mib = args[4].split("-");
            t.uniformSizes(Long.parseLong(mib[0]) << 20, Long.parseLong(mib[1]) << 20);
        }
        try (Writer w = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16)) {
            for (long i = 0; i < events; i++) {
                TraceEvent e = t.next();
                w.write(switch (e.op()) {
                    case ALLOC -> "alloc " + e.handle() + " " + e.size() + "\n";
                    case FREE -> "free " + e.handle() + "\n";
                    case EMPTY_CACHE -> "empty_cache\n";
                });
            }
        }
    }

    /** The sizes listed in {@code file}, one a line in bytes; a bad line is an error naming it. */
    static long[] sizes(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        long[] out = new long[lines.size()];
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = Long.parseLong(lines.get(i).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": '" + lines.get(i)
                        + "' is not a size in bytes");
            }
        }
        return out;
    }
}
