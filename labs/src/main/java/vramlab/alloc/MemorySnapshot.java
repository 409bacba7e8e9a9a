package vramlab.alloc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code torch.cuda.memory._snapshot()}: the allocator's state and history as the dict that
 * torch/csrc/cuda/memory_snapshot.cpp (commit 0006736, lines 174-368) builds, in plain Java
 * maps and lists ({@code Long}, {@code String}, {@code Boolean}, and an {@code Object[]} for
 * the one tuple), so a pickle or JSON writer can write it unchanged.
 *
 * <pre>
 * {"segments": [{device, address, total_size, allocated_size, active_size, requested_size,
 *                stream, segment_type, segment_pool_id, is_expandable, frames, blocks}],
 *  "device_traces": [[{action, addr | device_free, size, stream, frames, time_us}]],
 *  "allocator_settings": {...}}
 * </pre>
 * An expandable segment is reported as one segment per contiguous mapped range
 * (CCA:1932-1936). Taking a snapshot records a {@code snapshot} trace entry with the total
 * active bytes, as PyTorch's does, after the history was copied: PyTorch's
 * {@code NativeCachingAllocator::snapshot} takes {@code trace()} before the device's
 * {@code snapshot()} records its entry, so a snapshot never ends with its own entry (a later
 * one shows it). No stack frames are recorded: every {@code frames} list is empty, and it is
 * written where PyTorch writes one, on every trace entry recorded with a context, which is all
 * of them but {@code snapshot} (SNAP:300-318; {@code record_trace} passes no context there).
 */
public final class MemorySnapshot {
    private MemorySnapshot() {}

    public static Map<String, Object> of(CachingAllocator a) {
        int device = a.process().gpu().id();
        List<Object> segments = new ArrayList<>();
        for (Segment s : a.segments()) {
            if (s.isExpandable()) {
                expandableRanges(s, device, segments);
            } else {
                segments.add(segment(s, device, s.address, s.blocks()));
            }
        }
        segments.sort((x, y) -> Long.compare(address(x), address(y)));
        long totalActive = 0;
        for (Object seg : segments) totalActive += (Long) ((Map<?, ?>) seg).get("active_size");
        List<Object> history = traceEntries(a.trace());                  // trace() first, then
        a.trace().add(DeviceTrace.Action.SNAPSHOT, 0, totalActive, 0);   // snapshot() (CCA:1983)
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("segments", segments);
        out.put("device_traces", List.of(history));
        out.put("allocator_settings", settings(a.policy()));
        return out;
    }

    private static long address(Object segment) {
        return (Long) ((Map<?, ?>) segment).get("address");
    }

    private static void expandableRanges(Segment s, int device, List<Object> out) {
        List<Block> run = new ArrayList<>();
        for (Block b = s.first; b != null; b = b.next) {
            if (b.mapped) {
                run.add(b);
                continue;
            }
            if (!run.isEmpty()) out.add(segment(s, device, run.get(0).address(), run));
            run = new ArrayList<>();
        }
        if (!run.isEmpty()) out.add(segment(s, device, run.get(0).address(), run));
    }

    private static Map<String, Object> segment(Segment s, int device, long address, List<Block> blocks) {
        long total = 0, allocated = 0, active = 0, requested = 0;
        List<Object> blockDicts = new ArrayList<>();
        long addr = address;
        for (Block b : blocks) {
            total += b.size;
            if (b.allocated) allocated += b.size;
            if (b.isActive()) {
                active += b.size;
                requested += b.requested;
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("address", addr);
            d.put("size", b.size);
            d.put("requested_size", b.requested);
            d.put("state", b.allocated ? "active_allocated" : b.isActive() ? "active_pending_free" : "inactive");
            d.put("frames", new ArrayList<>());
            blockDicts.add(d);
            addr += b.size;
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("device", (long) device);
        d.put("address", address);
        d.put("total_size", total);
        d.put("allocated_size", allocated);
        d.put("active_size", active);
        d.put("requested_size", requested);
        d.put("stream", (long) s.stream);
        d.put("segment_type", s.pool == PoolKind.LARGE ? "large" : "small");
        d.put("segment_pool_id", new Object[] {0L, 0L});
        d.put("is_expandable", s.isExpandable());
        d.put("frames", new ArrayList<>());
        d.put("blocks", blockDicts);
        return d;
    }

    private static List<Object> traceEntries(DeviceTrace trace) {
        List<Object> out = new ArrayList<>();
        for (DeviceTrace.Entry e : trace.entries()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("action", e.action().word());
            d.put(e.action() == DeviceTrace.Action.OOM ? "device_free" : "addr", e.addr());
            d.put("size", e.size());
            d.put("stream", (long) e.stream());
            if (e.action() != DeviceTrace.Action.SNAPSHOT) d.put("frames", new ArrayList<>());
            d.put("time_us", e.timeUs());
            out.add(d);
        }
        return out;
    }

    /** {@code allocator_settings} (SNAP:330-361). */
    private static Map<String, Object> settings(Policy p) {
        AllocConf c = p instanceof PyTorchPolicy pt ? pt.conf() : AllocConf.defaults();
        Map<String, Object> d = new LinkedHashMap<>();
        // The string the user set, as PyTorch keeps it (last_allocator_settings): '' when unset.
        d.put("PYTORCH_CUDA_ALLOC_CONF", p instanceof PyTorchPolicy pt ? pt.confText() : "");
        d.put("max_split_size", c.maxSplitSize() == Long.MAX_VALUE ? -1L : c.maxSplitSize());
        d.put("garbage_collection_threshold", c.garbageCollectionThreshold());
        d.put("expandable_segments", c.expandableSegments());
        d.put("pinned_num_register_threads", 1L);
        d.put("release_lock_on_cudamalloc", false);
        d.put("pinned_use_cuda_host_register", false);
        Map<String, Object> roundup = new LinkedHashMap<>();
        long key = 1;
        for (long v : c.roundupPower2Divisions()) {
            roundup.put(Long.toString(key), v);
            key *= 2;
        }
        d.put("roundup_power2_divisions", roundup);
        return d;
    }
}
