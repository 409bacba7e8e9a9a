package vramlab.snapshot;

import java.util.List;

import vramlab.alloc.AllocConf;
import vramlab.alloc.DeviceTrace;
import vramlab.alloc.PoolKind;

/**
 * A memory snapshot as PyTorch wrote it, in plain records: what {@link SnapshotReader} makes of
 * every layout PyTorch has written (torch/csrc/cuda/memory_snapshot.cpp and the Python
 * {@code torch.cuda.memory._snapshot}, 2.0 to 2.11; the keys are listed in
 * ../shared/real-snapshots/keys.md of the project that tests against real files).
 *
 * @param file     where it came from, for messages
 * @param layout   which layout PyTorch wrote, in words ("2.1+ device_traces, time_us, ...")
 * @param devices  every device that has segments or a history, by index
 * @param settings the recorded {@code allocator_settings}, or null when the file has none
 * @param entryKeys the keys seen on the trace entries ({@code time_us}, {@code user_metadata}, ...)
 */
public record Snapshot(String file, String layout, List<Device> devices, Settings settings,
                       java.util.Set<String> entryKeys) {
    public Snapshot(String file, String layout, List<Device> devices, Settings settings) {
        this(file, layout, devices, settings, java.util.Set.of());
    }

    /**
     * Whether PyTorch 2.0 wrote it: its blocks carry a {@code history} and no {@code address}
     * ({@link SnapshotReader}), the layout 2.1 replaced. Advice that asks for a new recording then
     * names 2.0's calls ({@link RecordingCalls}).
     */
    public boolean writtenBy2_0() {
        return layout.startsWith(SnapshotReader.LAYOUT_2_0) || layout.endsWith(SnapshotReader.BLOCKS_2_0);
    }

    /** One device: its segments at the end of the run and its history, oldest entry first. */
    public record Device(int index, List<Segment> segments, List<Entry> trace, int traceLists) {
        /** Bytes the segments hold: what {@code memory_reserved()} said when the snapshot was taken. */
        public long reserved() {
            long sum = 0;
            for (Segment s : segments) sum += s.totalSize();
            return sum;
        }

        /**
         * The history's entries whose action the kit does not know (a newer PyTorch's, or a
         * typo), which the replay skips, in one line; null when there are none. Skipping is right
         * for an annotation ({@code user_defined}: c10/cuda/CUDACachingAllocator.cpp's
         * {@code recordAnnotation} records {@code TraceEntry::USER_DEFINED} with address and size
         * 0, so it moves no memory and is not counted), but an
         * action that allocated or freed would make the replay differ, silently until now.
         */
        public String skippedActions() {
            java.util.Map<String, List<Integer>> by = new java.util.TreeMap<>();
            int n = 0;
            for (Entry e : trace) {
                if (e.action() != null || "user_defined".equals(e.word())) continue;
                n++;
                by.computeIfAbsent(e.word(), k -> new java.util.ArrayList<>()).add(e.position());
            }
            if (n == 0) return null;
            List<String> words = new java.util.ArrayList<>();
            for (var w : by.entrySet()) {
                List<Integer> at = w.getValue();
                words.add("'" + w.getKey() + "' at " + (at.size() == 1 ? "entry " + at.get(0)
                        : at.size() + " entries from " + at.get(0)));
            }
            return n + (n == 1 ? " trace entry has" : " trace entries have") + " an action the kit does not know ("
                    + String.join(", ", words) + "): skipped, so whatever it did to memory is not replayed";
        }
    }

    /**
     * A segment dict. With expandable segments PyTorch reports one segment per contiguous
     * mapped range (CCA snapshot, @001074d), so {@code totalSize} is the mapped bytes.
     */
    public record Segment(long address, long totalSize, PoolKind pool, long stream, boolean expandable,
                          List<Block> blocks) {
        public long end() { return address + totalSize; }
    }

    /**
     * A block dict. {@code address} is the block's own key from 2.1 on; the 2.0 layout has none,
     * so it is the segment's address plus the sizes before it (as memory_snapshot.cpp computes it).
     */
    public record Block(long address, long size, long requested, String state, List<Frame> frames) {
        public Block(long address, long size, long requested, String state) {
            this(address, size, requested, state, List.of());
        }

        /** {@code active_allocated}, or freed with events pending ({@code active_pending_free}). */
        public boolean isActive() { return state.startsWith("active"); }
    }

    /**
     * One frame of the stack PyTorch recorded with a block or an entry ({@code frames}: a list
     * of {@code {filename, line, name}}, innermost first; C++ frames too when recorded with
     * {@code stacks="all"}). A block's frames are where it was allocated; a free entry's are
     * the free's own when the history was recorded with {@code context="all"}.
     */
    public record Frame(String filename, long line, String name) {
        /** A Python frame: its file ends in {@code .py}. */
        public boolean isPython() { return filename.endsWith(".py"); }

        /** Inside PyTorch itself: a Python file under a {@code torch/} folder. */
        public boolean isTorch() {
            String f = filename.replace('\\', '/');
            return f.startsWith("torch/") || f.contains("/torch/");
        }

        @Override
        public String toString() { return filename + ":" + line + " " + name; }
    }

    /**
     * A trace entry. {@code position} is its 1-based place in the device's list (what error
     * messages call its line); {@code action} is null for actions the kit has no word for
     * ({@code annotate}, {@code user_defined}); {@code deviceFree} is an {@code oom}'s
     * {@code device_free}, -1 otherwise.
     */
    public record Entry(int position, String word, DeviceTrace.Action action, long addr, long size, long stream,
                        long deviceFree, List<Frame> frames) {
        public Entry(int position, String word, DeviceTrace.Action action, long addr, long size, long stream,
                     long deviceFree) {
            this(position, word, action, addr, size, stream, deviceFree, List.of());
        }
    }

    /**
     * {@code allocator_settings}: the config string as the user set it and the values the
     * allocator used. Added by pytorch/pytorch#119404 ("[Memory Snapshot] Add CUDAAllocatorConfig
     * details into snapshot metadata", 2024); of the real files the kit is tested on, those
     * written by 2.6 carry it and those by 2.1 to 2.5 do not. The kit never infers a release
     * from it: it reads the key when present.
     */
    public record Settings(String conf, AllocConf values) {}

    /** The device with this index, or null. */
    public Device device(int index) {
        for (Device d : devices) if (d.index() == index) return d;
        return null;
    }
}
