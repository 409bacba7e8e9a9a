package vramlab.alloc;

import static vramlab.units.Columns.left;
import static vramlab.units.Columns.right;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code torch.cuda.memory_summary()}, laid out as torch/cuda/memory.py lays it out (commit
 * 00b65a0, lines 661-787): a 75-character table of each statistic's current, peak,
 * cumulative allocated and freed values, per pool. Sizes move up a unit (B, KiB, MiB, ...)
 * only while the group's "all" value is at least 768 of that unit; counts move to K and M
 * from 750,000.
 */
public final class MemorySummary {
    private static final String[][] SIZE_METRICS = {
        {"allocated_bytes", "Allocated memory"}, {"active_bytes", "Active memory"},
        {"requested_bytes", "Requested memory"}, {"reserved_bytes", "GPU reserved memory"},
        {"inactive_split_bytes", "Non-releasable memory"}};
    private static final String[][] COUNT_METRICS = {
        {"allocation", "Allocations"}, {"active", "Active allocs"},
        {"segment", "GPU reserved segments"}, {"inactive_split", "Non-releasable allocs"}};
    private static final String[] FIELDS = {"current", "peak", "allocated", "freed"};

    private MemorySummary() {}

    public static String format(MemoryStats stats, int device) { return format(stats, device, false); }

    public static String format(MemoryStats stats, int device, boolean abbreviated) {
        Map<String, Long> s = stats.asMap();
        List<String> lines = new ArrayList<>();
        lines.add("=".repeat(75));
        // memory.py's format strings, their fields padded as they pad them (Columns)
        lines.add(" " + " ".repeat(16) + " PyTorch CUDA memory summary, device ID " + left(device, 17) + " ");
        lines.add("-".repeat(75));
        lines.add("  " + " ".repeat(9) + " CUDA OOMs: " + left(s.get("num_ooms"), 12) + " | " + " ".repeat(6)
                + " cudaMalloc retries: " + left(s.get("num_alloc_retries"), 8) + "  ");
        lines.add("=".repeat(75));
        lines.add("        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ");
        for (String[] m : SIZE_METRICS) group(lines, s, m[0], m[1], true, abbreviated);
        for (String[] m : COUNT_METRICS) group(lines, s, m[0], m[1], false, abbreviated);
        String[][] oversize = {{"oversize_allocations", "Oversize allocations"},
            {"oversize_segments", "Oversize GPU segments"}};
        for (String[] m : oversize) {
            lines.add("-".repeat(75));
            lines.add(row(s, m[0] + ".", m[1], false, null));
        }
        lines.add("=".repeat(75));
        return "|" + String.join("|\n|", lines) + "|\n";
    }

    private static void group(List<String> lines, Map<String, Long> s, String key, String name,
                              boolean sizes, boolean abbreviated) {
        lines.add("-".repeat(75));
        String all = key + ".all.";
        lines.add(row(s, all, name, sizes, all));
        if (abbreviated) return;
        lines.add(row(s, key + ".large_pool.", "      from large pool", sizes, all));
        lines.add(row(s, key + ".small_pool.", "      from small pool", sizes, all));
    }

    /** One row; {@code ref} is the prefix whose values pick the unit (null: the row's own). */
    private static String row(Map<String, Long> s, String prefix, String name, boolean sizes, String ref) {
        StringBuilder sb = new StringBuilder(" " + left(name, 21) + " ");
        for (String f : FIELDS) {
            long v = s.get(prefix + f);
            long r = s.get((ref == null ? prefix : ref) + f);
            sb.append("| ").append(sizes ? formatSize(v, r) : formatCount(v, r)).append(' ');
        }
        return sb.toString();
    }

    /** {@code _format_size}: integer division per unit step, value in 6 columns. */
    static String formatSize(long size, long ref) {
        String[] prefixes = {"B  ", "KiB", "MiB", "GiB", "TiB", "PiB"};
        String prefix = prefixes[0];
        double pref = ref;
        for (int i = 1; i < prefixes.length; i++) {
            if (pref < 768 * 1024) break;
            prefix = prefixes[i];
            size = Math.floorDiv(size, 1024);
            pref /= 1024;
        }
        return right(size, 6) + " " + prefix;
    }

    /** {@code _format_count}: thousands from 750,000, value in 7 columns. */
    static String formatCount(long count, long ref) {
        String[] prefixes = {" ", "K", "M"};
        String prefix = prefixes[0];
        double pref = ref;
        for (int i = 1; i < prefixes.length; i++) {
            if (pref < 750 * 1000) break;
            prefix = prefixes[i];
            count = Math.floorDiv(count, 1000);
            pref /= 1000;
        }
        return right(count, 7) + " " + prefix + " ";
    }
}
