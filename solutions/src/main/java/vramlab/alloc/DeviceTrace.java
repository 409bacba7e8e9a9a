package vramlab.alloc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The allocator's history, as {@code torch.cuda.memory._record_memory_history} keeps it: a
 * ring buffer of the last {@code maxEntries} trace entries (CCA:918-979). Off until enabled,
 * so a long replay does not grow with its length.
 *
 * <p>Simplification: {@code time_us} is a logical clock (one tick per entry); the simulator
 * has no wall clock, and no stack frames are recorded.
 */
public final class DeviceTrace {
    /** The actions PyTorch writes (torch/csrc/cuda/memory_snapshot.cpp, lines 262-298). */
    public enum Action {
        ALLOC("alloc"), FREE_REQUESTED("free_requested"), FREE_COMPLETED("free_completed"),
        SEGMENT_ALLOC("segment_alloc"), SEGMENT_FREE("segment_free"), SEGMENT_MAP("segment_map"),
        SEGMENT_UNMAP("segment_unmap"), SNAPSHOT("snapshot"), OOM("oom");

        private final String word;

        Action(String word) { this.word = word; }

        public String word() { return word; }

        public static Action of(String word) {
            for (Action a : values()) if (a.word.equals(word)) return a;
            return null;
        }
    }

    /**
     * One entry. For {@code oom}, {@code addr} holds the device's free bytes ({@code device_free}).
     */
    public record Entry(Action action, long addr, long size, int stream, long timeUs) {}

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private boolean enabled;
    private long maxEntries = Long.MAX_VALUE;
    private long clock;

    /** {@code _record_memory_history(enabled="all", max_entries=...)}; {@code false} stops and clears. */
    public void record(boolean on, long max) {
        this.enabled = on;
        this.maxEntries = Math.max(1, max);
        if (!on) entries.clear();
    }

    public boolean isEnabled() { return enabled; }

    void add(Action action, long addr, long size, int stream) {
        if (!enabled) return;
        if (entries.size() >= maxEntries) entries.removeFirst();
        entries.addLast(new Entry(action, addr, size, stream, ++clock));
    }

    public List<Entry> entries() { return new ArrayList<>(entries); }
}
