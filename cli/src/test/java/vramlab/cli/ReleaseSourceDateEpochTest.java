package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * {@code SOURCE_DATE_EPOCH} as an instructor sets it: in the launcher's environment, so each run
 * here is a child JVM with that variable (grading-fixtures: child JVMs and two autograder zips).
 * A bad value stops {@code release} before any work with exit 2 and one line naming the variable
 * and its value; a good one dates every zip entry, the same bytes in every time zone.
 */
@Tag("grading-fixtures")
class ReleaseSourceDateEpochTest {
    @TempDir Path tmp;

    record Run(int status, String out, String err) {}

    /** {@code vramlab args} in a child JVM with {@code env} added, in the time zone {@code tz}. */
    static Run launch(Map<String, String> env, String tz, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Duser.timezone=" + tz, "-Dvramlab.home=" + KitPaths.root(), "-cp", System.getProperty("java.class.path"),
                "vramlab.cli.Main"));
        Collections.addAll(cmd, args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.equals("SOURCE_DATE_EPOCH") || k.startsWith("VRAMLAB_SALT"));
        pb.environment().putAll(env);
        Path out = Files.createTempFile("sde", ".out");
        Path err = Files.createTempFile("sde", ".err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        int status = p.waitFor();
        return new Run(status, Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("a SOURCE_DATE_EPOCH that is not decimal seconds: exit 2, one line naming it and its value, nothing written")
    void badValueIsExit2() throws Exception {
        String line = "error: release: SOURCE_DATE_EPOCH is '2026-12-05': expected whole seconds since 1970-01-01T00:00:00Z"
                + " in decimal digits, as date +%s prints them (reproducible-builds.org/specs/source-date-epoch)";
        Path dir = tmp.resolve("release");
        Run r = launch(Map.of("SOURCE_DATE_EPOCH", "2026-12-05"), "UTC", "release", "--no-site", dir.toString());
        assertThat(r.status()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo(line);
        assertThat(dir).doesNotExist();
        Path zip = tmp.resolve("a.zip");
        r = launch(Map.of("SOURCE_DATE_EPOCH", "2026-12-05", "VRAMLAB_SALT", "s"), "UTC", "release", "--gradescope", zip.toString());
        assertThat(r.status()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo(line);
        assertThat(zip).doesNotExist();
    }

    @Test
    @DisplayName("SOURCE_DATE_EPOCH dates every entry of the autograder zip: its UTC time, the same bytes in two time zones")
    void datesTheZip() throws Exception {
        Path utc = tmp.resolve("utc.zip");
        Path kolkata = tmp.resolve("kolkata.zip");
        Map<String, String> env = Map.of("SOURCE_DATE_EPOCH", "1700000001", "VRAMLAB_SALT", "sde-test-salt");
        for (Object[] run : new Object[][] {{utc, "UTC"}, {kolkata, "Asia/Kolkata"}}) {
            Run r = launch(env, (String) run[1], "release", "--gradescope", run[0].toString());
            assertThat(r.status()).as(r.err()).isZero();
        }
        // 1700000001 s is 2023-11-14T22:13:21Z; a zip keeps even seconds, as the zip's local time
        long want = LocalDateTime.of(2023, 11, 14, 22, 13, 20).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        try (ZipFile z = ZipFile.builder().setPath(utc).get()) {
            List<ZipArchiveEntry> entries = Collections.list(z.getEntries());
            assertThat(entries).isNotEmpty().allSatisfy(e -> assertThat(e.getTime()).as(e.getName()).isEqualTo(want));
        }
        assertThat(Files.mismatch(utc, kolkata)).as("first byte that differs").isEqualTo(-1L);
    }
}
