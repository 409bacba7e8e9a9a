package vramlab.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Option;

import vramlab.contest.Entries;
import vramlab.judge.RecordedRuns;
import vramlab.judge.Scoreboard;
import vramlab.workload.Workload;
import vramlab.workload.Workloads;

/** {@code vramlab contest}: chapter 8's malloc lab, every entry on every public workload. */
@CommandLine.Command(name = "contest", mixinStandardHelpOptions = true,
        header = "replay the public workloads through your allocator and the kit's",
        description = """
                Chapter 8's GPU malloc lab. Replays each public workload (a training step, LLM
                serving, ratcheting batches, diffusion sampling, checkpointed fine-tuning) through
                your segregated-fits entry and the reference entries (PyTorch's default,
                expandable_segments, the buddy allocator), each on a card of the workload's size,
                checking every event (aligned, size, overlap, segment, free, call, leak). Prints
                per workload whether it fit, peak reserved over peak requested, driver calls and
                their simulated cost, host time per event, and each entry's performance index, the
                entries best index first. In a student's copy, or with --mine, your entry is the one
                in your labs/, and the kit's entries are the reference's runs, recorded where the
                reference cores are (a release ships them for the public workloads); each row says
                whether it ran live or was recorded.""")
final class ContestCommand implements Command {
    @CommandLine.Mixin CoresOption cores;

    @Option(names = "--seed", paramLabel = "N", description = "the workloads' seed (default: the public set's)")
    long seed = Workloads.PUBLIC_SEED;

    @Option(names = "--workload", paramLabel = "NAME", description = """
            only this workload (repeatable): a public workload's name, or a --trace FILE by its path, \
            relative or absolute (one file, one workload), or a snapshot's by its file name without \
            .pickle, .pkl or .json""")
    List<String> only = new ArrayList<>();

    @Option(names = "--trace", paramLabel = "FILE", description = """
            a workload of your own instead of the public set (repeatable): a text trace or a PyTorch \
            memory snapshot, as replay reads them (an instructor's hidden set); a text trace's \
            workload is named by its path as given""")
    List<String> traces = new ArrayList<>();

    /**
     * The folder a relative {@code --trace} or {@code --workload} path is read from: the user's, which
     * the launcher hands to the run on a student's cores (and {@code --class}'s runs, each in its own
     * scratch folder). The paths themselves go as the user typed them, so the child names each
     * workload as the parent does: the name is the key of the reference's recorded runs, and a child
     * that saw {@code /home/ana/mine.trace} for {@code mine.trace} refused {@code --workload mine.trace}
     * and found no recording, running the kit's entries on the student's own chapter 3-6 cores.
     */
    @Option(names = "--from", paramLabel = "DIR", hidden = true,
            description = "the folder relative --trace and --workload paths are read from (default: the working folder)")
    String from;

    @Option(names = "--card", paramLabel = "SIZE", converter = SizeConverter.Card.class,
            description = "the card for --trace workloads (default 80GiB)")
    Long card;

    @Option(names = "--csv", paramLabel = "FILE", description = "also write the leaderboard as CSV")
    String csv;

    @Option(names = "--html", paramLabel = "PAGE", description = """
            also write the leaderboard as one offline HTML page: each entry's index, and per workload \
            the memory held and requested over the run (inline SVG, no script)""")
    String html;

    @Option(names = "--class", paramLabel = "SUBMISSION", arity = "1..*", description = """
            instead: a class leaderboard (instructor's copy): each submission (a student's copy, as grade \
            takes them: a folder, .zip or .tar.gz named by the student's id) runs its own entry on its own \
            cores against the reference's runs; prints each student's index, best first, and --csv / --html \
            write the leaderboard (the page draws the best entries' memory held over each workload)""")
    List<String> klass = new ArrayList<>();

    @Option(names = "--top", paramLabel = "N", description = "--class: how many of the best entries the page draws (default 3)")
    int top = 3;

    @Option(names = "--time-bound", paramLabel = "<s>", converter = PositiveConverter.class, description = """
            --class: the longest one submission's entry may run, as grade's --time-bound (default 120); one \
            that runs longer, prints more than grade's output cap or exits the JVM gets a row saying so, \
            unranked, and the others are still ranked""")
    long timeBound = 120;

    @Option(names = "--entry-runs", paramLabel = "FILE", hidden = true,
            description = "also write your entry's runs (the class leaderboard reads them for its curves)")
    String entryRuns;

    @Option(names = "--recorded", paramLabel = "FILE", hidden = true,
            description = "the reference entries' recorded runs (the launcher passes them to the run on your cores)")
    String recorded;

    @Override
    public int run(Io io) throws Exception {
        if (traces.contains("-")) {
            throw new UsageException("contest", "--trace -: contest reads each trace from a file (your entry runs in a"
                    + " second JVM, and --class runs one per student), not from standard input: save it to a file and name that");
        }
        if (html != null) HtmlPage.checkWritable("contest", html);
        // The CSV is written last, after every entry (a whole class's, with --class) has run.
        if (csv != null) OutputFile.check("contest", "--csv", csv);
        refuseUnknownWorkloads();
        if (!klass.isEmpty()) return ClassContest.run(this, io);
        if (!StudentCores.inChild()) {
            java.nio.file.Path root = StudentCores.root();
            boolean mine = StudentCores.mine(root, cores, "contest");
            io.err().println(StudentCores.whose(root, mine, "contest"));
            if (mine) {
                java.nio.file.Path recording = recording(root, io);
                vramlab.quiz.build.CoreBuild.Result built = StudentCores.build(root, StudentCores.allCores(), io.err());
                List<String> args = childArgs();
                if (recording != null) args.addAll(List.of("--recorded", recording.toString()));
                return StudentCores.runChild(root, built.classpath(), args, io, false);
            }
        }
        List<Workload> chosen = chosen(io);
        for (Workload w : chosen) {
            io.out().println(w.name() + ": " + w.shape() + "; card " + vramlab.units.Bytes.formatSize(w.card()));
        }
        io.out().println();
        RecordedRuns runs = recorded == null ? null : readRecording(java.nio.file.Path.of(recorded));
        Scoreboard board = new Scoreboard(Entries.PYTORCH, Entries.all(), chosen, runs);
        io.out().print(board.table());
        io.out().println();
        io.out().print(legend(board, runs));
        if (entryRuns != null && board.unwritten(Entries.STUDENT.name()) == null) {
            write(RecordedRuns.of(board.runs(Entries.STUDENT.name()), chosen, seed, "your entry's own run"),
                    java.nio.file.Path.of(entryRuns));
        }
        if (html != null) HtmlPage.write("contest", html, board.html("vramlab contest"));
        if (csv != null) {
            try (var out = java.nio.file.Files.newBufferedWriter(java.nio.file.Path.of(csv))) {
                board.csv(out);
            }
        }
        String student = Entries.STUDENT.name();
        return board.unwritten(student) == null && board.firstBroken(student) == null ? 0 : 1;
    }

    /**
     * Each {@code --workload} checked before anything is built or run: in a student's copy the
     * launcher compiled every core of labs/ and started a child JVM on them (about 20 s) before
     * that child, in {@link #chosen}, refused a misspelt name. The public set's names are
     * {@link Workloads#all}'s; a {@code --trace} file's are what {@link #readTraces} will call it,
     * the path as given (a text trace) or its file name without {@code .pickle}, {@code .pkl} or
     * {@code .json} (a snapshot, {@link vramlab.workload.SnapshotWorkload#name}), or any other path to the same
     * file ({@link #namesTrace}); {@link #chosen} checks them again once the files are read.
     */
    void refuseUnknownWorkloads() {
        if (only.isEmpty()) return;
        List<String> names = traces.isEmpty() ? Workloads.all(seed).stream().map(Workload::name).toList() : traces;
        List<String> snapshots = traces.stream().map(vramlab.workload.SnapshotWorkload::name).toList();
        for (String name : only) {
            if (!names.contains(name) && !snapshots.contains(name)
                    && traces.stream().noneMatch(t -> namesTrace(name, t))) throw notAWorkload(name, names);
        }
    }

    /** {@code path} read from {@code --from}'s folder (the working folder without it); an absolute path as it is. */
    private java.nio.file.Path resolve(String path) {
        return from == null ? java.nio.file.Path.of(path) : java.nio.file.Path.of(from).resolve(path);
    }

    /**
     * Whether {@code --workload name} is a path to the {@code --trace} file {@code trace}: relative
     * or absolute, with {@code ./} or {@code ..} in it, or through a link, one file is one workload.
     */
    private boolean namesTrace(String name, String trace) {
        java.nio.file.Path a, b;
        try {
            a = resolve(name).toAbsolutePath().normalize();
            b = resolve(trace).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return false;                                 // not a path at all: a public workload's name, mistyped
        }
        if (a.equals(b)) return true;
        try {
            return java.nio.file.Files.exists(a) && java.nio.file.Files.isSameFile(a, b);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static UsageException notAWorkload(String name, List<String> names) {
        return new UsageException("contest", "--workload '" + name + "': not a workload (expected one of " + names + ")");
    }

    /** The workloads this command line names: the public set of {@code --seed}, or the {@code --trace} files. */
    List<Workload> chosen(Io io) throws java.io.IOException {
        List<Workload> all = traces.isEmpty() ? Workloads.all(seed) : readTraces(io);
        List<Workload> chosen = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) if (only.isEmpty() || only.stream().anyMatch(named(all, i))) chosen.add(all.get(i));
        for (String name : only) {
            boolean found = false;
            for (int i = 0; i < all.size() && !found; i++) found = named(all, i).test(name);
            if (!found) throw notAWorkload(name, all.stream().map(Workload::name).toList());
        }
        return chosen;
    }

    /** Whether a {@code --workload} value names {@code all}'s i-th workload: its name, or a path to its {@code --trace} file. */
    private java.util.function.Predicate<String> named(List<Workload> all, int i) {
        return name -> name.equals(all.get(i).name()) || (!traces.isEmpty() && namesTrace(name, traces.get(i)));
    }

    /**
     * The reference entries' runs for the run on the student's cores, where those cores would
     * otherwise build the kit's entries too (a student's chapter 3-6 code standing in for
     * PyTorch's): recorded now on this JVM's reference cores in a copy that has them, else the
     * recording a release ships (public workloads, public seed), else none.
     */
    private java.nio.file.Path recording(java.nio.file.Path root, Io io) throws java.io.IOException {
        if (vramlab.quiz.KitPaths.isRelease(root)) {
            java.nio.file.Path shipped = root.resolve(RecordedRuns.IN_RELEASE);
            return java.nio.file.Files.isRegularFile(shipped) ? shipped : null;
        }
        java.nio.file.Path file = StudentCores.work(root).resolve("reference-runs.csv");
        write(RecordedRuns.record(Entries.references(), chosen(io), seed,
                "by ./vramlab contest on the reference cores in solutions/, just before this run"), file);
        return file;
    }

    /**
     * What a student release ships: the reference entries on the public workloads, recorded here,
     * without the host time (measured, it would make every release differ; the contest shows "-").
     */
    static void writeRelease(java.nio.file.Path release, String origin) throws java.io.IOException {
        write(RecordedRuns.record(Entries.references(), Workloads.publicSet(), Workloads.PUBLIC_SEED, origin)
                .withoutHostTime(), release.resolve(RecordedRuns.IN_RELEASE));
    }

    static void write(RecordedRuns runs, java.nio.file.Path file) throws java.io.IOException {
        java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
        try (var out = java.nio.file.Files.newBufferedWriter(file)) {
            runs.write(out);
        }
    }

    private static RecordedRuns readRecording(java.nio.file.Path file) throws java.io.IOException {
        try (var in = java.nio.file.Files.newBufferedReader(file)) {
            return RecordedRuns.read(in, file.toString());
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UsageException(file.toString(), "no such file");
        } catch (IllegalArgumentException e) {
            throw new UsageException("contest", e.getMessage());
        }
    }

    /** What the table's run column means here: whose code each live row ran, where the recorded rows come from. */
    private static String legend(Scoreboard board, RecordedRuns runs) {
        boolean anyRecorded = false;
        List<String> liveKit = new ArrayList<>();
        for (vramlab.contest.Contestant c : board.entries()) {
            for (int w = 0; w < board.workloads().size(); w++) {
                if (board.recorded(c.name(), w)) anyRecorded = true;
                else if (c != Entries.STUDENT && !liveKit.contains(c.name())) liveKit.add(c.name());
            }
        }
        StringBuilder s = new StringBuilder();
        if (anyRecorded) {
            s.append("run: recorded rows are the reference cores' runs, recorded ").append(runs.origin())
             .append(runs.hostTimeMeasured() ? " (host ns/event measured there)" : " (host ns/event not recorded: -)")
             .append("; live rows ran now.\n");
        }
        if (!StudentCores.inChild()) {
            s.append("run: every live row ran on this copy's reference cores.\n");
        } else {
            s.append("run: ").append(Entries.STUDENT.name()).append(" ran live on your cores in labs/.\n");
            if (!liveKit.isEmpty()) {
                s.append("run: ").append(String.join(", ", liveKit)).append(" ran live on your cores too (no recording of the"
                        + " reference for these workloads; a release records the public ones): those rows score your"
                        + " chapter 3-6 code, not the reference's.\n");
            }
        }
        return s.toString();
    }

    /** {@code contest} and the options that choose the workloads, for a child JVM. */
    List<String> workloadArgs() {
        List<String> a = new ArrayList<>(List.of("contest", "--seed", Long.toString(seed)));
        for (String w : only) a.add("--workload=" + w);
        for (String t : traces) a.add("--trace=" + t);            // as given (they name the workloads); = keeps a leading -
        if (!traces.isEmpty()) a.addAll(List.of("--from", resolve("").toAbsolutePath().toString()));
        if (card != null) a.addAll(List.of("--card", card + "B"));
        return a;
    }

    /** This command line again, for the child JVM that runs on the student's cores. */
    private List<String> childArgs() {
        List<String> a = workloadArgs();
        if (csv != null) a.addAll(List.of("--csv", java.nio.file.Path.of(csv).toAbsolutePath().toString()));
        if (html != null) a.addAll(List.of("--html", java.nio.file.Path.of(html).toAbsolutePath().toString()));
        return a;
    }

    private List<Workload> readTraces(Io io) throws java.io.IOException {
        long onCard = card == null ? vramlab.replay.SnapshotCard.DEFAULT_CARD : card;
        List<Workload> out = new ArrayList<>();
        for (String file : traces) {
            byte[] bytes;
            try (var in = java.nio.file.Files.newInputStream(resolve(file))) {
                bytes = vramlab.snapshot.SnapshotInput.readAll(in, file);
            } catch (java.nio.file.NoSuchFileException e) {
                throw new UsageException(file, "no such file");
            }
            if (vramlab.snapshot.SnapshotFile.looksLikeSnapshot(bytes)) {
                out.add(vramlab.workload.SnapshotWorkload.read(bytes, file, onCard));
            } else {
                List<vramlab.trace.TraceEvent> events = new ArrayList<>();
                new vramlab.trace.TraceReader(new java.io.ByteArrayInputStream(bytes), file).forEachRemaining(events::add);
                out.add(new Workload(file, onCard, "the trace " + file, file, events));
            }
        }
        return out;
    }
}
