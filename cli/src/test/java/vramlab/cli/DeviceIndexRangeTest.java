package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * --device-index -1 said "device -1 has no segments and no history", as if a device -1 might
 * have had some; a number outside 0 to 15 (the devices the kit simulates, as the snapshot reader
 * checks a segment's device) now says what is expected, with the file's devices.
 */
@DisplayName("--device-index outside 0 to 15: what is expected, not 'device -1 has no segments'")
class DeviceIndexRangeTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} --device-index {1}")
    @CsvSource({"replay, -1", "advise, -1", "replay, 16", "advise, 99"})
    void outOfRange(String command, int n) throws IOException {
        Path f = Files.writeString(dir.resolve("oom.json"), CardLineTest.OOM);
        CliRun r = CliRun.of(command, "--device-index", String.valueOf(n), f.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("error: " + command + ": --device-index " + n + ": expected a device number,"
                + " 0 to 15 (" + f + " has devices 0)\n");
    }
}
