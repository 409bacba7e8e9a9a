package vramlab.cli;

import java.io.BufferedReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Policy;
import vramlab.driver.Gpu;
import vramlab.replay.CsvListener;
import vramlab.replay.Policies;
import vramlab.replay.Replayer;
import vramlab.replay.SummaryListener;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceReader;
import vramlab.units.Bytes;

/** {@code vramlab replay}: a trace through a chosen allocator policy (CONTRACTS.md, "Replay"). */
final class ReplayCommand implements Command {
    @Override public String name() { return "replay"; }
    @Override public String summary() { return "replay a trace file or a PyTorch memory snapshot through a chosen allocator"; }

    @Override
    public String usage() {
        return """
                usage: vramlab replay [--policy toy|pytorch] [--alloc-conf CONF] [--device SIZE] [--csv]
                                      [--export SNAPSHOT] FILE

                  --policy P         toy: the seed chapter's allocator (default);
                                     pytorch: PyTorch's native caching allocator (CUDACachingAllocator.cpp)
                  --alloc-conf CONF  a PYTORCH_CUDA_ALLOC_CONF string for --policy pytorch, e.g.
                                     expandable_segments:True,max_split_size_mb:128
                  --device SIZE      the card's total memory (default 80GiB)
                  --csv              one row per event: step,op,handle,bytes,result,requested,allocated,reserved
                  --export SNAPSHOT  write the final state and the whole history as a pickle that
                                     pytorch.org/memory_viz and torch.cuda._memory_viz open
                  FILE               a trace (alloc H SIZE / free H / empty_cache), a PyTorch snapshot
                                     (torch.cuda.memory._dump_snapshot pickle, or the dict as JSON),
                                     or - for standard input

                Record your own snapshot in PyTorch with
                  torch.cuda.memory._record_memory_history(max_entries=100000)
                  ... your workload ...
                  torch.cuda.memory._dump_snapshot("run.pickle")
                then ask: would another --alloc-conf have saved this run?

                An OOM inside the trace is a result, not a failure (exit 0). Bad traces exit 2 with
                error: FILE:LINE: what was wrong.
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws IOException {
        Args a = Args.parse("replay", args, Set.of("--csv"),
                Set.of("--policy", "--alloc-conf", "--device", "--export"));
        if (a.positional().size() != 1) throw new UsageException("replay", "expected one trace FILE (or -)");
        String file = a.positional().get(0);
        long device = parseDevice(a.value("--device", "80GiB"));
        Policy policy;
        try {
            policy = Policies.create(a.value("--policy", "toy"), a.value("--alloc-conf", ""));
        } catch (IllegalArgumentException e) {
            throw new UsageException("replay", e.getMessage());
        }
        CachingAllocator allocator = new CachingAllocator(new Gpu(device).openToyProcess(), policy);
        String export = a.value("--export", null);
        if (export != null) allocator.trace().record(true, Long.MAX_VALUE);
        try (BufferedInputStream in = new BufferedInputStream(open(file, io))) {
            replay(a, file, allocator, events(in, file), io);
        }
        if (export != null) {
            try {
                SnapshotWriter.write(allocator, Path.of(export));
            } catch (IOException e) {
                throw new UsageException(export, "cannot write the snapshot: " + e.getMessage());
            }
            if (!a.flag("--csv")) io.out().println("snapshot written to " + export);
        }
        io.out().flush();
        return 0;
    }

    /** A snapshot (pickle or JSON) is read whole; a text trace streams line by line. */
    private static Iterator<TraceEvent> events(BufferedInputStream in, String file) throws IOException {
        in.mark(64);
        byte[] head = in.readNBytes(64);
        in.reset();
        if (SnapshotReader.isSnapshot(head)) {
            return SnapshotReader.events(SnapshotReader.load(in.readAllBytes(), file), 0, file).iterator();
        }
        return new TraceReader(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)), file);
    }

    private static void replay(Args a, String file, CachingAllocator allocator, Iterator<TraceEvent> events,
                               Io io) {
        if (a.flag("--csv")) {
            new Replayer(allocator, new CsvListener(io.out()), file, false).replay(events);
        } else {
            SummaryListener summary = new SummaryListener(io.out());
            new Replayer(allocator, summary, file, false).replay(events);
            summary.finish(allocator);
        }
    }

    static long parseDevice(String text) {
        try {
            long n = Bytes.parse(text);
            if (n <= 0) throw new IllegalArgumentException("must be positive");
            return n;
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new UsageException("replay", "--device '" + text + "': expected a size such as 40MiB or 80GiB");
        }
    }

    private static InputStream open(String file, Io io) throws IOException {
        if (file.equals("-")) return io.in();
        try {
            return Files.newInputStream(Path.of(file));
        } catch (NoSuchFileException e) {
            throw new UsageException(file, "no such file");
        }
    }
}
