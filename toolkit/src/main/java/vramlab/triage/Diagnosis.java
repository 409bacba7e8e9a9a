package vramlab.triage;

import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of a triage: the cause a fix must remove, the reading it was drawn from, the
 * sentences that led there (in the ladder's order), every cause weighed against the shortfall
 * (the decided one first), the runner-up and how to tell the two apart, and the cause's fix
 * ladder.
 *
 * @param shortfall  bytes the request lacked (requested minus free); -1 when unknown
 * @param assumption what the report assumed about contexts and the driver's reserve
 * @param selfSeenAs the pid of a "Process P" line that is this process seen from a container,
 *                   or -1
 * @param finding    the narrower story inside the cause where the card itself was not short
 *                   (a memory fraction, free memory that could not be used); null when none
 */
public record Diagnosis(Cause cause, Reading reading, List<String> evidence, List<Candidate> ranked,
                        Cause runnerUp, String tellApart, long shortfall, String assumption,
                        int selfSeenAs, Finding finding) {

    public Diagnosis {
        evidence = List.copyOf(evidence);
        ranked = List.copyOf(ranked);
    }

    /** The same diagnosis with another way to tell the cause from its runner-up. */
    Diagnosis withTellApart(String text) {
        return new Diagnosis(cause, reading, evidence, ranked, runnerUp, text, shortfall, assumption,
                selfSeenAs, finding);
    }

    /**
     * The finding's fix ladder where there is one, else the cause's (fragmentation's and the full
     * card's in the order the message's figures give them, {@link FixLadder#fragmentationFixes},
     * {@link FixLadder#fullCardFixes}), as the release that printed
     * the message can follow it ({@link Release}); for a ROCm message, with the
     * allocator's variable as a ROCm build reads it ({@link Rocm}); for a snapshot, worded for
     * the figures it holds, not a message's ({@link SnapshotTriage#fixes}).
     */
    public List<String> fixes() {
        List<Fix> ladder = finding != null && finding.hasOwnFixes() ? finding.fixEntries()
                : cause == Cause.FRAGMENTATION ? FixLadder.fragmentationFixes(reading)
                : cause == Cause.FULL_OR_DRIVER_RESERVE ? FixLadder.fullCardFixes(reading) : cause.fixEntries();
        List<Fix> entries = Release.fixes(reading, ladder);
        if (reading.family() == Family.SNAPSHOT) entries = SnapshotTriage.fixes(entries, reading);
        return Rocm.fixes(reading, entries);
    }

    /**
     * "Most likely cause: NAME (ladder step N of 6)": the finding's name where there is one,
     * with the cause it is filed under, so the headline never says "the card is full" of a card
     * that had room.
     */
    private void headline(StringBuilder sb, boolean withTitle) {
        sb.append("Most likely cause: ").append(finding != null ? finding.name() : cause.name());
        if (cause.step() > 0) {
            sb.append(" (ladder step ").append(cause.step()).append(" of 6");
            if (finding != null) sb.append(", filed under ").append(cause.name());
            sb.append(')');
        }
        if (withTitle) sb.append(": ").append(finding != null ? finding.title(shortfall > 0) : cause.title());
        sb.append('\n');
    }

    /** The human report {@code vramlab triage} prints. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("Format: ").append(reading.family().description()).append('\n');
        if (!reading.source().isEmpty()) sb.append("Printed by: ").append(reading.source()).append('\n');
        numbers(sb);
        sb.append('\n');
        headline(sb, true);
        if (runnerUp != null) sb.append("Runner-up: ").append(runnerUp.name()).append('\n');
        if (!tellApart.isEmpty()) sb.append(tellApart).append('\n');
        ranking(sb);
        sb.append("\nWhy, in the ladder's order:\n");
        evidence.forEach(e -> sb.append("  - ").append(e).append('\n'));
        sb.append("\nFix ladder, cheapest first:\n");
        for (int i = 0; i < fixes().size(); i++) {
            sb.append("  ").append(i + 1).append(". ").append(fixes().get(i)).append('\n');
        }
        if (!reading.notes().isEmpty() || !assumption.isEmpty()) {
            sb.append(reading.family() == Family.SNAPSHOT ? "\nAbout the snapshot:\n" : "\nAbout the message:\n");
            reading.notes().forEach(n -> sb.append("  - ").append(n).append('\n'));
            if (!assumption.isEmpty()) sb.append("  - ").append(assumption).append('\n');
        }
        return sb.toString();
    }

    /** The cause, the runner-up, the ranking and the ladder's sentences, without figures or fixes. */
    public String brief() {
        StringBuilder sb = new StringBuilder();
        headline(sb, false);
        if (runnerUp != null) sb.append("Runner-up: ").append(runnerUp.name()).append('\n');
        ranking(sb);
        sb.append("\nWhy, in the ladder's order:\n");
        evidence.forEach(e -> sb.append("  - ").append(e).append('\n'));
        if (!tellApart.isEmpty()) sb.append('\n').append(tellApart).append('\n');
        return sb.toString();
    }

    /**
     * A figure as the report shows it: as read, except "other processes", the sum of the
     * "Process P" lines, which leaves out the line found to be this process (a container's pid,
     * {@link #selfSeenAs}): the report marks that line "(this process)" and the ladder counts it
     * as this process, so the figure above it must not count it as someone else's.
     */
    private long shown(Figure f) {
        long v = reading.get(f);
        if (f == Figure.OTHER_PROCESSES && selfSeenAs >= 0) v -= reading.processes().getOrDefault(selfSeenAs, 0L);
        return v;
    }

    private void numbers(StringBuilder sb) {
        sb.append("\nNumbers found:\n");
        boolean any = false;
        for (Figure f : Figure.values()) {
            if (!reading.has(f)) continue;
            any = true;
            long v = shown(f);
            String shown = f.isBytes() ? formatSize(v) + " (" + v + " bytes)" : String.valueOf(v);
            String computed = computed(f);
            if (computed != null) shown = computed;
            sb.append(String.format("  %-45s %s\n", f.label(), shown));
        }
        reading.processes().forEach((pid, bytes) -> sb.append(String.format("  %-45s %s\n",
                "  process " + pid + (pid == selfSeenAs ? " (this process)" : ""),
                formatSize(bytes))));
        if (!any) sb.append("  none\n");
        if (!reading.missing().isEmpty()) {
            sb.append("  missing: ").append(String.join(", ", reading.missing())).append('\n');
        }
    }

    /**
     * A figure the message does not print but the parser computed from two it does, as precise
     * as they are ({@link Rounded}): 1.4 to 2.0's unallocated bytes (reserved minus allocated),
     * and the reserved bytes of the other wordings (allocated plus unallocated); null otherwise.
     */
    private String computed(Figure f) {
        Account a = Account.of(reading);
        Rounded r = f == Figure.RESERVED_BUT_UNALLOCATED ? a.unallocatedR : f == Figure.RESERVED ? a.reservedR : null;
        if (r == null || r.error() <= Rounded.halfHundredth(r.value())) return null;
        return r.text() + (f == Figure.RESERVED ? " (allocated plus unallocated, each rounded)"
                : " (reserved minus allocated, each rounded)");
    }

    /**
     * What the ranking's shares are a percentage of, in bytes: the cap's excess where a memory
     * fraction's cap refused the request ({@link FractionCap#rankingBasis}), else the shortfall; -1
     * where neither is known.
     */
    long shareOf() {
        Rounded excess = FractionCap.rankingBasis(Account.of(reading), finding);
        return excess != null ? excess.value() : shortfall;
    }

    private void ranking(StringBuilder sb) {
        if (ranked.isEmpty()) return;
        String capHeader = FractionCap.rankingHeader(Account.of(reading), finding, shortfall);
        sb.append('\n').append(capHeader != null ? capHeader : "Each cause against the shortfall"
                + (shortfall > 0 ? " of " + Account.of(reading).shortfallText(shortfall) : "")).append(":\n");
        for (Candidate c : ranked) {
            boolean byWords = c.bytes() < 0 && c.share() == 100;
            String bytes = c.bytes() >= 0 ? c.bytesText() : byWords ? "(named by the paste)"
                    : "(no figure)";
            String verdict = c.verdict();
            String share = shareOf() > 0 || byWords ? c.share() + "%" : "-";
            sb.append(String.format("  %-22s %4s  %-20s %s\n", c.cause().name(), share, bytes,
                    verdict));
        }
    }

    /**
     * One JSON object: cause, numbers (bytes as longs, null when absent), evidence, fixes, and
     * the arithmetic: the shortfall, every cause ranked (cause, share of the shortfall in
     * percent, bytes, evidence), the runner-up and the check that tells them apart, and last the
     * finding ({@link Finding}'s name, or null), added after the others so that readers of the
     * earlier keys see no change; then the error of each byte figure, as {@link Rounded} weighs
     * it (PyTorch prints sizes with two decimals): {@code shortfallErrorBytes}, and
     * {@code numbersErrorBytes} with a key for each of {@code numbers} (null where the figure is
     * absent or not bytes); each row of {@code ranked} ends with its {@code errorBytes}, then
     * {@code lead}: true where that rounding alone could flip its {@code enoughAlone}; last
     * {@code shareOfBytes}, what the shares are a percentage of: the shortfall, or where a memory
     * fraction's cap refused the request (the card short too or not), the cap's excess. An
     * error is how far the truth may lie above or below the figure, in bytes; 0 when exact (a
     * snapshot's). The keys come in this order, always all of them.
     */
    public String json() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("cause", cause.name());
        o.put("step", cause.step());
        o.put("family", reading.family().name());
        o.put("backend", reading.backend());
        o.put("source", reading.source());
        Map<String, Object> numbers = new LinkedHashMap<>();
        for (Figure f : Figure.values()) numbers.put(f.key(), reading.has(f) ? shown(f) : null);
        o.put("numbers", numbers);
        List<Object> processes = new ArrayList<>();
        reading.processes().forEach((pid, bytes) -> {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("pid", (long) pid);
            p.put("bytes", bytes);
            p.put("thisProcess", pid == selfSeenAs);
            processes.add(p);
        });
        o.put("processes", processes);
        o.put("evidence", evidence);
        o.put("fixes", fixes());
        o.put("missing", reading.missing());
        o.put("notes", reading.notes());
        o.put("shortfall", shortfall >= 0 ? shortfall : null);
        List<Object> rows = new ArrayList<>();
        for (Candidate c : ranked) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("cause", c.cause().name());
            row.put("share", (long) c.share());
            row.put("bytes", c.bytes() >= 0 ? c.bytes() : null);
            row.put("enoughAlone", c.qualifies());
            row.put("evidence", c.evidence());
            row.put("errorBytes", c.bytes() >= 0 ? c.error() : null);
            row.put("lead", c.lead());
            rows.add(row);
        }
        o.put("ranked", rows);
        o.put("runnerUp", runnerUp == null ? null : runnerUp.name());
        o.put("tellApart", tellApart);
        o.put("assumption", assumption);
        o.put("finding", finding == null ? null : finding.name());
        Account a = Account.of(reading);
        o.put("shortfallErrorBytes", shortfall >= 0 ? a.shortfallR(shortfall).error() : null);
        Map<String, Object> errors = new LinkedHashMap<>();
        for (Figure f : Figure.values()) {
            long e = a.errorOf(f, reading);
            errors.put(f.key(), e >= 0 ? e : null);
        }
        o.put("numbersErrorBytes", errors);
        // what the rows' shares measure: the shortfall, or where a memory fraction's cap refused the request, its excess
        o.put("shareOfBytes", shareOf() >= 0 ? Long.valueOf(shareOf()) : null);
        return Json.write(o);
    }
}
