package vramlab.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Option;

import vramlab.contest.Entries;
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
                their simulated cost, host time per event, and each entry's performance index. In a
                student's copy, or with --mine, your entry is the one in your labs/.""")
final class ContestCommand implements Command {
    @CommandLine.Mixin CoresOption cores;

    @Option(names = "--seed", paramLabel = "N", description = "the workloads' seed (default: the public set's)")
    long seed = Workloads.PUBLIC_SEED;

    @Option(names = "--workload", paramLabel = "NAME", description = "only this workload (repeatable)")
    List<String> only = new ArrayList<>();

    @Option(names = "--trace", paramLabel = "FILE", description = """
            a workload of your own instead of the public set (repeatable): a text trace or a PyTorch \
            memory snapshot, as replay reads them (an instructor's hidden set)""")
    List<String> traces = new ArrayList<>();

    @Option(names = "--card", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "the card for --trace workloads (default 80GiB)")
    Long card;

    @Option(names = "--csv", paramLabel = "FILE", description = "also write the leaderboard as CSV")
    String csv;

    @Option(names = "--html", paramLabel = "PAGE", description = """
            also write the leaderboard as one offline HTML page: each entry's index, and per workload \
            the memory held and requested over the run (inline SVG, no script)""")
    String html;

    @Override
    public int run(Io io) throws Exception {
        if (html != null) HtmlPage.checkWritable("contest", html);
        if (!StudentCores.inChild()) {
            java.nio.file.Path root = StudentCores.root();
            boolean mine = StudentCores.mine(root, cores, "contest");
            io.err().println(StudentCores.whose(root, mine, "contest"));
            if (mine) {
                vramlab.quiz.build.CoreBuild.Result built = StudentCores.build(root, StudentCores.allCores(), io.err());
                return StudentCores.runChild(root, built.classpath(), childArgs(), io, false);
            }
        }
        List<Workload> all = traces.isEmpty() ? Workloads.all(seed) : readTraces(io);
        List<Workload> chosen = new ArrayList<>();
        for (Workload w : all) if (only.isEmpty() || only.contains(w.name())) chosen.add(w);
        for (String name : only) {
            if (all.stream().noneMatch(w -> w.name().equals(name))) {
                throw new UsageException("--workload", "'" + name + "' is not a workload (expected one of "
                        + all.stream().map(Workload::name).toList() + ")");
            }
        }
        for (Workload w : chosen) {
            io.out().println(w.name() + ": " + w.shape() + "; card " + vramlab.units.Bytes.formatSize(w.card()));
        }
        io.out().println();
        Scoreboard board = new Scoreboard(Entries.PYTORCH, Entries.all(), chosen);
        io.out().print(board.table());
        if (html != null) HtmlPage.write("contest", html, board.html("vramlab contest"));
        if (csv != null) {
            try (var out = java.nio.file.Files.newBufferedWriter(java.nio.file.Path.of(csv))) {
                board.csv(out);
            }
        }
        String student = Entries.STUDENT.name();
        return board.unwritten(student) == null && board.firstBroken(student) == null ? 0 : 1;
    }

    /** This command line again, for the child JVM that runs on the student's cores. */
    private List<String> childArgs() {
        List<String> a = new ArrayList<>(List.of("contest", "--seed", Long.toString(seed)));
        for (String w : only) a.addAll(List.of("--workload", w));
        for (String t : traces) a.addAll(List.of("--trace", java.nio.file.Path.of(t).toAbsolutePath().toString()));
        if (card != null) a.addAll(List.of("--card", card + "B"));
        if (csv != null) a.addAll(List.of("--csv", java.nio.file.Path.of(csv).toAbsolutePath().toString()));
        if (html != null) a.addAll(List.of("--html", java.nio.file.Path.of(html).toAbsolutePath().toString()));
        return a;
    }

    private List<Workload> readTraces(Io io) throws java.io.IOException {
        long onCard = card == null ? vramlab.replay.SnapshotCard.DEFAULT_CARD : card;
        List<Workload> out = new ArrayList<>();
        for (String file : traces) {
            byte[] bytes;
            try (var in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(file))) {
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
