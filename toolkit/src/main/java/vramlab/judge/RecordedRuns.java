package vramlab.judge;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

import vramlab.contest.Contestant;
import vramlab.lab.Todo;
import vramlab.trace.TraceEvent;
import vramlab.workload.Workload;

/**
 * The reference entries' runs, recorded where the reference cores are (the instructor's copy,
 * when it writes a student release) and read back where they are not. In a student's copy the
 * kit's entries are built from the student's own cores (chapter 3's allocator, chapter 6's
 * buddy), so a row run there is the student's code, not PyTorch's; a recorded row is the
 * reference's, and the contest says which rows are which.
 *
 * <p>A recorded run is found by its entry, its workload's name and card, and a SHA-256 of the
 * workload's events: a workload generated differently (another seed, another version of the
 * generator) finds none and runs live. Every figure is kept exactly (the driver cost as Java
 * writes a {@code double}); only the host time per event is the recording machine's, measured,
 * different on every run. A student release keeps none ({@link #withoutHostTime}: its
 * {@code host_nanos} cells are empty), so that two releases of one commit are the same bytes, and
 * the contest shows "-" for a recorded row's host time rather than another machine's clock.
 */
public final class RecordedRuns {
    /** Where a student release keeps them, relative to its root. */
    public static final String IN_RELEASE = "contest/reference-runs.csv";

    private static final String[] HEADER = {"entry", "workload", "seed", "card", "events_sha256", "events", "fit",
            "oom_step", "oom", "peak_reserved", "peak_requested", "driver_calls", "driver_micros", "host_nanos",
            "curve", "requested_curve"};

    private record Key(String entry, String workload, long card, String events) {}

    private record Row(long seed, Run run) {}

    private final Map<Key, Row> runs = new HashMap<>();
    private final List<Key> order = new ArrayList<>();
    private final String origin;

    private RecordedRuns(String origin) { this.origin = origin; }

    /** Where these runs were recorded, one phrase ("by ./vramlab release of commit 0da7a9b of 2026-12-05, on the reference cores"). */
    public String origin() { return origin; }

    /** How many runs are recorded. */
    public int size() { return runs.size(); }

    /**
     * Runs every entry on every workload of {@code seed}'s set, on this JVM's cores.
     *
     * @throws IllegalStateException when an entry breaks a check or needs a step not written: not a reference
     */
    public static RecordedRuns record(List<Contestant> entries, List<Workload> workloads, long seed, String origin) {
        RecordedRuns r = new RecordedRuns(origin);
        for (Contestant c : entries) {
            for (Workload w : workloads) {
                Run run;
                try {
                    run = Judge.run(c, w);
                } catch (Todo t) {
                    throw new IllegalStateException("cannot record " + c.name() + ": these are not the reference cores ("
                            + t.getMessage() + ")", t);
                }
                if (run.broken() != null) {
                    throw new IllegalStateException("cannot record " + c.name() + " on " + w.name() + ": it broke a check: "
                            + run.broken().toString().lines().findFirst().orElse(""));
                }
                r.put(new Key(c.name(), w.name(), w.card(), sha256(w)), new Row(seed, run));
            }
        }
        return r;
    }

    /** Runs already made ({@code runs.get(i)} of {@code workloads.get(i)}), kept as they are, broken checks aside. */
    public static RecordedRuns of(List<Run> runs, List<Workload> workloads, long seed, String origin) {
        RecordedRuns r = new RecordedRuns(origin);
        for (int i = 0; i < runs.size(); i++) {
            Workload w = workloads.get(i);
            r.put(new Key(runs.get(i).entry(), w.name(), w.card(), sha256(w)), new Row(seed, runs.get(i)));
        }
        return r;
    }

    /** These runs with their host time left out: what a release ships (the same bytes on every recording). */
    public RecordedRuns withoutHostTime() {
        RecordedRuns r = new RecordedRuns(origin);
        for (Key k : order) {
            Row row = runs.get(k);
            r.put(k, new Row(row.seed(), row.run().withoutHostTime()));
        }
        return r;
    }

    /** Whether any run keeps its host time (a release's recording keeps none). */
    public boolean hostTimeMeasured() {
        return runs.values().stream().anyMatch(row -> row.run().hostTimeMeasured());
    }

    /** {@code entry}'s recorded run of {@code w}, or null when none was recorded for this very workload. */
    public Run find(String entry, Workload w) {
        Row row = runs.get(new Key(entry, w.name(), w.card(), sha256(w)));
        return row == null ? null : row.run();
    }

    /** As CSV (RFC 4180): a comment line saying where they come from, a header, a run per row. */
    public void write(Appendable out) throws IOException {
        try (CSVPrinter p = new CSVPrinter(out, CSVFormat.RFC4180.builder().setRecordSeparator('\n')
                .setCommentMarker('#').setHeader(HEADER).setHeaderComments("reference entries' runs, recorded " + origin
                        + "; read by ./vramlab contest").get())) {
            for (Key k : order) {
                Row row = runs.get(k);
                Run r = row.run();
                p.printRecord(r.entry(), r.workload(), row.seed(), r.card(), k.events(), r.events(), r.fit(), r.oomStep(),
                        r.oom(), r.peakReserved(), r.peakRequested(), r.driverCalls(), Double.toString(r.driverMicros()),
                        r.hostTimeMeasured() ? Long.toString(r.hostNanos()) : "", join(r.curve()), join(r.requestedCurve()));
            }
        }
    }

    /**
     * Reads what {@link #write} wrote.
     *
     * @param where the file's name, for errors
     * @throws IllegalArgumentException {@code where:line: what}, on a row that is not a recorded run
     */
    public static RecordedRuns read(Reader in, String where) throws IOException {
        CSVFormat f = CSVFormat.RFC4180.builder().setCommentMarker('#').setHeader().setSkipHeaderRecord(true).get();
        try (var parser = f.parse(in)) {
            String comment = parser.getHeaderComment();
            String origin = comment == null ? "(origin not given)"
                    : comment.replaceFirst("^reference entries' runs, recorded ", "").replaceFirst("; read by .*$", "");
            if (!parser.getHeaderNames().equals(List.of(HEADER))) {
                throw new IllegalArgumentException(where + ":1: header " + parser.getHeaderNames() + ", expected "
                        + List.of(HEADER));
            }
            RecordedRuns r = new RecordedRuns(origin);
            for (CSVRecord rec : parser) {
                String at = where + ":" + rec.getParser().getCurrentLineNumber();
                if (!rec.isConsistent()) {
                    throw new IllegalArgumentException(at + ": " + rec.size() + " fields, expected " + HEADER.length);
                }
                try {
                    Run run = new Run(rec.get("entry"), rec.get("workload"), Long.parseLong(rec.get("card")),
                            Long.parseLong(rec.get("events")), bool(rec.get("fit")), Long.parseLong(rec.get("oom_step")),
                            rec.get("oom"), null, Long.parseLong(rec.get("peak_reserved")),
                            Long.parseLong(rec.get("peak_requested")), Long.parseLong(rec.get("driver_calls")),
                            Double.parseDouble(rec.get("driver_micros")), hostNanos(rec.get("host_nanos")),
                            longs(rec.get("curve")), longs(rec.get("requested_curve")));
                    r.put(new Key(run.entry(), run.workload(), run.card(), rec.get("events_sha256")),
                            new Row(Long.parseLong(rec.get("seed")), run));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(at + ": " + e.getMessage() + ", expected a number");
                }
            }
            return r;
        }
    }

    private void put(Key k, Row row) {
        if (runs.put(k, row) == null) order.add(k);
    }

    /** A {@code host_nanos} cell: empty when the recording left the host time out. */
    private static long hostNanos(String s) {
        if (s.isEmpty()) return Run.NOT_MEASURED;
        long n = Long.parseLong(s);
        if (n < 0) throw new NumberFormatException("host_nanos '" + s + "' (nanoseconds, 0 or more, or empty when not recorded)");
        return n;
    }

    private static boolean bool(String s) {
        if (s.equals("true") || s.equals("false")) return Boolean.parseBoolean(s);
        throw new NumberFormatException("fit '" + s + "' (true or false)");
    }

    private static String join(long[] xs) {
        StringBuilder sb = new StringBuilder();
        for (long x : xs) sb.append(sb.length() == 0 ? "" : " ").append(x);
        return sb.toString();
    }

    private static long[] longs(String s) {
        if (s.isBlank()) return new long[0];
        String[] parts = s.trim().split(" ");
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) out[i] = Long.parseLong(parts[i]);
        return out;
    }

    /** A SHA-256 of the workload's events, as hex: what a recorded run must have been run on. */
    static String sha256(Workload w) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (TraceEvent e : w.events()) {
                d.update((e.op() + " " + e.handle() + " " + e.size() + " " + e.stream() + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override public String toString() { return String.format(Locale.ROOT, "%d runs recorded %s", size(), origin); }
}
