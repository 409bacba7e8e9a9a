package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import net.razorvine.pickle.Unpickler;
import vramlab.driver.GpuProcess;
import vramlab.kit.RealSnapshotsFolder;
import vramlab.snapshot.SnapshotReader;

/**
 * The evidence for chapter 1's VA budget: device pointers are host addresses (UVA), so every
 * segment real PyTorch runs recorded lies below x86-64's 128 TiB, far from the 512 TiB the
 * GMMU decodes. The snapshots are the shared test data, read where they are.
 */
@DisplayName("Real snapshots: every device address lies below 2^47, the end of x86-64 user space")
class UvaEvidenceTest {

    @Test
    @DisplayName("each recorded segment starts and ends below UVA_END")
    void belowTheUvaCeiling() throws IOException {
        Path snapshots = RealSnapshotsFolder.snapshots().orElse(null);
        assumeTrue(snapshots != null, RealSnapshotsFolder.MISSING);
        List<Path> files;
        try (Stream<Path> s = Files.list(snapshots)) {
            files = s.filter(p -> p.toString().endsWith(".gz")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        long segments = 0;
        for (Path f : files) {
            byte[] bytes;
            try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
                bytes = in.readAllBytes();
            }
            // _snapshot() and _dump_snapshot() pickle a dict with "segments"; memory_snapshot()
            // pickles the segment list itself; one file is the JSON form of a dict
            Object root = bytes[0] == '{' ? SnapshotReader.load(bytes, f.toString())
                    : new Unpickler().loads(bytes);
            Object list = root instanceof Map<?, ?> m ? m.get("segments") : root;
            if (!(list instanceof List<?> segs)) continue;
            for (Object o : segs) {
                Map<?, ?> seg = (Map<?, ?>) o;
                long address = ((Number) seg.get("address")).longValue();
                long size = ((Number) seg.get("total_size")).longValue();
                assertThat(address + size).as(f.getFileName() + " segment at 0x" + Long.toHexString(address))
                        .isPositive().isLessThanOrEqualTo(GpuProcess.UVA_END);
                segments++;
            }
        }
        assertThat(segments).as("segments read").isGreaterThan(1000);
    }
}
