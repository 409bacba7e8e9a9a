package vramlab.snapshot;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.trace.TraceException;

@DisplayName("SnapshotInput")
class SnapshotInputTest {
    /** A stream whose first read fails as the file system says. */
    private static InputStream failing(IOException e) {
        return new InputStream() {
            @Override
            public int read() throws IOException { throw e; }

            @Override
            public int read(byte[] b, int off, int len) throws IOException { throw e; }
        };
    }

    @Test
    @DisplayName("a file that cannot be read is named once, with the system's reason, as replay says it")
    void unreadable() {
        String file = "/data/run.pickle";
        assertThatThrownBy(() -> SnapshotInput.readAll(failing(new FileSystemException(file, null, "Input/output error")), file))
                .isInstanceOf(TraceException.class)
                .hasMessage("/data/run.pickle: cannot read it: Input/output error");
        assertThatThrownBy(() -> SnapshotInput.readAll(failing(new AccessDeniedException(file)), file))
                .hasMessage("/data/run.pickle: cannot read it: Permission denied");
        assertThatThrownBy(() -> SnapshotInput.readAll(failing(new IOException("Is a directory")), file))
                .hasMessage("/data/run.pickle: cannot read it: Is a directory");
    }
}
