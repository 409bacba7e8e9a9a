package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.snapshot.SnapshotWriter;

/**
 * The hostile files and the crashes {@link FuzzTest} found, through the launcher: exit 2 and
 * one line that names the file, never exit 1, a Java type name or a stack trace.
 */
@DisplayName("Hostile files through the launcher: exit 2, one line naming the file")
class HostileInputsTest {
    @TempDir
    Path dir;

    private static void refused(FuzzTest.Outcome o, Path file, String... fragments) {
        assertThat(o.status()).as(o.err()).isEqualTo(2);
        assertThat(o.err()).hasLineCount(1).startsWith("error: ").contains(file.getFileName().toString())
                .doesNotContain("java.", "Exception");
        for (String f : fragments) assertThat(o.err()).contains(f);
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("a pickle that calls os.system: not a memory snapshot, it calls posix.system, that is os.system")
    void osSystem(String command) throws IOException {
        Path f = Files.write(dir.resolve("evil.pickle"), HexFormat.of().parseHex(
                "800263706f7369780a73797374656d0a7100580a0000006563686f2070776e656471018571025271032e"));
        refused(FuzzTest.launch(command, f.toString()), f,
                "byte 2: not a memory snapshot: it calls posix.system, that is os.system");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("a 10-byte pickle declaring a 2 GiB string, gzipped: refused at byte 2")
    void declaredLength(String command) throws IOException {
        byte[] pickle = {(byte) 0x80, 4, 'X', (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f, 'a', 'b', 'c'};
        Path f = Files.write(dir.resolve("s.pickle.gz"), gzip(pickle));
        FuzzTest.Outcome o = FuzzTest.launch(command, f.toString());
        refused(o, f, "byte 2: BINUNICODE declares 2147483647 bytes but the file has 3 left");
        assertThat(o.allocated()).isLessThan(64L << 20);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("a 2 MB gzip that unzips to 2 GiB: refused at the 256 MiB default, saying what was counted and how to"
            + " raise the limit, with under 16 MiB allocated")
    void gzipBomb(String command) throws IOException {
        Path f = dir.resolve("bomb.pickle.gz");
        byte[] member = zeros(64);
        try (var out = Files.newOutputStream(f)) {
            out.write(gzip(new byte[] {(byte) 0x80, 4}));          // a pickle's first bytes, so replay reads a snapshot
            for (int i = 0; i < 32; i++) out.write(member);       // then 32 gzip members of 64 MiB: 2 GiB
        }
        assertThat(Files.size(f)).isLessThan(3 << 20);
        FuzzTest.Outcome o = FuzzTest.launch(command, f.toString());
        refused(o, f, "bomb.pickle.gz: unzips to more than 256 MiB (268435456 bytes), the limit for one file: counted"
                + " 268435457 bytes unzipped from its " + Files.size(f) + " and stopped",
                "raise it with --max-input SIZE (at most 1 GiB)");
        assertThat(o.allocated()).isLessThan(16L << 20);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("--max-input: a snapshot one byte over it is refused, one at it is read; past 1 GiB the option is refused")
    void maxInput(String command) throws IOException {
        byte[] pickle = vramlab.snapshot.SnapshotWriter.pickle(new java.util.HashMap<>(java.util.Map.of(
                "segments", java.util.List.of(), "device_traces", java.util.List.of(java.util.List.of(java.util.Map.of(
                        "action", "oom", "addr", 0, "size", 2097152, "stream", 0, "device_free", 1048576))))));
        Path f = Files.write(dir.resolve("s.pickle.gz"), gzip(pickle));
        refused(FuzzTest.launch(command, "--max-input", (pickle.length - 1) + "B", f.toString()), f,
                "unzips to more than " + (pickle.length - 1) + " B", "raise it with --max-input SIZE");
        FuzzTest.Outcome fits = FuzzTest.launch(command, "--max-input", pickle.length + "B", f.toString());
        assertThat(fits.status()).as(fits.err()).isZero();
        FuzzTest.Outcome tooHigh = FuzzTest.launch(command, "--max-input", "2GiB", f.toString());
        assertThat(tooHigh.status()).isEqualTo(2);
        assertThat(tooHigh.err()).hasLineCount(1).contains("--max-input", "expected a size up to 1 GiB");
    }

    private static byte[] zeros(int mib) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out, 1 << 16)) {
            byte[] chunk = new byte[1 << 20];
            for (int i = 0; i < mib; i++) z.write(chunk);
        }
        return out.toByteArray();
    }

    @Test
    @DisplayName("found by the fuzzer: replay of a gzip whose deflate data breaks early exited 1 ('invalid literal/lengths set')")
    void brokenGzipStream() throws IOException {
        byte[] z = gzip("[{\"device_traces\": []}]".repeat(200).getBytes(StandardCharsets.US_ASCII));
        for (int i = 12; i < z.length - 8; i += 3) z[i] ^= 0x5a;        // the header intact, the data broken
        Path f = Files.write(dir.resolve("broken.json.gz"), z);
        refused(FuzzTest.launch("replay", f.toString()), f, "gzip");
    }

    @Test
    @DisplayName("a gzip cut inside its header: exit 2, not a reading exception")
    void cutHeader() throws IOException {
        byte[] z = Arrays.copyOf(gzip("alloc a 1\n".getBytes(StandardCharsets.US_ASCII)), 5);
        Path f = Files.write(dir.resolve("cut.gz"), z);
        refused(FuzzTest.launch("replay", f.toString()), f, "not a readable gzip file: it ends early, so it was cut short");
    }

    @Test
    @DisplayName("a text trace of one endless line (gzip of zeros): refused at line 1")
    void endlessLine() throws IOException {
        Path f = Files.write(dir.resolve("zeros.gz"), gzip(new byte[4 << 20]));
        FuzzTest.Outcome o = FuzzTest.launch("replay", f.toString());
        refused(o, f, ":1: a line longer than 1 MiB");
        assertThat(o.allocated()).isLessThan(64L << 20);
    }

    @Test
    @DisplayName("found by the fuzzer: quiz --check of a sheet with a byte that is not UTF-8 exited 1 ('Input length = 1')")
    void sheetNotUtf8() throws IOException {
        Path f = dir.resolve("sheet.txt");
        Files.write(f, "chapter = ch03\nstudent = \nq3.1.a.size = 5\u00ff12\n".getBytes(StandardCharsets.ISO_8859_1));
        refused(FuzzTest.launch("quiz", "ch03", "--check", f.toString()), f,
                "sheet.txt:3: byte 41 (0xff) is not UTF-8 text");
    }

    @Test
    @DisplayName("a sheet over 1 MiB is refused with its limit")
    void sheetTooLarge() throws IOException {
        Path f = Files.writeString(dir.resolve("big.txt"), "# x\n".repeat(300_000));
        refused(FuzzTest.launch("quiz", "ch03", "--check", f.toString()), f, "larger than 1 MiB");
    }

    @Test
    @DisplayName("found by the fuzzer: a segment on device 2^31 - 1 (or -1) reached the simulator and exited 1")
    void deviceIndex() throws IOException {
        Map<String, Object> seg = new HashMap<>(Map.of("address", 0, "total_size", 2097152, "device", Integer.MAX_VALUE,
                "segment_type", "large", "stream", 0,
                "blocks", List.of(Map.of("address", 0, "size", 2097152, "state", "inactive"))));
        Path f = Files.write(dir.resolve("dev.pickle"),
                SnapshotWriter.pickle(new HashMap<>(Map.of("segments", List.of(seg), "device_traces", List.of()))));
        refused(FuzzTest.launch("replay", f.toString()), f,
                "segments[0].device: device 2147483647; the kit simulates devices 0 to 15");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise"})
    @DisplayName("found by the fuzzer: a snapshot whose sizes imply a card of a petabyte ran the heap out; refused")
    void hugeCard(String command) throws IOException {
        long pib = 1L << 50;
        Path f = Files.write(dir.resolve("card.pickle"), cardPickle(List.of(0L), pib, pib));
        FuzzTest.Outcome o = FuzzTest.launch(command, f.toString());
        refused(o, f, "card.pickle: segments[0].total_size is 1125899906842624: expected a number of bytes, 0 to"
                + " 4398046511104 (4 TiB, the largest card the kit simulates)");
        assertThat(o.allocated()).isLessThan(64L << 20);

        long tib4 = 4L << 40;      // each segment and the device_free as large as a card can be: their sum is not
        f = Files.write(dir.resolve("sum.pickle"), cardPickle(List.of(0L, tib4, 2 * tib4), tib4, tib4));
        o = FuzzTest.launch(command, f.toString());
        refused(o, f, "is more than the kit simulates, 4 TiB; give --device SIZE");
        assertThat(o.allocated()).isLessThan(64L << 20);
    }

    /** Segments of {@code size} bytes at {@code addresses}, all live, and an oom that reports {@code free}. */
    private static byte[] cardPickle(List<Long> addresses, long size, long free) {
        List<Object> segs = new java.util.ArrayList<>();
        for (long at : addresses) {
            segs.add(new HashMap<>(Map.of("address", at, "total_size", size, "device", 0, "segment_type", "large",
                    "stream", 0, "blocks", List.of(Map.of("address", at, "size", size, "state", "active_allocated")))));
        }
        Map<String, Object> oom = Map.of("action", "oom", "addr", 0, "size", 2097152, "stream", 0, "device_free", free);
        return SnapshotWriter.pickle(new HashMap<>(Map.of("segments", segs, "device_traces", List.of(List.of(oom)))));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("a negative size in a history entry is bad input at its field (it reached the allocator and exited 1)")
    void negativeSize(String command) throws IOException {
        Map<String, Object> seg = new HashMap<>(Map.of("address", 0, "total_size", 2097152, "device", 0,
                "segment_type", "large", "stream", 0,
                "blocks", List.of(Map.of("address", 0, "size", 2097152, "state", "inactive"))));
        List<Object> trace = List.of(Map.of("action", "segment_alloc", "addr", 0, "size", 2097152, "stream", 0),
                Map.of("action", "alloc", "addr", 0, "size", -4096, "stream", 0));
        Path f = Files.write(dir.resolve("neg.pickle"), SnapshotWriter.pickle(new HashMap<>(Map.of(
                "segments", List.of(seg), "device_traces", List.of(trace)))));
        refused(FuzzTest.launch(command, f.toString()), f,
                "neg.pickle: device_traces[0][1].size is -4096: expected a number of bytes, 0 or more");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("a folder given as the file: cannot read it, exit 2 (replay called it an internal error, exit 1)")
    void folder(String command) throws IOException {
        Path f = Files.createDirectory(dir.resolve("run.pickle"));
        FuzzTest.Outcome o = FuzzTest.launch(command, f.toString());
        refused(o, f, f + ": cannot read it: ");
        assertThat(o.err()).doesNotContain("internal error");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("a file that cannot be opened (a path through a plain file, a symbolic link loop): cannot read it,"
            + " exit 2 (advise and triage called it an internal error, exit 1)")
    void cannotOpen(String command) throws IOException {
        Path plain = Files.writeString(dir.resolve("notes.txt"), "a plain file\n");
        Path through = plain.resolve("run.pickle");                 // open(2): ENOTDIR, as root too
        FuzzTest.Outcome o = FuzzTest.launch(command, through.toString());
        refused(o, through, through + ": cannot read it: Not a directory");
        assertThat(o.err()).doesNotContain("internal error");
        Path loop = dir.resolve("loop.pickle");
        Files.createSymbolicLink(loop, loop);                      // open(2): ELOOP, as root too
        o = FuzzTest.launch(command, loop.toString());
        refused(o, loop, loop + ": cannot read it: ");
        assertThat(o.err()).doesNotContain("internal error");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("a file without read permission (chmod 000): cannot read it: Permission denied, exit 2")
    void noPermission(String command) throws IOException {
        Path f = Files.writeString(dir.resolve("run.pickle"), "alloc a 1MiB\n");
        Files.setPosixFilePermissions(f, java.util.Set.of());
        Assumptions.assumeFalse(Files.isReadable(f),
                "skipped: " + f + " is readable with mode 000 (running as root), so open(2) cannot be refused here;"
                        + " cannotOpen covers the same path with ENOTDIR and ELOOP");
        FuzzTest.Outcome o = FuzzTest.launch(command, f.toString());
        refused(o, f, f + ": cannot read it: Permission denied");
        assertThat(o.err()).doesNotContain("internal error");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise", "triage"})
    @DisplayName("an empty snapshot (a dump that failed) is refused by name, not read as a trace of 0 events")
    void emptySnapshot(String command) throws IOException {
        for (String name : List.of("run.pickle", "run.pickle.gz", "RUN.PKL", "run.json")) {
            Path f = Files.write(dir.resolve(name), new byte[0]);
            refused(FuzzTest.launch(command, f.toString()), f, f + ": empty file: 0 bytes, where a memory"
                    + " snapshot (pickle or JSON) was expected");
        }
        Path z = Files.write(dir.resolve("zipped.pickle.gz"), gzip(new byte[0]));
        refused(FuzzTest.launch(command, z.toString()), z, z + ": empty file: it unzips to 0 bytes");
    }

    @Test
    @DisplayName("an empty trace is still a trace of 0 events: only a file named as a snapshot must hold one")
    void emptyTrace() throws IOException {
        Path f = Files.write(dir.resolve("t.txt"), new byte[0]);
        CliRun r = CliRun.of("replay", f.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("events: 0,");
    }

    @Test
    @DisplayName("an unexpected failure is one line without a Java type name, exit 1")
    void unexpected() {
        assertThat(Main.unexpected(new IllegalStateException("the books do not balance\nsecond line")))
                .isEqualTo("the books do not balance (an internal error of the kit: VRAMLAB_DEBUG=1 prints where)");
        assertThat(Main.unexpected(new ClassCastException("class java.util.HashMap cannot be cast")))
                .startsWith("an internal error (").doesNotContain("java.");
        assertThat(Main.unexpected(new StackOverflowError())).startsWith("its input nests too deep");
    }

    @Test
    @DisplayName("a step of the cores not written yet (a student's copy) is named with what to read, not called an internal error")
    void todoInTheCores() {
        vramlab.lab.Todo todo = new vramlab.lab.Todo("3.1", "Round a request", "ch03 \"Rule 1\"",
                "labs/src/main/java/vramlab/alloc/ToyPolicy.java");
        String expected = "it runs your cores in labs/, and step 3.1 is not done: TODO step 3.1 (Round a request) is not"
                + " written yet: read the notes, ch03 \"Rule 1\", then write it in labs/src/main/java/vramlab/alloc/ToyPolicy.java";
        assertThat(Main.failure(todo)).isEqualTo(expected);
        assertThat(Main.failure(new IllegalStateException("wrapped", todo))).isEqualTo(expected);
        assertThat(Main.failure(new IllegalStateException("the books do not balance"))).isEqualTo(
                Main.unexpected(new IllegalStateException("the books do not balance")));
    }
}
