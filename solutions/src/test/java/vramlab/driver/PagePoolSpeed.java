package vramlab.driver;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.units.Bytes;

/**
 * Not a test: a stopwatch for the page traffic {@code ./vramlab replay} puts on the driver
 * (issue 16). A 1 TiB GPU takes segments of 1-32 pages, a third of the steps give a random live
 * segment back, until about 280k pages were taken; then everything goes back. Prints the
 * thread's CPU time. Run it under the launcher's JVM flags, for example
 * {@code java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp solutions/target/classes:
 * solutions/target/test-classes vramlab.driver.PagePoolSpeed [pages] [seed]}.
 * Speed is measured here, never asserted in a test.
 */
public final class PagePoolSpeed {
    public static void main(String[] args) {
        int pages = args.length > 0 ? Integer.parseInt(args[0]) : 280_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 16;
        Gpu gpu = new Gpu(0, Bytes.TiB, 500 * Bytes.MiB);
        Object owner = gpu.open(1, "replay", 500 * Bytes.MiB);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long t0 = mx.getCurrentThreadCpuTime();
        long live = run(gpu, owner, pages, new Random(seed));
        long ns = mx.getCurrentThreadCpuTime() - t0;
        gpu.pool().checkInvariants();
        System.out.printf("%d pages, %d live at the peak: %.1f ms CPU%n", pages, live, ns / 1e6);
    }

    /** The traffic; returns the most pages live at once. */
    static long run(Gpu gpu, Object owner, int pages, Random rnd) {
        List<long[]> segments = new ArrayList<>();
        long taken = 0;
        long live = 0;
        long peak = 0;
        while (taken < pages) {
            if (!segments.isEmpty() && rnd.nextInt(10) < 3) {
                int k = rnd.nextInt(segments.size());
                long[] s = segments.get(k);
                segments.set(k, segments.get(segments.size() - 1));
                segments.remove(segments.size() - 1);
                gpu.givePages(s);
                live -= s.length;
            } else {
                int n = 1 + rnd.nextInt(32);
                segments.add(gpu.takePages(n * Gpu.PAGE, owner, "segment", n));
                taken += n;
                live += n;
                peak = Math.max(peak, live);
            }
        }
        for (long[] s : segments) gpu.givePages(s);
        return peak;
    }
}
