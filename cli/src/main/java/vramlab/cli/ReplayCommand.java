package vramlab.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchRelease;
import vramlab.driver.Gpu;
import vramlab.replay.CsvListener;
import vramlab.replay.MapSummary;
import vramlab.replay.Policies;
import vramlab.replay.Replayer;
import vramlab.replay.SnapshotRelease;
import vramlab.replay.SnapshotReplay;
import vramlab.replay.SnapshotSummary;
import vramlab.replay.SummaryListener;
import vramlab.replay.RunPage;
import vramlab.replay.Timeline;
import vramlab.replay.WhatIf;
import vramlab.replay.WhoHolds;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotInput;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;
import vramlab.trace.ReadAhead;
import vramlab.triage.SnapshotTriage;
import vramlab.trace.TraceException;
import vramlab.trace.TraceReader;
import vramlab.units.Bytes;

/** {@code vramlab replay}: a trace through a chosen allocator policy (CONTRACTS.md, "Replay"). */
@CommandLine.Command(name = "replay", mixinStandardHelpOptions = true,
        header = "replay a trace file or a PyTorch memory snapshot through a chosen allocator",
        description = """
                Replays a trace or a PyTorch memory snapshot through a caching allocator and prints \
                peak and final counters, each OOM with its message, memory_summary and a segment map \
                (or, with --csv, one row per event).""",
        footer = """

                A snapshot replays the recorded run: from the state the allocator held when its
                history began (rebuilt from the snapshot's segments when the history starts mid-run),
                every entry in order, and it says whether it ends with the snapshot's own segments.
                A snapshot dumped after the workload never sees an OOM (the error ends the
                script first).
                """ + SnapshotTriage.RECIPE + """
                then ask: would another --alloc-conf have saved this run? (vramlab advise FILE)

                An OOM inside the trace is a result, not a failure (exit 0). Bad traces exit 2 with
                error: FILE:LINE: what was wrong. A snapshot is read whole: one that unzips to more
                than 256 MiB is refused unread (a gzip file after counting, never held); raise the
                limit with --max-input SIZE, up to 1 GiB.""")
final class ReplayCommand implements Command {
    @Option(names = "--policy", paramLabel = "toy|pytorch", description = """
            toy: the simplified policy chapter 3 starts from (the default for traces); pytorch: \
            PyTorch's native caching allocator (CUDACachingAllocator.cpp; the default for snapshots)""")
    String policyName;

    @Option(names = "--alloc-conf", paramLabel = "CONF", description = """
            a PYTORCH_CUDA_ALLOC_CONF string for --policy pytorch, e.g. \
            expandable_segments:True,max_split_size_mb:128; a snapshot replays under its recorded \
            allocator_settings unless given one""")
    String conf;

    @Option(names = "--pytorch-version", paramLabel = "X.Y", description = """
            the PyTorch release whose rules --policy pytorch follows where releases differ (the \
            config parser, the OOM message's hint, a memory fraction of 1.0): 2.9 or 2.10; default \
            2.9, or what a snapshot's recorded fields imply""")
    String pytorchVersion;

    @Option(names = "--memory-fraction", paramLabel = "F", description = """
            for --policy pytorch: what torch.cuda.set_per_process_memory_fraction(F) called before \
            the first allocation does, a limit of F times the card (0 to 1; under 2.10, 1 is no \
            limit); it replaces a per_process_memory_fraction key in --alloc-conf, as the call \
            does. 2.9's parser has no such key: this is how 2.9 sets a fraction""")
    String memoryFraction;

    @Option(names = "--device", paramLabel = "SIZE", converter = SizeConverter.Card.class, description = """
            the memory PyTorch's allocator can have on the card, its share: the card's total less \
            the CUDA context and other processes (an oom entry's reserved plus device_free is that \
            share), not the card's total as CUDA reports it (torch.cuda.mem_get_info()[1]), which is \
            what triage's --device takes; at most 4TiB, and under expandable_segments:True past about \
            3TiB the kit's address space can run out, which the replay says (traces: default 80GiB; \
            snapshots: inferred from an oom entry, else 80GiB)""")
    Long device;

    @Option(names = "--device-index", paramLabel = "N",
            description = "a snapshot's device to replay (default: every device, one summary each)")
    Integer deviceIndex;

    @Option(names = "--csv", description = "one row per event: " + CsvListener.HEADER)
    boolean csv;

    @Option(names = "--map", description = "the summary's segment map draws every segment and block (a trace's"
            + " map is compact beyond " + MapSummary.FULL_MAP_LIMIT + " segments or " + MapSummary.FULL_MAP_BLOCKS
            + " blocks: the largest, fill and free-size histograms, fragmentation)")
    boolean map;

    @Option(names = "--export", paramLabel = "SNAPSHOT", description = """
            write the final state and the whole history as a pickle that pytorch.org/memory_viz \
            and torch.cuda._memory_viz open""")
    String export;

    @Option(names = "--at", paramLabel = "peak|oom|ENTRY", description = """
            for a snapshot: who holds the memory at the replay's peak, its first OOM, or a trace \
            entry: live bytes by allocation site (the first Python frame outside torch), largest \
            first, and the largest free block of each pool""")
    String at;

    @Option(names = "--stacks", description = "with --at: each site's Python stack")
    boolean stacks;

    @Option(names = "--html", paramLabel = "PAGE", description = """
            for a snapshot: also write one offline HTML page (inline SVG, no script): reserved and \
            allocated over the run, the card line, each OOM, and who holds the memory at the peak""")
    String html;

    @Option(names = "--json", description = """
            for a snapshot: one JSON object per device (settings, placement, card, peak, OOMs, \
            verdict and margin, and --at's who-holds table)""")
    boolean json;

    @CommandLine.Mixin
    InputLimitOption input = new InputLimitOption();     // a snapshot only: a trace streams

    @Parameters(paramLabel = "FILE", arity = "1", description = """
            a trace (alloc H SIZE / free H / empty_cache), a PyTorch snapshot \
            (torch.cuda.memory._dump_snapshot pickle, the dict as JSON, or the segment list of \
            torch.cuda.memory_snapshot()), gzipped or not, or - for standard input""")
    String file;

    @Override
    public String expected() { return "expected one trace FILE (or -)"; }

    /** FILE as errors and output name it: {@code <stdin>} for {@code -} ({@link TraceReader#STANDARD_INPUT}). */
    private String name() { return TraceReader.nameOf(file); }

    /**
     * {@code replay ...} read without picocli, whose start (about a tenth of a second: its
     * classes, built for Java 5, are loaded and verified on every run and cannot be archived)
     * would be most of a short replay's. It takes only the plain forms: the options above as
     * {@code --name value} or {@code --name=value}, each value a valid one not starting with
     * {@code -} or {@code @}, and one FILE (or {@code -}); the last of a repeated option wins,
     * as picocli is set to do. Anything else (help, {@code --}, an {@code @}-file, an unknown
     * option, a bad size, no FILE or two) returns null and goes to picocli, which parses it or
     * says what is wrong. {@code ReplayFastPathTest} checks that both read each command line
     * it takes alike.
     */
    static ReplayCommand parsePlain(String[] args) {
        if (args.length < 2 || !args[0].equals("replay")) return null;
        ReplayCommand c = new ReplayCommand();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("@")) return null;
            if (!arg.startsWith("-") || arg.equals("-")) {
                if (c.file != null) return null;
                c.file = arg;
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (name.equals("--csv") || name.equals("--map")) {
                if (eq >= 0) return null;
                if (name.equals("--csv")) c.csv = true;
                else c.map = true;
                continue;
            }
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else {
                if (++i == args.length) return null;
                value = args[i];
            }
            if (value.isEmpty() || value.startsWith("-") || value.startsWith("@")) return null;
            switch (name) {
                case "--policy" -> c.policyName = value;
                case "--alloc-conf" -> c.conf = value;
                case "--pytorch-version" -> c.pytorchVersion = value;
                case "--memory-fraction" -> c.memoryFraction = value;     // checked in run(), as picocli's
                case "--export" -> c.export = value;
                case "--device" -> {
                    try {
                        c.device = new SizeConverter.Card().convert(value);
                    } catch (CommandLine.TypeConversionException e) {
                        return null;
                    }
                }
                case "--max-input" -> {
                    try {
                        c.input.maxInput = new InputLimitOption.Converter().convert(value);
                    } catch (CommandLine.TypeConversionException e) {
                        return null;
                    }
                }
                case "--device-index" -> {
                    if (value.length() > 9 || !value.chars().allMatch(ch -> ch >= '0' && ch <= '9')) return null;
                    c.deviceIndex = Integer.parseInt(value);
                }
                default -> { return null; }
            }
        }
        return c.file == null ? null : c;
    }

    @Override
    public int run(Io io) throws IOException {
        PyTorchRelease release = release(pytorchVersion, "replay");
        Double fraction = MemoryFractionOption.parse(memoryFraction);
        if (policyName != null || conf != null) {                                            // bad options first
            checkPolicy(policyName == null ? "pytorch" : policyName, conf == null ? "" : conf, release);
        }
        if (fraction != null && "toy".equals(policyName)) MemoryFractionOption.apply(null, fraction);
        if (export != null) OutputFile.check("replay", "--export", export);    // not after the whole replay
        try (BufferedInputStream in = new BufferedInputStream(open(file, io))) {
            in.mark(64);
            byte[] head;
            try {
                head = in.readNBytes(64);
            } catch (java.util.zip.ZipException | java.io.EOFException e) {
                throw SnapshotInput.brokenGzip(name(), e);
            }
            in.reset();
            if (head.length == 0 && !file.equals("-")) {       // an empty .pickle is a failed dump, not an empty trace
                SnapshotInput.checkNotEmpty(file, Files.size(Path.of(file)) > 0);
            }
            if (SnapshotReader.isSnapshot(head)) {
                replaySnapshot(SnapshotReader.read(snapshotBytes(in), name()), io);
            } else {
                if (deviceIndex != null || at != null || json || html != null) {
                    throw DeviceIndex.notForTraces("replay", deviceIndex != null ? "--device-index"
                            : at != null ? "--at" : html != null ? "--html" : "--json");
                }
                CachingAllocator allocator = new CachingAllocator(
                        new Gpu(device == null ? Bytes.gib(80) : device).openToyProcess(),
                        MemoryFractionOption.apply(policy(policyName == null ? "toy" : policyName,
                                conf == null ? "" : conf, release == null ? PyTorchRelease.DEFAULT : release),
                                MemoryFractionOption.parse(memoryFraction)));
                if (export != null) allocator.trace().record(true, Long.MAX_VALUE);
                allocator.expectOoms(true);   // an OOM is a result here: no stack trace to fill
                replayTrace(allocator, in, io);
                export(allocator, io);
            }
        }
        io.out().flush();
        return 0;
    }

    private static Policy policy(String name, String conf, PyTorchRelease release) {
        try {
            return Policies.create(name, conf, release);
        } catch (IllegalArgumentException e) {
            throw new UsageException("replay", e.getMessage());
        }
    }

    /** {@code --pytorch-version}'s release, or null when not given; refused as {@code command}'s usage error. */
    static PyTorchRelease release(String version, String command) {
        try {
            return Policies.release(version);
        } catch (IllegalArgumentException e) {
            throw new UsageException(command, "--pytorch-version " + e.getMessage());
        }
    }

    /**
     * Checks the options before the file is read: under the release given, or, when none is (a
     * snapshot may imply another), under any release the kit models, with the default's error.
     */
    private static void checkPolicy(String name, String conf, PyTorchRelease release) {
        if (release != null) {
            policy(name, conf, release);
            return;
        }
        for (PyTorchRelease r : PyTorchRelease.values()) {
            try {
                Policies.create(name, conf, r);
                return;
            } catch (IllegalArgumentException e) {
                // try the next release
            }
        }
        policy(name, conf, PyTorchRelease.DEFAULT);
    }

    private void export(CachingAllocator allocator, Io io) {
        if (export == null) return;
        try {
            SnapshotWriter.write(allocator, Path.of(export));
        } catch (IOException e) {
            throw new UsageException(export, "cannot write the snapshot: " + e.getMessage());
        }
        if (!csv) io.out().println("snapshot written to " + export);
    }

    /**
     * A text trace streams line by line: memory grows with the live blocks, not the trace. With
     * a second core it is read a few batches ahead on another thread ({@link ReadAhead}: the
     * same events and errors, in the same order), so reading overlaps the replay.
     */
    private void replayTrace(CachingAllocator allocator, BufferedInputStream in, Io io) {
        SummaryListener summary = csv ? null : new SummaryListener(io.out(), map);
        Replayer replayer = new Replayer(allocator, csv ? new CsvListener(io.out()) : summary, name(), false);
        try (SummaryListener lines = summary) {        // closed, the OOM lines before an error are printed too
            if (Runtime.getRuntime().availableProcessors() > 1 && !isSmallFile(file)) {
                if (lines != null) lines.writeBehind();         // and its OOM lines on a third thread
                try (ReadAhead events = replayer.readAhead(in, name())) {
                    replayer.replay(events);
                }
            } else {
                replayer.replay(new TraceReader(in, name()));
            }
            if (lines != null) lines.finish(allocator);
        }
    }

    /** A file of under a megabyte (some ten thousand lines) replays sooner than a thread starts and warms up. */
    private static boolean isSmallFile(String file) {
        try {
            return !file.equals("-") && Files.size(Path.of(file)) < (1 << 20);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A snapshot replays each device chosen: under its recorded settings unless {@code --policy}
     * or {@code --alloc-conf} says otherwise, on its inferred card unless {@code --device} does.
     */
    private void replaySnapshot(Snapshot s, Io io) {
        List<Snapshot.Device> devices = devices(s);
        if (html != null && devices.size() != 1) {
            throw new UsageException("replay", s.file() + " holds devices " + DeviceIndex.indices(devices)
                    + ": choose one with --device-index N for --html");
        }
        if (html != null) HtmlPage.checkWritable("replay", html);
        if ((csv || export != null) && devices.size() > 1) {
            throw new UsageException("replay", s.file() + " holds devices " + DeviceIndex.indices(devices)
                    + ": choose one with --device-index N for " + (csv ? "--csv" : "--export"));
        }
        PyTorchRelease release = release(pytorchVersion, "replay");
        PyTorchRelease rules = SnapshotRelease.of(s, release).release();
        Policy given = policyName == null && conf == null ? null
                : policy(policyName == null ? "pytorch" : policyName, conf == null ? "" : conf, rules);
        Double fraction = MemoryFractionOption.parse(memoryFraction);
        long card = device == null ? -1 : device;
        if (json && csv) throw new UsageException("replay", "--json and --csv: choose one");
        for (Snapshot.Device d : devices) atEntry(d);     // a bad --at before any output or replay
        if (!csv && !json) {
            io.out().println("snapshot: " + s.file());
            io.out().println("layout:   " + s.layout());
            if (devices.isEmpty()) io.out().println("no device has segments or a history: nothing to replay");
            for (Snapshot.Device d : devices) {
                String skipped = d.skippedActions();
                if (skipped != null) io.out().println("skipped:  device " + d.index() + ": " + skipped);
            }
        }
        List<Object> reports = new ArrayList<>();
        for (Snapshot.Device d : devices) {
            // --memory-fraction alone: the recorded settings (this device's) under the limit
            Policy policy = MemoryFractionOption.apply(given == null && fraction != null
                    ? SnapshotReplay.recordingPolicy(s, d, rules) : given, fraction);
            SnapshotReplay.Options options = new SnapshotReplay.Options(policy, card, null, release);
            Replayer.Listener listener = csv ? new CsvListener(io.out())
                    : (step, e, result, bytes, al) -> { };
            Timeline timeline = html == null ? null : new Timeline();
            if (timeline != null) listener = Timeline.both(listener, timeline);
            WhatIf w = WhatIf.run(s, d, options, listener, export != null);
            if (timeline != null) {
                String name = (given == null ? "as recorded" : conf == null ? policyName : conf)
                        + (fraction == null ? "" : " + set_per_process_memory_fraction(" + fraction + ")");
                HtmlPage.write("replay", html, RunPage.html(s.file() + ", device " + d.index(),
                        w.cardKnown() ? w.main().cardAvailable() : -1,
                        List.of(new RunPage.Row(name, timeline, w.verdict())), WhoHolds.atPeak(s, d, options, w.main())));
            }
            WhoHolds holds = at == null ? null : whoHolds(s, d, options, w.main());
            if (json) {
                Map<String, Object> o = w.map();
                o.put("at", holds == null ? null : holds.map());
                reports.add(o);
            } else if (!csv) {
                SnapshotSummary.print(w, io.out());
                if (holds != null) io.out().print(holds.text(holds.sites().size(), stacks));
                else if (at != null) io.out().println("  (no OOM in this replay: nothing to show at 'oom')");
            }
            export(w.main().allocator(), io);
        }
        if (json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("snapshot", s.file());
            root.put("layout", s.layout());
            root.put("devices", reports);
            io.out().println(vramlab.triage.Json.write(root));
        }
    }

    /** --at: the peak, the first OOM (null when none), or a trace entry. */
    private WhoHolds whoHolds(Snapshot s, Snapshot.Device d, SnapshotReplay.Options o, SnapshotReplay.Report r) {
        switch (at) {
            case "peak" -> { return WhoHolds.atPeak(s, d, o, r); }
            case "oom" -> { return WhoHolds.atFirstOom(s, d, o, r); }
            default -> {
                int n = atEntry(d);
                return WhoHolds.at(s, d, o, n, false, "trace entry " + n);
            }
        }
    }

    /**
     * {@code --at}'s trace entry on {@code d}, or -1 for {@code peak}, {@code oom} or none; a word
     * that is none of them, or an entry {@code d} does not have, is a usage error. Checked for every
     * device before anything prints: it was found after the whole replay, below the lines the
     * report had already printed, so a bad --at left a partial report on standard output.
     */
    private int atEntry(Snapshot.Device d) {
        if (at == null || at.equals("peak") || at.equals("oom")) return -1;
        int n;
        try {
            n = Integer.parseInt(at);
        } catch (NumberFormatException e) {
            throw new UsageException("replay", "--at '" + at + "': expected peak, oom or a trace entry number");
        }
        if (n < 0 || n > d.trace().size()) {
            throw new UsageException("replay", "--at " + n + ": device " + d.index() + " has trace entries 1 to "
                    + d.trace().size() + " (0: before the history)");
        }
        return n;
    }

    private List<Snapshot.Device> devices(Snapshot s) {
        return deviceIndex == null ? s.devices() : List.of(DeviceIndex.of(s, deviceIndex, "replay"));
    }

    /**
     * A snapshot's bytes, capped at {@code --max-input} ({@link SnapshotInput}): a file is read again from its start,
     * so that a gzip one is counted before it is unzipped into memory; standard input, which
     * cannot be read twice, is read from the unzipped stream up to the cap.
     */
    private byte[] snapshotBytes(InputStream unzipped) throws IOException {
        if (file.equals("-") || !Files.isRegularFile(Path.of(file))) {   // a pipe cannot be read twice
            return SnapshotInput.readAll(unzipped, name(), input.limit());
        }
        try (InputStream raw = Files.newInputStream(Path.of(file))) {
            return SnapshotInput.readAll(raw, file, input.limit());
        }
    }

    /** The file (or standard input), unzipped when it starts with gzip's magic bytes. */
    private static InputStream open(String file, Io io) throws IOException {
        InputStream raw;
        boolean gzip;
        try {
            raw = new BufferedInputStream(file.equals("-") ? io.in() : openFile(Path.of(file)));
            raw.mark(2);
            gzip = raw.read() == 0x1f && raw.read() == 0x8b;      // a folder opens, and fails here
            raw.reset();
        } catch (NoSuchFileException e) {
            throw new UsageException(file, "no such file");
        } catch (IOException e) {
            throw SnapshotInput.unreadable(TraceReader.nameOf(file), e);   // as advise and triage say it
        }
        if (!gzip) return raw;
        try {
            return new GZIPInputStream(raw);
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw SnapshotInput.brokenGzip(TraceReader.nameOf(file), e);
        }
    }

    /**
     * A regular file through its channel; anything else that opens (a pipe: {@code /dev/stdin},
     * a named pipe, bash's {@code <(zcat run.gz)}) as a plain {@link java.io.FileInputStream}.
     * A channel's stream answers {@code available()} from the channel's size and position,
     * which a pipe refuses ("Illegal seek"), and {@link BufferedInputStream} asks it on every
     * read.
     */
    private static InputStream openFile(Path path) throws IOException {
        if (Files.isRegularFile(path) || Files.isDirectory(path) || !Files.exists(path)) {
            return Files.newInputStream(path);          // a folder and a missing file fail as before
        }
        return new java.io.FileInputStream(path.toFile());
    }
}
