package vramlab.advise;

import static vramlab.units.Bytes.formatSize;

import java.util.List;

/**
 * The table {@code vramlab advise} prints: each setting's peak reserved, the holes at that
 * peak, its OOMs and the first event that would fail, then the setting to use and the exact
 * line that sets it.
 *
 * @param source    what was replayed ("run.pickle, device 1, 596 trace entries")
 * @param card      the card's bytes
 * @param cardFrom  where that size came from
 * @param recorded  the allocator setting the run was recorded with, or null when unknown
 * @param where     how an event's position is named: "trace entry" (snapshots) or "line"
 * @param outcomes  one per setting, the defaults first
 */
public record Advice(String source, long card, String cardFrom, String recorded, String where,
                     List<Outcome> outcomes) {
    /** A setting whose peak is within this share of the defaults' is no better (kit's rule). */
    static final int SAME_PEAK_PERCENT = 2;
    /** ... or within this many bytes of it (kit's rule). */
    static final long SAME_PEAK_BYTES = 64L << 20;

    public Advice {
        outcomes = List.copyOf(outcomes);
        if (outcomes.isEmpty()) throw new IllegalArgumentException("Advice: no outcomes");
    }

    /** The setting with the fewest OOMs, then the lowest peak; the earlier one on a tie. */
    public Outcome best() {
        Outcome best = outcomes.get(0);
        for (Outcome o : outcomes) {
            boolean fewer = o.ooms() < best.ooms();
            if (fewer || (o.ooms() == best.ooms() && o.peakReserved() < best.peakReserved())) best = o;
        }
        Outcome d = outcomes.get(0);
        long saving = d.peakReserved() - best.peakReserved();
        boolean defaultsAsGood = d.ooms() == best.ooms() && (saving <= SAME_PEAK_BYTES
                || d.peakReserved() * 100 <= best.peakReserved() * (100L + SAME_PEAK_PERCENT));
        return defaultsAsGood ? d : best;
    }

    /** The line to put in the environment, or empty when the defaults are best or nothing fits. */
    public String line() {
        Outcome b = best();
        if (b.setting().conf().isEmpty() || !b.fits()) return "";
        return "PYTORCH_CUDA_ALLOC_CONF=" + b.setting().conf();
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("advise: ").append(source).append('\n');
        sb.append("card: ").append(formatSize(card)).append(" (").append(cardFrom).append(")\n");
        if (recorded != null) {
            sb.append("recorded with: PYTORCH_CUDA_ALLOC_CONF=")
              .append(recorded.isEmpty() ? "(unset)" : recorded).append('\n');
        }
        int w = "setting".length();
        for (Outcome o : outcomes) w = Math.max(w, o.setting().name().length());
        String format = "%-" + w + "s %14s %22s %5s  %s\n";
        sb.append('\n').append(String.format(format, "setting", "peak reserved", "holes at the peak",
                "OOMs", "first OOM"));
        for (Outcome o : outcomes) sb.append(row(o, format));
        sb.append('\n').append(recommendation());
        return sb.toString();
    }

    private String row(Outcome o, String format) {
        long holes = o.fragmentationAtPeak();
        String shown = formatSize(holes) + " (" + percent(holes, o.peakReserved()) + ")";
        String first = o.firstOom() == null ? "-" : "event " + o.firstOomStep() + ", " + position(o)
                + ": alloc " + formatSize(o.firstOom().size());
        return String.format(format, o.setting().name(), formatSize(o.peakReserved()), shown, o.ooms(),
                first);
    }

    private String position(Outcome o) {
        long line = o.firstOom().line();
        return line == 0 ? "before the recorded history" : where + " " + line;
    }

    private String recommendation() {
        Outcome d = outcomes.get(0), b = best();
        StringBuilder sb = new StringBuilder("Recommendation: ");
        if (!b.fits()) {
            sb.append("no setting makes this workload fit on ").append(formatSize(card))
              .append("; the fewest OOMs (").append(b.ooms()).append(") come with ")
              .append(b.setting().name()).append(". The tensors themselves need more: shrink the ")
              .append("workload or use a larger card.\n");
            return sb.toString();
        }
        if (b == d) {
            sb.append("keep the defaults: no setting replays this workload with fewer OOMs, or ")
              .append("with more than ").append(SAME_PEAK_PERCENT).append("% (and ")
              .append(formatSize(SAME_PEAK_BYTES)).append(") less reserved at the peak.\n");
            return sb.toString();
        }
        if (!d.fits()) {
            sb.append(b.setting().name()).append(" replays the whole workload without an OOM ")
              .append("(the defaults: ").append(d.ooms()).append(d.ooms() == 1 ? " OOM" : " OOMs")
              .append(")");
        } else {
            sb.append(b.setting().name()).append(" peaks at ").append(formatSize(b.peakReserved()))
              .append(" reserved, ").append(formatSize(d.peakReserved() - b.peakReserved()))
              .append(" less than the defaults");
        }
        sb.append(". Set, before the process starts:\n  ").append(line()).append('\n')
          .append("  (newer releases also read it as PYTORCH_ALLOC_CONF=")
          .append(b.setting().conf()).append(")\n");
        String extra = b.setting().extra();
        if (!extra.isEmpty()) sb.append("  (").append(extra).append(")\n");
        return sb.toString();
    }

    private static String percent(long part, long whole) {
        if (whole <= 0) return "0.0%";
        long tenths = Math.round(part * 1000.0 / whole);
        return String.format("%d.%d%%", tenths / 10, tenths % 10);
    }
}
