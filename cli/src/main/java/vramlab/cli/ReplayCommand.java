package vramlab.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Policy;
import vramlab.driver.Gpu;
import vramlab.replay.CsvListener;
import vramlab.replay.Policies;
import vramlab.replay.Replayer;
import vramlab.replay.SummaryListener;
import vramlab.trace.TraceReader;
import vramlab.units.Bytes;

/** {@code vramlab replay}: a trace through a chosen allocator policy (CONTRACTS.md, "Replay"). */
final class ReplayCommand implements Command {
    @Override public String name() { return "replay"; }
    @Override public String summary() { return "replay a trace file through a chosen allocator"; }

    @Override
    public String usage() {
        return """
                usage: vramlab replay [--policy toy] [--alloc-conf CONF] [--device SIZE] [--csv] FILE

                  --policy toy       the allocator policy (toy: the seed chapter's)
                  --alloc-conf CONF  a PYTORCH_CUDA_ALLOC_CONF string (pytorch policy only)
                  --device SIZE      the card's total memory (default 80GiB)
                  --csv              one row per event: step,op,handle,bytes,result,requested,allocated,reserved
                  FILE               a trace (alloc H SIZE / free H / empty_cache), or - for standard input

                An OOM inside the trace is a result, not a failure (exit 0). Bad traces exit 2 with
                error: FILE:LINE: what was wrong.
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws IOException {
        Args a = Args.parse("replay", args, Set.of("--csv"), Set.of("--policy", "--alloc-conf", "--device"));
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
        try (BufferedReader in = open(file, io)) {
            TraceReader events = new TraceReader(in, file);
            if (a.flag("--csv")) {
                new Replayer(allocator, new CsvListener(io.out()), file, false).replay(events);
            } else {
                SummaryListener summary = new SummaryListener(io.out());
                new Replayer(allocator, summary, file, false).replay(events);
                summary.finish(allocator);
            }
        }
        io.out().flush();
        return 0;
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

    private static BufferedReader open(String file, Io io) throws IOException {
        if (file.equals("-")) return new BufferedReader(new InputStreamReader(io.in(), StandardCharsets.UTF_8));
        try {
            return Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException(file, "no such file");
        }
    }
}
