package vramlab.advise;

import static vramlab.units.Bytes.formatSize;

import java.util.List;

import vramlab.replay.WhatIf;
import vramlab.snapshot.RecordingCalls;

/**
 * The table {@code vramlab advise} prints: each setting's peak reserved, the holes at that
 * peak, its OOMs and the first event that would fail (its step, as {@code replay} counts them:
 * "OOM at step N" and {@code --csv}'s {@code step} column, and its trace entry or line), then
 * the setting to use and the exact line that sets it.
 *
 * @param source    what was replayed ("run.pickle, device 1, 596 trace entries")
 * @param card      the card's bytes
 * @param cardFrom  where that size came from
 * @param recorded  the allocator setting the run was recorded with, or null when unknown
 * @param where     how an event's position is named: "trace entry" (snapshots) or "line"
 * @param outcomes  one per setting, the baseline first: a snapshot's run as recorded, else the defaults
 * @param cardKnown whether the card comes from {@code --device} or the recording; when not, no
 *                  row is said to fit and the settings are ranked by peak reserved alone
 * @param holders   for a snapshot, who held the memory at the recorded run's peak; else null
 * @param rules     whose rules the replays follow where PyTorch's releases differ, and why
 *                  ({@code PyTorch 2.9's rules (the default)}); empty to say nothing
 * @param writtenBy2_0 whether the snapshot is in PyTorch 2.0's layout
 *                  ({@link vramlab.snapshot.Snapshot#writtenBy2_0()}): a recommendation that asks
 *                  for a new recording then names 2.0's calls, not 2.1's
 */
public record Advice(String source, long card, String cardFrom, String recorded, String where,
                     List<Outcome> outcomes, boolean cardKnown, vramlab.replay.WhoHolds holders,
                     String rules, boolean writtenBy2_0) {
    /** How many allocation sites the report lists at the peak ({@code replay --at peak} lists all). */
    static final int SITES_SHOWN = 5;

    public Advice(String source, long card, String cardFrom, String recorded, String where,
                  List<Outcome> outcomes, boolean cardKnown) {
        this(source, card, cardFrom, recorded, where, outcomes, cardKnown, null, "", false);
    }

    /** A setting whose peak is within this share of the defaults' is no better (kit's rule). */
    static final int SAME_PEAK_PERCENT = 2;
    /** ... or within this many bytes of it (kit's rule). */
    static final long SAME_PEAK_BYTES = 64L << 20;

    /**
     * The line under the advice's {@code PYTORCH_CUDA_ALLOC_CONF=...}: which releases read the
     * same string under the newer name, and why the line keeps the older one. From PyTorch's
     * source and threads:
     * <ul>
     *   <li>c10/core/AllocatorConfig.cpp @0ac716637f32 ({@code AcceleratorAllocatorConfig::instance})
     *       reads {@code PYTORCH_ALLOC_CONF} first, then {@code PYTORCH_CUDA_ALLOC_CONF} and
     *       {@code PYTORCH_HIP_ALLOC_CONF}, each of the last two with {@code TORCH_WARN_ONCE}
     *       "PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF instead";</li>
     *   <li>2.9 prints that warning (2.9.0's log in Comfy-Org/ComfyUI#10386, 2.9.1's in
     *       pytorch/pytorch#183387) while its CUDA allocator still parses its keys only from
     *       {@code PYTORCH_CUDA_ALLOC_CONF} (c10/cuda/CUDAAllocatorConfig.h, {@code instance}):
     *       pytorch/pytorch#183387 (closed, "has workaround") shows expandable_segments set
     *       under the newer name ignored on 2.9.1;</li>
     *   <li>CUDA reads its keys through AcceleratorAllocatorConfig from PR #165135 ("Reuse
     *       AcceleratorAllocatorConfig in CUDAAllocatorConfig", October 2025, after the 2.9
     *       branch cut), so from 2.10, the boundary {@link vramlab.alloc.PyTorchRelease#V2_10}
     *       rests on; vllm-project/vllm#41158 sets {@code PYTORCH_ALLOC_CONF=expandable_segments:True}
     *       against 2.10's fragmentation, and karpathy/autoresearch#588 measured it honoured in
     *       2.11.0.</li>
     * </ul>
     * Not settled by the sources the kit could read: whether 2.8 already warns (one user's
     * report, PriorLabs/TabPFN#608), and from which release the warning stops (PR #167659,
     * November 2025, proposes to call the older name an alias instead).
     */
    static final String NEWER_NAME = "  (2.10 and later also read it as PYTORCH_ALLOC_CONF=%s; 2.9 warns that"
            + " PYTORCH_CUDA_ALLOC_CONF is deprecated, yet its CUDA allocator reads its keys only from that"
            + " name, pytorch/pytorch#183387: keep the name above)";

    public Advice {
        outcomes = List.copyOf(outcomes);
        if (outcomes.isEmpty()) throw new IllegalArgumentException("Advice: no outcomes");
    }

    /** A text trace's advice on a card given with {@code --device}. */
    public Advice(String source, long card, String cardFrom, String recorded, String where,
                  List<Outcome> outcomes) {
        this(source, card, cardFrom, recorded, where, outcomes, true);
    }

    /**
     * The advice on a workload: a text trace replayed by {@link Advisor} on its card, or a
     * snapshot's run as recorded and under each setting, on the card the first row's replay
     * used ({@code --device}, else what the recording implies).
     *
     * @param file for a text trace's error messages
     */
    public static Advice of(Workload w, String file, List<Setting> settings,
                            java.util.function.Consumer<String> progress) {
        return of(w, file, settings, progress, null);
    }

    /**
     * The same; for a snapshot, each row's replay is also heard by a new timeline added to
     * {@code timelines} (for {@code --html}: the page draws the runs the table reports).
     */
    public static Advice of(Workload w, String file, List<Setting> settings,
                            java.util.function.Consumer<String> progress,
                            List<vramlab.replay.Timeline> timelines) {
        return of(w, file, settings, progress, timelines, null);
    }

    /**
     * The release whose rules {@code w}'s replays follow, and so whose parser every row must
     * satisfy ({@link Setting#standard(vramlab.alloc.PyTorchRelease)}): {@code given}
     * ({@code --pytorch-version}) or, when null, the default for a text trace and the one a
     * snapshot's fields imply ({@link vramlab.replay.SnapshotRelease}), as {@code replay} chooses.
     */
    public static vramlab.alloc.PyTorchRelease releaseFor(Workload w, vramlab.alloc.PyTorchRelease given) {
        if (w.snapshot() == null) return given == null ? vramlab.alloc.PyTorchRelease.DEFAULT : given;
        return vramlab.replay.SnapshotRelease.of(w.snapshot(), given).release();
    }

    /**
     * The same under {@code release}'s rules ({@code --pytorch-version}); null: a text trace
     * follows the default release, a snapshot the one its fields imply
     * ({@link vramlab.replay.SnapshotRelease}), as {@code replay} does.
     */
    public static Advice of(Workload w, String file, List<Setting> settings,
                            java.util.function.Consumer<String> progress,
                            List<vramlab.replay.Timeline> timelines, vramlab.alloc.PyTorchRelease release) {
        if (w.snapshot() == null) {
            vramlab.alloc.PyTorchRelease r = releaseFor(w, release);
            return new Advice(w.source(), w.card(), w.cardFrom(), null, w.where(),
                    Advisor.compare(w.events(), w.card(), settings, file, progress, r),
                    !w.cardFrom().startsWith("assumed"), null,
                    r + "'s rules (" + (release == null ? "the default" : "--pytorch-version") + ")", false);
        }
        List<Outcome> rows = Advisor.compare(w.snapshot(), w.device(), w.card(), settings, progress, timelines,
                release);
        vramlab.replay.SnapshotReplay.Report first = rows.get(0).whatIf().main();
        vramlab.replay.WhoHolds peak = vramlab.replay.WhoHolds.at(w.snapshot(), w.device(),
                new vramlab.replay.SnapshotReplay.Options(null, w.card()), first.replayedPeakPosition(), false,
                "the recorded run's peak (" + formatSize(first.replayedPeak()) + " reserved, trace entry "
                        + first.replayedPeakPosition() + ")");
        String rules = vramlab.replay.SnapshotRelease.of(w.snapshot(), release).words();
        if (w.recorded() == null) rules += "; " + vramlab.replay.SnapshotRelease.SETTINGS_SINCE;
        return new Advice(w.source(), first.cardAvailable(), first.card(), w.recorded(), w.where(), rows,
                first.cardKnown(), peak, rules, w.snapshot().writtenBy2_0());
    }

    /**
     * A snapshot whose history starts mid-run: its rebuilt start ({@code StartState}) is put back
     * as recorded under every row (SnapshotReplay.restore: cudaMalloc segments stay cudaMalloc
     * segments under expandable_segments:True, a split block stays split under
     * max_split_size_mb), so the rows compare only what the history did. The kit simplifies
     * there, and a practitioner acting on a row must know it; null for a complete history.
     */
    String midRunStart() {
        WhatIf w = outcomes.get(0).whatIf();
        if (w == null) return null;
        for (String note : w.main().start()) {
            if (note.startsWith("the history is incomplete")) {
                return note + ". Every row keeps that rebuilt state as it was recorded (the kit's"
                        + " simplification: a run started under another setting would have laid it out its"
                        + " own way), so the rows compare only what the history did";
            }
        }
        return null;
    }

    /**
     * Whether the table marks {@code o}: its peak is the state the recorded history starts from
     * while some other row's is not ({@link StartPeak}).
     */
    public boolean peakAtStartMarked(Outcome o) { return StartPeak.some(outcomes) && StartPeak.at(o); }

    /** The line under the table that says what that mark means, or null when no row is marked. */
    public String startPeakNote() { return StartPeak.footnote(outcomes); }

    /**
     * The rows of {@code advise --html}'s page: each row's name, the timeline heard from its replay
     * ({@link #of(Workload, String, List, java.util.function.Consumer, List)}), its verdict, and its
     * mark ({@link #peakAtStartMarked}), which the page's table and its JSON carry as the text does.
     */
    public List<vramlab.replay.RunPage.Row> pageRows(List<vramlab.replay.Timeline> timelines) {
        List<vramlab.replay.RunPage.Row> rows = new java.util.ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            Outcome o = outcomes.get(i);
            rows.add(new vramlab.replay.RunPage.Row(o.setting().name(), timelines.get(i), o.whatIf().verdict(),
                    peakAtStartMarked(o)));
        }
        return rows;
    }

    /** The lines under the page's table: what the start's mark means, what a memory fraction rests on. */
    public List<String> pageNotes() {
        List<String> notes = new java.util.ArrayList<>();
        if (startPeakNote() != null) notes.add(startPeakNote());
        if (fractionNote() != null) notes.add(fractionNote());
        return notes;
    }

    /** The OOMs a row counts: none when the card is unknown (the replay's card is an assumption). */
    private long ooms(Outcome o) { return cardKnown ? o.ooms() : 0; }

    /** Whether a row fits the card (under every placement rule run). */
    private boolean fits(Outcome o) { return o.whatIf() == null ? o.fits() : o.whatIf().fits(); }

    /**
     * The setting with the fewest OOMs, then the lowest peak; the earlier one on a tie, except that
     * of two max_split_size_mb values that tie, the larger wins: it leaves fewer blocks unsplittable,
     * and PyTorch's notes say the option's cost "can range from 'zero' to 'substantial' depending
     * on allocation patterns" (docs/source/notes/cuda.rst, Environment variables), so the mildest
     * value that does as well is the one to set. With the card unknown, the lowest peak alone. The
     * baseline (first row) unless another is clearly better.
     */
    public Outcome best() {
        Outcome best = outcomes.get(0);
        for (Outcome o : outcomes) {
            boolean fewer = ooms(o) < ooms(best);
            boolean tie = ooms(o) == ooms(best) && o.peakReserved() == best.peakReserved();
            if (fewer || (ooms(o) == ooms(best) && o.peakReserved() < best.peakReserved())
                    || (tie && maxSplitMiB(o) > maxSplitMiB(best) && maxSplitMiB(best) > 0)) {
                best = o;
            }
        }
        Outcome d = outcomes.get(0);
        long saving = d.peakReserved() - best.peakReserved();
        boolean defaultsAsGood = ooms(d) == ooms(best) && (saving <= SAME_PEAK_BYTES
                || d.peakReserved() * 100 <= best.peakReserved() * (100L + SAME_PEAK_PERCENT));
        return defaultsAsGood ? d : best;
    }

    /** A row's max_split_size_mb when that is all it sets, else -1. */
    private static long maxSplitMiB(Outcome o) {
        String conf = o.setting().conf(), key = "max_split_size_mb:";
        if (o.setting().asRecorded() || !o.setting().code().isEmpty() || !conf.startsWith(key)) return -1;
        String value = conf.substring(key.length());
        return value.matches("\\d{1,9}") ? Long.parseLong(value) : -1;
    }

    /**
     * The line to put in the environment, or empty when the baseline is best or nothing fits. A
     * setting with a line of code ({@link Setting#code()}) also needs that line, which
     * {@link #text()} prints after this one.
     */
    public String line() {
        Outcome b = best();
        if (b.setting().conf().isEmpty() || b.setting().asRecorded() || (cardKnown && !fits(b))) return "";
        return "PYTORCH_CUDA_ALLOC_CONF=" + b.setting().conf();
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("advise: ").append(source).append('\n');
        if (cardKnown) {
            sb.append("card: ").append(cardFrom.startsWith(formatSize(card)) ? cardFrom
                    : formatSize(card) + " (" + cardFrom + ")").append('\n');
        } else {
            sb.append("card: unknown (").append(cardFrom).append("); the settings are ranked by peak")
              .append(" reserved, and none is said to fit: pass --device SIZE for a verdict\n");
        }
        if (recorded != null) {
            sb.append("recorded with: PYTORCH_CUDA_ALLOC_CONF=")
              .append(recorded.isEmpty() ? "(unset)" : recorded).append('\n');
        }
        if (!rules.isEmpty()) sb.append("rules: ").append(rules).append('\n');
        String start = midRunStart();
        if (start != null) sb.append("start: ").append(start).append('\n');
        if (holders != null) {
            sb.append(holders.text(SITES_SHOWN, false));
        }
        int w = "setting".length();
        for (Outcome o : outcomes) w = Math.max(w, o.setting().name().length());
        boolean marked = StartPeak.some(outcomes);      // a marked peak gets its mark in one more column
        String format = "%-" + w + "s " + (marked ? "%15s" : "%14s") + " %22s %5s  %s\n";
        sb.append('\n').append(String.format(format, "setting", marked ? "peak reserved " : "peak reserved",
                "holes at the peak", "OOMs", "first OOM"));
        for (Outcome o : outcomes) sb.append(row(o, format, marked));
        String footnote = StartPeak.footnote(outcomes);
        if (footnote != null) sb.append(footnote).append('\n');
        if (outcomes.get(0).whatIf() != null) sb.append(verdicts(w));
        sb.append('\n').append(recommendation());
        return sb.toString();
    }

    /** Each row's verdict with its margin, and which placement rule ran (what replay prints). */
    private String verdicts(int w) {
        StringBuilder sb = new StringBuilder("\n");
        if (!cardKnown) {
            sb.append("ranked by peak reserved (the card is unknown):\n");
            List<Outcome> ranked = new java.util.ArrayList<>(outcomes);
            ranked.sort(java.util.Comparator.comparingLong(Outcome::peakReserved));
            for (Outcome o : ranked) {
                sb.append(String.format("  %-" + w + "s %s%n", o.setting().name(), formatSize(o.peakReserved())
                        + (peakAtStartMarked(o) ? StartPeak.MARK : "")));
            }
            return sb.toString();
        }
        sb.append("verdict on ").append(formatSize(card)).append(":\n");
        for (Outcome o : outcomes) {
            sb.append(String.format("  %-" + w + "s %s%n", o.setting().name(), o.whatIf().verdict()));
        }
        sb.append("  (placement: a row with the recording's own settings is the recording, at the recorded")
          .append(" addresses; the others at the simulated driver's; near the edge both rules run and")
          .append(" the verdict gives the range)\n");
        String fraction = fractionNote();
        if (fraction != null) sb.append("  (").append(fraction).append(")\n");
        return sb.toString();
    }

    /**
     * For a snapshot on a known card, what a row under a memory fraction rests on
     * ({@link WhatIf#fractionNote}), or null when no row sets one.
     */
    public String fractionNote() {
        if (!cardKnown) return null;
        for (Outcome o : outcomes) {
            String fraction = o.whatIf() == null ? null : WhatIf.fractionNote(o.whatIf().main());
            if (fraction != null) return fraction;
        }
        return null;
    }

    /**
     * A row's peak reserved with its mark ({@link #peakAtStartMarked}); when {@code marked} (some
     * row is), an unmarked row gets a space in its place, so the column stays aligned.
     */
    private String peak(Outcome o, boolean marked) {
        return formatSize(o.peakReserved()) + (peakAtStartMarked(o) ? StartPeak.MARK : marked ? " " : "");
    }

    private String row(Outcome o, String format, boolean marked) {
        long holes = o.fragmentationAtPeak();
        String shown = formatSize(holes) + " (" + percent(holes, o.peakReserved()) + ")";
        String first = o.firstOom() == null || !cardKnown ? "-" : "step " + o.firstOomStep() + ", "
                + position(o) + ": alloc " + formatSize(o.firstOom().size());
        return String.format(format, o.setting().name(), peak(o, marked), shown,
                cardKnown ? String.valueOf(o.ooms()) : "?", first);
    }

    private String position(Outcome o) {
        long line = o.firstOom().line();
        return line == 0 ? "before the recorded history" : where + " " + line;
    }

    /** A setting inside a sentence: the first row's label, "as recorded", reads as "the recorded settings". */
    private static String called(Setting s) {
        String recorded = "as recorded";
        return s.asRecorded() && s.name().startsWith(recorded)
                ? "the recorded settings" + s.name().substring(recorded.length()) : s.name();
    }

    /** The recommendation that ends {@link #text()}: the setting, and the exact lines that set it. */
    public String recommendation() {
        Outcome d = outcomes.get(0), b = best();
        String base = d.setting().asRecorded() ? "the recorded settings" : "the defaults";
        StringBuilder sb = new StringBuilder("Recommendation: ");
        if (cardKnown && outcomes.stream().allMatch(o -> o.whatIf() != null && !o.whatIf().startFits())) {
            sb.append("none from this replay: the state the recorded history starts from (the snapshot's")
              .append(" segments, with what they held cached) does not fit on ").append(formatSize(card))
              .append(" under any setting, so no row replays this run and their OOM counts say nothing about it.")
              .append(" Compare the settings on a card that state fits (a larger --device), or ")
              .append(StartPeak.recordFromStart(writtenBy2_0)).append(".\n");
            return sb.toString();
        }
        if (outcomes.stream().allMatch(o -> o.whatIf() != null && o.whatIf().main().peakAtStart())) {
            var start = d.whatIf().main();
            sb.append("none from this replay: under every setting the peak is the state the recorded history")
              .append(" starts from (the snapshot's segments, ").append(formatSize(start.replayedPeak()))
              .append(" reserved), ").append(start.steps() == 0 ? "and it records no step after that state"
                      : "and its " + start.steps() + (start.steps() == 1 ? " step never reserves" : " steps never reserve")
                      + " more")
              .append(", so this snapshot cannot tell the settings apart. To compare them, ")
              .append(StartPeak.recordFromStart(writtenBy2_0)).append(".\n");
            return sb.toString();
        }
        if (cardKnown && !fits(b)) {
            sb.append("no setting makes this workload fit on ").append(formatSize(card))
              .append("; the fewest OOMs (").append(b.ooms()).append(") come with ")
              .append(called(b.setting())).append(". None of these allocator settings saves it: shrink the ")
              .append("workload or use a larger card.\n");
            return sb.toString();
        }
        if (b == d && peakAtStartMarked(d)) {
            sb.append(StartPeak.keepCaveat(outcomes, base, writtenBy2_0));
            return sb.toString();
        }
        boolean unset = unsetsRecorded(d, b);
        if ((b == d || line().isEmpty()) && !unset) {
            sb.append("keep ").append(base).append(": no setting replays this workload with fewer OOMs, or ")
              .append("with more than ").append(SAME_PEAK_PERCENT).append("% (and ")
              .append(formatSize(SAME_PEAK_BYTES)).append(") less reserved at the peak.\n");
            return sb.toString();
        }
        String chosen = unset ? "the defaults" : b.setting().name();
        String s = unset ? "" : "s";                 // "the defaults peak", "expandable_segments:True peaks"
        if (cardKnown && !fits(d)) {
            sb.append(chosen).append(" replay").append(s).append(" the whole workload without an OOM ")
              .append("(").append(base).append(": ").append(d.ooms()).append(d.ooms() == 1 ? " OOM" : " OOMs")
              .append(")");
        } else {
            sb.append(chosen).append(" peak").append(s).append(" at ").append(formatSize(b.peakReserved()))
              .append(" reserved, ").append(formatSize(d.peakReserved() - b.peakReserved()))
              .append(" less than ").append(base);
            if (!cardKnown) sb.append(" (the card is unknown: whether either fits is not said)");
        }
        sb.append(StartPeak.chosenCaveat(outcomes, b, base));
        if (unset) {
            sb.append(". Start the process without the recorded ").append(d.setting().conf())
              .append(":\n  unset PYTORCH_CUDA_ALLOC_CONF PYTORCH_ALLOC_CONF\n");
        } else {
            sb.append(". Set, before the process starts:\n  ").append(line()).append('\n')
              .append(NEWER_NAME.replace("%s", b.setting().conf())).append('\n');
            if (writtenBy2_0 && b.setting().conf().contains("expandable_segments")) {
                sb.append("  (this snapshot's layout is PyTorch 2.0's, and ").append(RecordingCalls.EXPANDABLE_SINCE_2_1)
                  .append(": upgrade to 2.1 or later first)\n");
            }
        }
        if (!b.setting().code().isEmpty()) {
            sb.append("and in the code, before its first CUDA allocation:\n  ").append(b.setting().code()).append('\n');
        }
        String extra = b.setting().extra();
        if (!extra.isEmpty()) sb.append("  (").append(extra).append(")\n");
        return sb.toString();
    }

    /**
     * Whether {@code best} is the defaults' row while the run was recorded with settings of its
     * own: then the advice is to drop them, which no {@code PYTORCH_CUDA_ALLOC_CONF=} line says,
     * so the recommendation calls the row "the defaults" and ends with an {@code unset} line.
     */
    private static boolean unsetsRecorded(Outcome recordedRow, Outcome best) {
        return recordedRow.setting().asRecorded() && !recordedRow.setting().conf().isEmpty()
                && !best.setting().asRecorded() && best.setting().conf().isEmpty()
                && best.setting().code().isEmpty();
    }

    private static String percent(long part, long whole) {
        if (whole <= 0) return "0.0%";
        long tenths = Math.round(part * 1000.0 / whole);
        return String.format("%d.%d%%", tenths / 10, tenths % 10);
    }
}
