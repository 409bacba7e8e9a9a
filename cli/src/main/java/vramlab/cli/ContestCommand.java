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
                their simulated cost, host time per event, and each entry's performance index.""")
final class ContestCommand implements Command {
    @Option(names = "--seed", paramLabel = "N", description = "the workloads' seed (default: the public set's)")
    long seed = Workloads.PUBLIC_SEED;

    @Option(names = "--workload", paramLabel = "NAME", description = "only this workload (repeatable)")
    List<String> only = new ArrayList<>();

    @Override
    public int run(Io io) {
        List<Workload> all = Workloads.all(seed);
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
        String student = Entries.STUDENT.name();
        return board.unwritten(student) == null && board.firstBroken(student) == null ? 0 : 1;
    }
}
