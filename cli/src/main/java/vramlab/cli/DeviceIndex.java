package vramlab.cli;

import java.util.ArrayList;
import java.util.List;

import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;

/**
 * {@code --device-index N}, in every command that reads a snapshot of several GPUs ({@code
 * replay}, {@code advise}): the device as the snapshot numbers it (its segments' {@code device},
 * its {@code device_traces} index), read by picocli as an int, and the same errors in each.
 */
final class DeviceIndex {
    private DeviceIndex() {}

    /** The device numbered {@code n}, or a usage error naming the devices that hold something. */
    static Snapshot.Device of(Snapshot s, int n, String where) {
        if (n < 0 || n > SnapshotReader.MAX_DEVICE) {       // no snapshot can hold it: say what can
            throw new UsageException(where, "--device-index " + n + ": expected a device number, 0 to "
                    + SnapshotReader.MAX_DEVICE + (s.devices().isEmpty() ? ""
                            : " (" + s.file() + " has devices " + indices(s.devices()) + ")"));
        }
        Snapshot.Device d = s.device(n);
        if (d == null) {
            throw new UsageException(where, s.file() + ": device " + n + " has no segments and no history"
                    + (s.devices().isEmpty() ? "" : " (devices with some: " + indices(s.devices()) + ")"));
        }
        return d;
    }

    /** A snapshot-only option given with a text trace. */
    static UsageException notForTraces(String where, String option) {
        return new UsageException(where, option + " applies to snapshots, not to text traces");
    }

    /** The devices' indices: "0, 1". */
    static String indices(List<Snapshot.Device> devices) {
        List<String> out = new ArrayList<>();
        for (Snapshot.Device d : devices) out.add(String.valueOf(d.index()));
        return String.join(", ", out);
    }
}
