package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code printf ... | ./vramlab replay /dev/stdin}, or a named pipe, or {@code <(zcat run.gz)}:
 * a file that is not a regular file. Java's channel stream over a pipe cannot say how many bytes
 * are ready ({@code available()} asks the channel's size and position: "Illegal seek"), which
 * ended the replay as an internal error; such a file is now read as a plain stream.
 */
class ReplayFromPipeTest {
    @TempDir Path tmp;

    @Test
    void aTraceThroughANamedPipe() throws Exception {
        Path pipe = fifo("trace");
        byte[] trace = "alloc a 1GiB\nalloc b 2GiB\nfree a\n".getBytes(StandardCharsets.US_ASCII);
        Thread writer = feed(pipe, trace);
        CliRun r = CliRun.of("replay", pipe.toString());
        writer.join(10_000);
        assertThat(r.status()).as(r.err()).isZero();
        Path file = Files.write(tmp.resolve("trace.txt"), trace);
        assertThat(r.out()).isEqualTo(CliRun.of("replay", file.toString()).out());
    }

    @Test
    void aGzipTraceThroughANamedPipe() throws Exception {
        Path pipe = fifo("trace.gz");
        var bytes = new java.io.ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write("alloc a 1GiB\nfree a\n".getBytes(StandardCharsets.US_ASCII));
        }
        Thread writer = feed(pipe, bytes.toByteArray());
        CliRun r = CliRun.of("replay", "--csv", pipe.toString());
        writer.join(10_000);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("alloc").contains("free");
    }

    /** A snapshot is read whole: through a pipe from the stream already opened, not opened again. */
    @Test
    void aSnapshotThroughANamedPipe() throws Exception {
        Path snapshot = vramlab.quiz.KitPaths.root()
                .resolve("chapters/ch05-expandable-segments/examples/three-allocators.pytorch.pickle");
        Path pipe = fifo("run.pickle");
        Thread writer = feed(pipe, Files.readAllBytes(snapshot));
        CliRun r = CliRun.of("replay", pipe.toString());
        writer.join(10_000);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out().replace(pipe.toString(), "FILE"))
                .isEqualTo(CliRun.of("replay", snapshot.toString()).out().replace(snapshot.toString(), "FILE"));
    }

    private Path fifo(String name) throws Exception {
        Path pipe = tmp.resolve(name);
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", pipe.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            p = null;
        }
        assumeTrue(p != null && p.waitFor() == 0, "skipped: no mkfifo on this system (Windows)");
        return pipe;
    }

    private static Thread feed(Path pipe, byte[] bytes) {
        Thread t = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(pipe)) {
                out.write(bytes);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }
}
