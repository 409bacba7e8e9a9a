package vramlab.playground;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.replay.Policies;
import vramlab.replay.SnapshotRelease;
import vramlab.replay.SnapshotReplay;
import vramlab.replay.SnapshotSummary;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotInput;
import vramlab.snapshot.SnapshotReader;
import vramlab.trace.TraceException;

/**
 * A PyTorch memory snapshot, read and replayed on the page as {@code ./vramlab replay FILE}
 * replays it (every device, one summary each, with the peak reserved recorded beside
 * replayed): the same reader, replay and summary. The page hands it the file's bytes,
 * already unzipped by the browser; the file never leaves the machine.
 */
public final class SnapshotRun {
    private SnapshotRun() {}

    /**
     * @param policy a {@link TraceRun.Choice} id, or empty for the settings that recorded it
     * @param card   the card's size, or empty for the one the snapshot implies
     */
    public static String run(byte[] bytes, String file, String policy, String card) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        try {
            Policy p = null;
            if (!policy.isEmpty()) {
                TraceRun.Choice c = TraceRun.Choice.of(policy);
                p = Policies.create(c.policy, c.allocConf);
            }
            long size = card.isEmpty() ? -1 : TraceRun.card(card);
            if (bytes.length > SnapshotInput.MAX_INPUT) {
                return "error: " + file + ": more than 1 GiB (" + SnapshotInput.MAX_INPUT + " bytes), the most the kit"
                        + " reads from one file\n";
            }
            if (!SnapshotReader.isSnapshot(bytes)) {
                return "error: " + file + ": not a PyTorch memory snapshot (a pickle, or its dict as JSON)\n";
            }
            int first = 0;
            while (first < bytes.length && Character.isWhitespace(bytes[first])) first++;
            if (bytes[first] != (byte) 0x80) {
                return "error: " + file + ": this page reads pickled snapshots (torch.cuda.memory._dump_snapshot);"
                        + " for a snapshot saved as JSON, run ./vramlab replay " + file + "\n";
            }
            Snapshot s = SnapshotReader.readPickle(bytes, file);
            if (p instanceof PyTorchPolicy pt) p = pt.under(SnapshotRelease.implied(s).release());   // as replay does
            SnapshotReplay.Options options = new SnapshotReplay.Options(p, size);
            out.println("snapshot: " + s.file());
            out.println("layout:   " + s.layout());
            if (s.devices().isEmpty()) out.println("no device has segments or a history: nothing to replay");
            for (Snapshot.Device d : s.devices()) {
                SnapshotSummary.print(SnapshotReplay.run(s, d, options, (step, e, result, b, a) -> { }, false), out);
            }
        } catch (TraceException | IllegalArgumentException e) {
            return "error: " + e.getMessage() + "\n";
        } catch (RuntimeException | StackOverflowError e) {   // one line on the page, as ./vramlab says it
            return "error: " + file + ": not a memory snapshot the kit can read (an internal error of the kit)\n";
        }
        return new String(buf.toByteArray(), StandardCharsets.UTF_8);
    }
}
