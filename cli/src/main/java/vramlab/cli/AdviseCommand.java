package vramlab.cli;

import java.io.IOException;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import java.util.ArrayList;
import java.util.List;

import vramlab.advise.Advice;
import vramlab.replay.RunPage;
import vramlab.replay.Timeline;
import vramlab.advise.Setting;
import vramlab.advise.Workload;
import vramlab.snapshot.SnapshotInput;

/** {@code vramlab advise [--device SIZE] [--device-index N] FILE}: the workload under every allocator setting. */
@CommandLine.Command(name = "advise", mixinStandardHelpOptions = true,
        header = "replay a snapshot or trace under each allocator setting",
        description = """
                Replays the workload under the defaults, expandable_segments:True, max_split_size_mb 128,
                256 and 512, roundup_power2_divisions:4 and garbage_collection_threshold:0.8 under a
                memory fraction of 0.99 (the collection runs only under a limit): under 2.10 with
                per_process_memory_fraction:0.99, under 2.9, whose parser has no such key, with
                torch.cuda.set_per_process_memory_fraction(0.99) in the code, through
                PyTorch's caching-allocator policy as the kit simulates it. A snapshot's first row is
                its run as recorded (its peak is the snapshot's own); every other row is what
                vramlab replay --alloc-conf ROW --device CARD prints, with its verdict and margin
                (2.9's garbage-collection row: what vramlab replay --pytorch-version 2.9 --alloc-conf
                garbage_collection_threshold:0.8 --memory-fraction 0.99 FILE prints, the option
                standing for the line of code; a text trace adds --policy pytorch).
                Prints one table (peak reserved; holes at the peak, what live blocks left of it
                when they held the most at that peak; OOMs; the first event that would fail) and the PYTORCH_CUDA_ALLOC_CONF line to set, with the line of code the setting
                takes, if any. Long inputs print progress on
                standard error.""")
final class AdviseCommand implements Command {
    @Option(names = "--device", paramLabel = "SIZE", converter = SizeConverter.Card.class, description = """
            the memory PyTorch's allocator can have on the card, its share: the card's total less \
            the CUDA context and other processes, not the card's total as CUDA reports it \
            (more by a few hundred MiB of context), which is what triage's --device takes; without it a snapshot that recorded an OOM gives the card the run had \
            (reserved at the OOM plus free), else the card is unknown and the settings are ranked \
            by peak; at most 4TiB (past about 3TiB, a workload needing a second expandable segment \
            runs out of the kit's address space: advise stops with one line naming the largest card \
            it can replay)""")
    Long device;

    @Option(names = "--device-index", paramLabel = "N", description = """
            a snapshot's device to replay (default: the first with an OOM, else the one with the \
            longest history)""")
    Integer deviceIndex;

    @Option(names = "--pytorch-version", paramLabel = "X.Y", description = """
            the PyTorch release whose rules the replays follow where releases differ: 2.9 or 2.10; \
            default 2.9, or what a snapshot's recorded fields imply (as replay chooses it)""")
    String pytorchVersion;

    @Option(names = "--html", paramLabel = "PAGE", description = """
            also write one offline HTML page (inline SVG, no script): reserved and allocated over \
            the run under each setting, the card line, each OOM, who holds the memory at the peak, and \
            what to set""")
    String html;

    @CommandLine.Mixin
    InputLimitOption input = new InputLimitOption();

    @Parameters(paramLabel = "FILE", arity = "1", description = """
            a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot pickle, the dict as JSON, \
            either gzipped) or a text trace; - reads standard input""")
    String file;

    @Override
    public String expected() { return "expected one FILE (or -)"; }

    @Override
    public int run(Io io) throws IOException {
        vramlab.alloc.PyTorchRelease release = ReplayCommand.release(pytorchVersion, "advise");
        long device = this.device == null ? -1 : this.device;
        String name = vramlab.trace.TraceReader.nameOf(file);          // <stdin> for -, in errors and output
        byte[] bytes = read(file, io, input.limit());
        Workload w = deviceIndex == null ? Workload.read(bytes, name, device)
                : Workload.read(bytes, name, device, s -> DeviceIndex.of(s, deviceIndex, "advise"));
        if (deviceIndex != null && w.snapshot() == null) throw DeviceIndex.notForTraces("advise", "--device-index");
        if (!w.replayable()) {
            io.out().println("advise: " + w.source());
            io.out().println("Nothing to replay: the file records no allocation history."
                    + (w.state().isEmpty() ? "" : " " + w.state() + "."));
            io.out().flush();
            return 0;
        }
        if (html != null && w.snapshot() == null) {
            throw new UsageException("advise", "--html " + html + ": applies to snapshots, not to text traces");
        }
        if (html != null) HtmlPage.checkWritable("advise", html);
        List<Timeline> timelines = html == null ? null : new ArrayList<>();
        Advice advice = Advice.of(w, name, Setting.standard(Advice.releaseFor(w, release)), io.err()::println, timelines,
                release);
        String text = advice.text();
        String skipped = w.device() == null ? null : w.device().skippedActions();
        if (skipped != null) {                    // under the first line, which names the file and device
            int first = text.indexOf('\n') + 1;
            text = text.substring(0, first) + "skipped: " + skipped + "\n" + text.substring(first);
        }
        io.out().print(text);
        io.out().flush();
        if (html != null) {
            HtmlPage.write("advise", html, RunPage.html(w.source(), advice.cardKnown() ? advice.card() : -1,
                    advice.pageRows(timelines), advice.holders(), advice.pageNotes(), advice.recommendation()));
            io.err().println("advise: wrote " + html);
        }
        return 0;
    }

    private static byte[] read(String file, Io io, long limit) {
        if (file.equals("-")) return SnapshotInput.readAll(io.in(), vramlab.trace.TraceReader.STANDARD_INPUT, limit);
        return SnapshotInput.readFile(file, limit);           // or one line: no such file, cannot read it
    }
}
