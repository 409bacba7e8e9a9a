package vramlab.snapshot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import net.razorvine.pickle.Pickler;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;

/**
 * {@code --export FILE}: writes the simulator's {@link MemorySnapshot} as a pickle, the format
 * {@code torch.cuda.memory._dump_snapshot} writes and pytorch.org/memory_viz and
 * {@code torch.cuda._memory_viz} read. The pickling is the Pyrolite library's
 * ({@code net.razorvine:pickle}), not hand-written.
 */
public final class SnapshotWriter {
    private SnapshotWriter() {}

    public static void write(CachingAllocator a, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(MemorySnapshot.of(a), out);
        }
    }

    public static void write(Map<String, Object> snapshot, OutputStream out) throws IOException {
        new Pickler(false).dump(snapshot, out);
    }

    /** The same dict as bytes. */
    public static byte[] pickle(Map<String, Object> snapshot) {
        try {
            return new Pickler(false).dumps(snapshot);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
