package vramlab.judge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.contest.Contestant;
import vramlab.contest.DeviceAllocator;
import vramlab.driver.CostModel;
import vramlab.driver.CudaException;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Walk;
import vramlab.lab.Todo;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceException;
import vramlab.units.Bytes;
import vramlab.workload.Workload;

/**
 * The contest's driver (chapter 8): replays a workload through an entry on a fresh card and
 * checks every event from the outside, as CS:APP's malloc lab driver ({@code mdriver.c}) checks
 * {@code mm_malloc} and {@code mm_free}: a new block is 512 B aligned, at least its request,
 * overlaps no live block, and lies in memory the driver mapped for this process; a free is
 * taken; memory given back to the driver leaves every live block mapped; and at the end,
 * every block freed, {@code empty_cache} gives all of it back. The first broken check stops the
 * run (see {@link Broken}); an out-of-memory error stops it too: the workload did not fit. A
 * lab step not written yet ({@link Todo}) is thrown on, never taken for a broken check.
 *
 * <p>"In memory from the driver" is checked on the GMMU's page tables, page by page: each
 * 2 MiB page under the block must be mapped with access. A simplification: inside a 2 MiB
 * page that the driver shares among small {@code cudaMalloc}s (1 MiB and less), the check
 * cannot tell one slice from another.
 */
public final class Judge {
    /** How many points of memory held a run keeps for its curve. */
    public static final int CURVE_POINTS = 200;

    private record Live(long address, long size, long request, long step, String handle) {}

    private final Workload workload;
    private final GpuProcess process;
    private final DeviceAllocator entry;
    private final String entryName;
    private final TreeMap<Long, Live> live = new TreeMap<>();
    private final Map<String, Long> byHandle = new HashMap<>();
    private long step, requested, peakRequested, peakReserved, lastReserved, nanos;
    private final long[] curve = new long[CURVE_POINTS];
    private final long[] requestedCurve = new long[CURVE_POINTS];
    private Live lastFreed;

    private Judge(Contestant c, Workload w) {
        this.workload = w;
        this.process = new Gpu(w.card()).openToyProcess();
        this.entry = c.on(process);
        this.entryName = c.name();
    }

    /** Replays {@code w} through a fresh {@code c} on a card of its own. */
    public static Run run(Contestant c, Workload w) {
        return new Judge(c, w).replay();
    }

    private Run replay() {
        Broken broken = null;
        long oomStep = -1;
        String oom = "";
        List<TraceEvent> events = workload.events();
        try {
            for (TraceEvent e : events) {
                step++;
                broken = apply(e);
                if (broken != null) break;
                sample(events.size());
            }
            if (broken == null) broken = leak();
        } catch (OutOfMemory m) {
            oomStep = step;
            oom = firstLine(m.getCause().getMessage());
        }
        return new Run(entryName, workload.name(), workload.card(), broken == null && oomStep < 0 ? events.size() : step,
                broken == null && oomStep < 0, oomStep, oom, broken, peakReserved, peakRequested, calls(),
                CostModel.ORDER_OF_MAGNITUDE.totalMicros(process), nanos, curve, requestedCurve);
    }

    private void sample(int total) {
        int at = (int) ((step - 1) * CURVE_POINTS / total);
        curve[at] = Math.max(curve[at], process.mappedBytes());
        requestedCurve[at] = Math.max(requestedCurve[at], requested);
    }

    /** An out-of-memory error from the entry: the workload did not fit. */
    private static final class OutOfMemory extends RuntimeException {
        OutOfMemory(RuntimeException cause) { super(cause); }
    }

    private Broken apply(TraceEvent e) {
        switch (e.op()) {
            case ALLOC -> {
                if (byHandle.containsKey(e.handle())) {
                    throw new TraceException(workload.name(), e.line(), "alloc of handle '" + e.handle()
                            + "', which is still live");
                }
                long address;
                long t0 = System.nanoTime();
                try {
                    address = entry.alloc(e.size(), e.stream());
                } catch (CudaOutOfMemoryError | BuddyOutOfMemoryError oom) {
                    throw new OutOfMemory(oom);
                } catch (CudaException ce) {
                    if (ce.isOutOfMemory()) throw new OutOfMemory(ce);
                    return broken(Check.CALL, e, "", "a block", "the driver's " + firstLine(ce.getMessage()));
                } catch (RuntimeException x) {
                    if (x instanceof Todo) throw x;
                    return broken(Check.CALL, e, "", "a block", x.getClass().getSimpleName() + ": " + firstLine(x.getMessage()));
                } finally {
                    nanos += System.nanoTime() - (t0);
                }
                long size = entry.blockSize(address);
                Live b = new Live(address, size, e.size(), step, e.handle());
                Broken bad = checkNew(e, b);
                if (bad != null) return bad;
                live.put(address, b);
                byHandle.put(e.handle(), address);
                requested += e.size();
                peakRequested = Math.max(peakRequested, requested);
            }
            case FREE -> {
                Long address = byHandle.remove(e.handle());
                if (address == null) {
                    throw new TraceException(workload.name(), e.line(), "free of unknown handle '" + e.handle()
                            + "' (never allocated, or already freed)");
                }
                Live b = live.remove(address);
                lastFreed = b;
                long t0 = System.nanoTime();
                try {
                    entry.free(address);
                } catch (RuntimeException x) {
                    if (x instanceof Todo) throw x;
                    live.put(address, b);
                    return broken(Check.FREE, e, show(b), "the free taken",
                            x.getClass().getSimpleName() + ": " + firstLine(x.getMessage()));
                } finally {
                    nanos += System.nanoTime() - t0;
                }
                requested -= b.request();
                long after = entry.blockSize(address);
                if (after >= 0 && !live.containsKey(address)) {
                    return broken(Check.FREE, e, show(b), "no live block at 0x" + Long.toHexString(address)
                            + " (blockSize -1)", "a block of " + after + " B still reported live");
                }
            }
            case EMPTY_CACHE -> {
                long t0 = System.nanoTime();
                try {
                    entry.emptyCache();
                } catch (RuntimeException x) {
                    if (x instanceof Todo) throw x;
                    return broken(Check.CALL, e, "", "empty_cache to return",
                            x.getClass().getSimpleName() + ": " + firstLine(x.getMessage()));
                } finally {
                    nanos += System.nanoTime() - t0;
                }
            }
        }
        long reserved = process.mappedBytes();
        peakReserved = Math.max(peakReserved, reserved);
        if (reserved < lastReserved) {                 // memory went back: are the live blocks still mapped?
            for (Live b : suspects(e)) {
                String hole = unmapped(b);
                if (hole != null) {
                    return broken(Check.SEGMENT, e, show(b) + " (allocated at event " + b.step() + ")",
                            "every page under the live block mapped", hole, b);
                }
            }
        }
        lastReserved = reserved;
        return null;
    }

    /**
     * The live blocks memory given back could have been under: after {@code empty_cache}, all
     * of them; after a free, those that share a 2 MiB page with the freed block or are its
     * nearest live neighbours (a free that unmaps pages further away is not looked for: a
     * simplification that keeps a free's check short).
     */
    private java.util.Collection<Live> suspects(TraceEvent e) {
        if (e.op() != TraceEvent.Op.FREE || lastFreed == null) return new ArrayList<>(live.values());
        long from = lastFreed.address() / Gpu.PAGE * Gpu.PAGE;
        long to = Bytes.alignUp(lastFreed.address() + Math.max(1, lastFreed.size()), Gpu.PAGE);
        List<Live> near = new ArrayList<>();
        var lower = live.floorEntry(from);
        if (lower != null) near.add(lower.getValue());
        for (var b = live.ceilingEntry(from); b != null; b = live.higherEntry(b.getKey())) {
            near.add(b.getValue());
            if (b.getKey() >= to) break;
        }
        for (var b = lower; b != null; b = live.lowerEntry(b.getKey())) {
            if (b.getValue().address() + b.getValue().size() <= from) break;
            near.add(b.getValue());
        }
        return near;
    }

    /** The checks on a new block, in the order the report names them. */
    private Broken checkNew(TraceEvent e, Live b) {
        if (b.address() % DeviceAllocator.ALIGNMENT != 0) {
            return broken(Check.ALIGNED, e, show(b), "an address that is a multiple of 512",
                    "0x" + Long.toHexString(b.address()) + " (" + Long.remainderUnsigned(b.address(), 512) + " past one)", b);
        }
        if (b.size() < b.request()) {
            return broken(Check.SIZE, e, show(b), "a block of at least " + b.request() + " B",
                    b.size() < 0 ? "blockSize " + b.size() + " (not a live block)" : b.size() + " B", b);
        }
        var below = live.floorEntry(b.address() + b.size() - 1);
        if (below != null && below.getValue().address() + below.getValue().size() > b.address()) {
            Live o = below.getValue();
            return broken(Check.OVERLAP, e, show(b), "no live block in [0x" + Long.toHexString(b.address()) + ", 0x"
                    + Long.toHexString(b.address() + b.size()) + ")", "live block " + show(o) + " ('" + o.handle()
                    + "', allocated at event " + o.step() + ")", b);
        }
        String hole = unmapped(b);
        if (hole != null) return broken(Check.SEGMENT, e, show(b), "every page under the block mapped", hole, b);
        return null;
    }

    /** The first 2 MiB page under {@code b} that is not mapped with access, described; null when all are. */
    private String unmapped(Live b) {
        for (long page = b.address() / Gpu.PAGE * Gpu.PAGE; page < b.address() + b.size(); page += Gpu.PAGE) {
            Walk w = process.walk(page);
            if (!w.found()) return "page 0x" + Long.toHexString(page) + " not mapped";
            if (!w.pte().valid()) return "page 0x" + Long.toHexString(page) + " mapped without access";
        }
        return null;
    }

    /** After the trace: free what is still live, empty the cache, and nothing may be left held. */
    private Broken leak() {
        step++;
        TraceEvent end = TraceEvent.emptyCache(-1);
        for (Live b : new ArrayList<>(live.values())) {
            try {
                entry.free(b.address());
            } catch (RuntimeException x) {
                if (x instanceof Todo) throw x;
                return broken(Check.FREE, end, show(b), "the free taken", x.getClass().getSimpleName() + ": " + x.getMessage());
            }
            live.remove(b.address());
        }
        try {
            entry.emptyCache();
        } catch (RuntimeException x) {
            if (x instanceof Todo) throw x;
            return broken(Check.CALL, end, "", "empty_cache to return", x.getClass().getSimpleName() + ": " + x.getMessage());
        }
        long held = process.mappedBytes();
        if (held == 0) return null;
        return broken(Check.LEAK, end, "", "0 B held from the driver", Bytes.formatSize(held) + " (" + held + " B) still held");
    }

    private Broken broken(Check c, TraceEvent e, String block, String expected, String actual) {
        return new Broken(c, step, e, block, expected, actual, drivers());
    }

    private Broken broken(Check c, TraceEvent e, String block, String expected, String actual, Live b) {
        return new Broken(c, step, e, block, expected, actual, map(b) + drivers());
    }

    /** The live blocks around {@code b} (three on each side) and the pages under it. */
    private String map(Live b) {
        StringBuilder s = new StringBuilder("live blocks around it:\n");
        List<Live> near = new ArrayList<>();
        var lower = live.headMap(b.address(), true).descendingMap().values().iterator();
        for (int i = 0; i < 3 && lower.hasNext(); i++) near.add(0, lower.next());
        var upper = live.tailMap(b.address(), false).values().iterator();
        for (int i = 0; i < 3 && upper.hasNext(); i++) near.add(upper.next());
        boolean shown = false;
        for (Live o : near) {
            if (!shown && o.address() >= b.address()) {
                s.append("  ").append(row(b)).append("   <- this block\n");
                shown = true;
            }
            if (o.address() != b.address() || o.step() != b.step()) s.append("  ").append(row(o)).append('\n');
        }
        if (!shown) s.append("  ").append(row(b)).append("   <- this block\n");
        s.append("driver pages under it:\n");
        int n = 0;
        for (long page = b.address() / Gpu.PAGE * Gpu.PAGE; page < b.address() + Math.max(1, b.size()) && n < 8;
             page += Gpu.PAGE, n++) {
            Walk w = process.walk(page);
            s.append("  0x").append(Long.toHexString(page)).append(' ')
                    .append(!w.found() ? "not mapped" : w.pte().valid() ? "mapped" : "mapped, no access").append('\n');
        }
        return s.toString();
    }

    private static String row(Live b) {
        return String.format("[0x%x, 0x%x) %10s  '%s' (request %s, event %d)", b.address(), b.address() + Math.max(0, b.size()),
                Bytes.formatSize(Math.max(0, b.size())), b.handle(), Bytes.formatSize(b.request()), b.step());
    }

    private String drivers() {
        return "the process holds " + Bytes.formatSize(process.mappedBytes()) + " from the driver ("
                + process.driverCalls(DriverCall.CUDA_MALLOC) + " cudaMalloc, "
                + process.driverCalls(DriverCall.CU_MEM_MAP) + " cuMemMap so far)";
    }

    private static String show(Live b) {
        return "0x" + Long.toHexString(b.address()) + " + " + b.size() + " B";
    }

    private long calls() {
        long n = 0;
        for (DriverCall c : DriverCall.values()) n += process.driverCalls(c);
        return n;
    }

    /** {@code alloc h 3.0 MiB}, {@code free h}, {@code empty_cache}; the end of the trace for line -1. */
    static String describe(TraceEvent e) {
        if (e.line() < 0) return "the end of the trace: every block freed, then empty_cache";
        return switch (e.op()) {
            case ALLOC -> "line " + e.line() + ": alloc '" + e.handle() + "' " + e.size() + " B";
            case FREE -> "line " + e.line() + ": free '" + e.handle() + "'";
            case EMPTY_CACHE -> "line " + e.line() + ": empty_cache";
        };
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
