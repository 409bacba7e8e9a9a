package vramlab.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.trace.TraceException;
import vramlab.trace.TraceReader;

/**
 * Files made to hurt the readers, each refused in one line at its place and at a cost bounded
 * by its own size: the allocations of the thread that reads are measured (HotSpot's per-thread
 * count), never the time. Several are crashes the fuzzer ({@code vramlab.cli.FuzzTest}) found.
 */
@DisplayName("Hostile files are refused at their place, having cost no more than their size")
class HostileInputsTest {
    private static final byte[] PROTO = {(byte) 0x80, 4};

    /** Bytes the thread allocates while {@code run} runs, with what it threw (or null). */
    static long allocatedBy(Runnable run) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(id);
        try {
            run.run();
        } catch (TraceException expected) {
            // measured either way; the tests assert on the refusal separately
        }
        return mx.getThreadAllocatedBytes(id) - before;
    }

    static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) out[i] = (byte) b[i];
        return out;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) out.writeBytes(p);
        return out.toByteArray();
    }

    static String refusal(Supplier<?> read) {
        try {
            read.get();
        } catch (TraceException e) {
            assertThat(e.getMessage()).doesNotContain("java.", "Exception").hasLineCount(1);
            return e.getMessage();
        }
        throw new AssertionError("not refused");
    }

    @Nested
    @DisplayName("declared lengths are checked against the bytes that remain, before anything is allocated")
    class DeclaredLengths {
        @Test
        @DisplayName("a 10-byte pickle that declares a 2 GiB string is refused at byte 2 having allocated under 1 MiB")
        void twoGibString() {
            byte[] file = concat(PROTO, bytes('X', 0xff, 0xff, 0xff, 0x7f), "abc".getBytes(StandardCharsets.US_ASCII));
            assertThat(file).hasSize(10);
            assertThat(refusal(() -> SnapshotReader.read(file, "s.pickle")))
                    .isEqualTo("s.pickle: byte 2: BINUNICODE declares 2147483647 bytes but the file has 3 left after it;"
                            + " the file does not end with STOP, a pickle's last opcode: was it cut short?");
            assertThat(allocatedBy(() -> SnapshotReader.read(file, "s.pickle"))).isLessThan(1 << 20);
        }

        @Test
        @DisplayName("a snapshot cut short anywhere says so, whatever opcode it was cut in; a whole one ends with STOP")
        void cutShort() {
            byte[] whole = SnapshotWriter.pickle(new java.util.HashMap<>(java.util.Map.of("segments", java.util.List.of(),
                    "device_traces", java.util.List.of(java.util.List.of(java.util.Map.of("action", "alloc", "addr", 0,
                            "size", 512, "stream", 0))))));
            assertThat(whole[whole.length - 1]).isEqualTo((byte) '.');
            for (int n = 3; n < whole.length; n++) {
                byte[] cut = java.util.Arrays.copyOf(whole, n);
                if (cut[n - 1] == '.') continue;                  // ends with a byte that reads as STOP
                assertThat(refusal(() -> SnapshotReader.read(cut, "s.pickle"))).as("cut at " + n)
                        .startsWith("s.pickle: byte ").endsWith("was it cut short?");
            }
        }

        @Test
        @DisplayName("BINUNICODE reads its length unsigned, as CPython does: 0xffffffff is 4 GiB, not -1")
        void unsigned() {
            byte[] file = concat(PROTO, bytes('X', 0xff, 0xff, 0xff, 0xff, '.'));
            assertThat(refusal(() -> SnapshotReader.read(file, "s.pickle"))).contains("declares 4294967295 bytes");
        }

        @Test
        @DisplayName("the 8-byte lengths (BINUNICODE8, BINBYTES8, BYTEARRAY8) up to 2^64 - 1")
        void eightByte() {
            for (int op : new int[] {0x8d, 0x8e, 0x96}) {
                byte[] file = concat(PROTO, bytes(op, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, '.'));
                assertThat(refusal(() -> SnapshotReader.read(file, "s.pickle")))
                        .contains("byte 2: ").contains("declares 18446744073709551615 bytes but the file has 1 left");
            }
        }

        @Test
        @DisplayName("BINSTRING's and LONG4's lengths are signed, as CPython's: a negative one is refused by name")
        void signed() {
            byte[] file = concat(PROTO, bytes('T', 0xff, 0xff, 0xff, 0xff, '.'));
            assertThat(refusal(() -> SnapshotReader.read(file, "s.pickle")))
                    .contains("BINSTRING declares a negative length, -1");
        }

        @Test
        @DisplayName("an integer (LONG4) of more than 64 bytes is refused, though the file holds them")
        void longInteger() {
            byte[] digits = new byte[100];
            byte[] file = concat(PROTO, bytes(0x8b, 100, 0, 0, 0), digits, bytes('.'));
            assertThat(refusal(() -> SnapshotReader.read(file, "s.pickle")))
                    .contains("LONG4 declares an integer of 100 bytes");
        }

        @Test
        @DisplayName("an integer written as text (INT, LONG) of more than 64 digits is refused: text to BigInteger is quadratic")
        void textInteger() {
            byte[] file = concat(PROTO, "L".getBytes(StandardCharsets.US_ASCII),
                    "9".repeat(100_000).getBytes(StandardCharsets.US_ASCII), bytes('\n', '.'));
            assertThat(refusal(() -> SnapshotReader.read(file, "s.pickle")))
                    .contains("byte 2: LONG writes a number of more than 64 characters");
        }
    }

    @Nested
    @DisplayName("a pickle that asks for anything but data is not a memory snapshot, and nothing it names is loaded")
    class Globals {
        @Test
        @DisplayName("os.system by GLOBAL (protocol 2, as pickle.dumps writes it on Linux: posix.system)")
        void osSystemGlobal() {
            byte[] file = HexFormat.of().parseHex(
                    "800263706f7369780a73797374656d0a7100580a0000006563686f2070776e656471018571025271032e");
            assertThat(refusal(() -> SnapshotReader.read(file, "evil.pickle"))).startsWith(
                    "evil.pickle: byte 2: not a memory snapshot: it calls posix.system, that is os.system (GLOBAL");
        }

        @Test
        @DisplayName("os.system by STACK_GLOBAL (protocol 4), named from the two strings before it")
        void osSystemStackGlobal() {
            byte[] file = HexFormat.of().parseHex(
                    "80049525000000000000008c05706f736978948c0673797374656d9493948c0a6563686f2070776e656494859452942e");
            assertThat(refusal(() -> SnapshotReader.read(file, "evil.pickle")))
                    .startsWith("evil.pickle: byte 28: not a memory snapshot: it calls posix.system, that is os.system");
        }

        @Test
        @DisplayName("a global naming a Java class: refused, and the class is never loaded")
        void javaClassNeverLoaded() {
            String name = Trap.class.getName();
            int dot = name.lastIndexOf('.');
            byte[] file = concat(PROTO, ("c" + name.substring(0, dot) + "\n" + name.substring(dot + 1) + "\n)R.")
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(refusal(() -> SnapshotReader.read(file, "evil.pickle"))).contains("it calls " + name);
            assertThat(trapInitialized).isFalse();
        }

        @Test
        @DisplayName("a call, a build, a persistent id, an extension, a buffer or a set: refused by opcode name")
        void otherOpcodes() {
            Map<Integer, String> ops = Map.of('R' + 0, "REDUCE", 'b' + 0, "BUILD", 'Q' + 0, "BINPERSID",
                    0x82, "EXT1", 0x97, "NEXT_BUFFER", 0x8f, "EMPTY_SET", 0x81, "NEWOBJ");
            ops.forEach((op, name) -> assertThat(refusal(() -> SnapshotReader.read(
                    concat(PROTO, bytes(']', ']', op, '.')), "s.pickle")))
                    .startsWith("s.pickle: byte 4: not a memory snapshot: " + name));
        }
    }

    /** Set by {@link Trap}'s static initializer: true once anything made the JVM initialize it. */
    static volatile boolean trapInitialized;

    /** A class a pickle names; only its initialization would set {@link #trapInitialized}. */
    static final class Trap {
        static {
            trapInitialized = true;
        }
    }

    @Nested
    @DisplayName("the shape: no container that holds itself, no list as a dict key, nesting at most 64 deep")
    class Shapes {
        @Test
        @DisplayName("a list that contains itself (memo) is refused, not printed or hashed forever")
        void cycle() {
            byte[] file = bytes(0x80, 2, ']', 'q', 0, 'h', 0, 'a', '.');
            assertThat(refusal(() -> SnapshotReader.read(file, "c.pickle")))
                    .isEqualTo("c.pickle: not a memory snapshot: a list of 1 item contains itself"
                            + " (a pickle can write that; a snapshot never does)");
        }

        @Test
        @DisplayName("a dict keyed by a list that contains itself is refused before it is hashed")
        void unhashableKey() {
            byte[] file = bytes(0x80, 2, '}', ']', 'q', 0, 'h', 0, 'a', 'N', 's', '.');
            assertThat(refusal(() -> SnapshotReader.read(file, "k.pickle")))
                    .contains("byte 10: broken pickle: SETITEM uses a list of 1 item as a dict key");
        }

        @Test
        @DisplayName("100,000 nested lists are refused at depth 64, with no stack overflow")
        void deepPickle() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(PROTO);
            for (int i = 0; i < 100_000; i++) out.write(']');
            for (int i = 1; i < 100_000; i++) out.write('a');
            out.write('.');
            assertThat(refusal(() -> SnapshotReader.read(out.toByteArray(), "d.pickle")))
                    .contains("nests more than 64 levels deep");
        }

        @Test
        @DisplayName("100,000 nested JSON arrays are refused at depth 64, at their line and column")
        void deepJson() {
            byte[] file = ("[".repeat(100_000) + "]".repeat(100_000)).getBytes(StandardCharsets.US_ASCII);
            assertThat(refusal(() -> SnapshotReader.read(file, "d.json")))
                    .startsWith("d.json:1:66:").contains("nesting depth (65) exceeds the maximum allowed (64)")
                    .doesNotContain("StreamReadConstraints");
        }

        @Test
        @DisplayName("a JSON number of 5,000 digits is refused (Jackson's 1,000-digit cap)")
        void longJsonNumber() {
            byte[] file = ("{\"device_traces\": [" + "1".repeat(5000) + "]}").getBytes(StandardCharsets.US_ASCII);
            assertThat(refusal(() -> SnapshotReader.read(file, "n.json"))).startsWith("n.json:1:");
        }

        @Test
        @DisplayName("200,000 one-item APPENDS onto one list cost linear work, not the library's trim after each")
        void manyAppends() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(PROTO);
            out.write(']');
            for (int i = 0; i < 200_000; i++) out.writeBytes(bytes('(', 'K', 1, 'e'));
            out.write('.');
            byte[] file = out.toByteArray();
            long cost = allocatedBy(() -> SnapshotReader.load(file, "a.pickle"));
            // trimming a list of n items after each append copies n references each time: some
            // 80 GB here; the linear append allocates a few MB
            assertThat(cost).isLessThan(64L << 20);
            assertThat(refusal(() -> SnapshotReader.read(file, "a.pickle"))).contains("not a memory snapshot");
        }

        @Test
        @DisplayName("a field of the wrong kind is said in the snapshot's words, not Java's")
        void foundInWords() {
            Map<String, Object> root = Map.of("device_traces", List.of(), "segments",
                    List.of(Map.of("address", "0x7f", "total_size", 0, "blocks", List.of())));
            byte[] file = SnapshotWriter.pickle(new java.util.HashMap<>(root));
            assertThat(refusal(() -> SnapshotReader.read(file, "w.pickle")))
                    .isEqualTo("w.pickle: segments[0] has no integer 'address' (found the string '0x7f')");
        }
    }

    @Nested
    @DisplayName("decompression is capped: a gzip bomb is refused having held only its compressed bytes")
    class GzipBombs {
        static byte[] zeros(int mib) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream z = new GZIPOutputStream(out, 1 << 16)) {
                byte[] chunk = new byte[1 << 20];
                for (int i = 0; i < mib; i++) z.write(chunk);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return out.toByteArray();
        }

        @Test
        @DisplayName("128 MiB of zeros in 8 gzip members (no trailer gives it away), cap 64 MiB: refused, under 4 MiB allocated")
        void multiMember() {
            byte[] member = zeros(16);
            byte[] bomb = concat(member, member, member, member, member, member, member, member);
            long cap = 64L << 20;
            assertThat(refusal(() -> SnapshotInput.readAll(new ByteArrayInputStream(bomb), "b.gz", cap)))
                    .isEqualTo("b.gz: unzips to more than 64 MiB (67108864 bytes), the limit for one file: counted"
                            + " 67108865 bytes unzipped from its " + bomb.length + " and stopped, holding none of them;"
                            + " raise it with --max-input SIZE (at most 1 GiB)");
            assertThat(allocatedBy(() -> SnapshotInput.readAll(new ByteArrayInputStream(bomb), "b.gz", cap)))
                    .isLessThan(4L << 20);
        }

        @Test
        @DisplayName("a 2 MB gzip that unzips to 2 GiB is refused at the commands' 256 MiB default having"
                + " unzipped 256 MiB + 1 byte and allocated under 16 MiB")
        void twoGib() {
            byte[] member = zeros(64);
            byte[][] members = new byte[32][];
            java.util.Arrays.fill(members, member);
            byte[] bomb = concat(members);
            assertThat(bomb.length).isLessThan(3 << 20);
            assertThat(SnapshotInput.DEFAULT_LIMIT).isEqualTo(256L << 20);
            String[] refusal = new String[1];
            long cost = allocatedBy(() -> {                       // one pass: it unzips 256 MiB to count
                try {
                    SnapshotInput.readAll(new ByteArrayInputStream(bomb), "b.gz");
                } catch (TraceException e) {
                    refusal[0] = e.getMessage();
                }
            });
            assertThat(refusal[0]).startsWith("b.gz: unzips to more than 256 MiB (268435456 bytes), the limit for"
                    + " one file: counted 268435457 bytes unzipped").endsWith("--max-input SIZE (at most 1 GiB)");
            assertThat(cost).isLessThan(16L << 20);
        }

        @ParameterizedTest(name = "a bomb of {0} MiB")
        @ValueSource(ints = {9, 64})
        @DisplayName("counting stops one byte past the cap, whatever the gzip trailer declares")
        void countingStopsAtTheCap(int mib) throws IOException {
            byte[] bomb = zeros(mib);
            long cap = 8L << 20;
            assertThat(SnapshotInput.unzippedSize(bomb, cap)).isEqualTo(cap + 1);
            // the trailer's ISIZE is the size modulo 2^32 (RFC 1952, 2.3.1): a 4 GiB + 1 KiB bomb
            // declares 1 KiB. Made to say so, this one is counted and refused all the same.
            java.nio.ByteBuffer.wrap(bomb, bomb.length - 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(1024);
            assertThat(SnapshotInput.unzippedSize(bomb, cap)).isEqualTo(cap + 1);
            assertThat(refusal(() -> SnapshotInput.readAll(new ByteArrayInputStream(bomb), "b.gz", cap)))
                    .contains("counted " + (cap + 1) + " bytes unzipped");
        }

        @Test
        @DisplayName("at the most the kit reads (1 GiB) the refusal offers no higher limit; above it a limit is refused")
        void ceiling() {
            byte[] file = new byte[1 << 10];
            assertThat(refusal(() -> SnapshotInput.readAll(new ByteArrayInputStream(file), "p", 100)))
                    .endsWith("raise it with --max-input SIZE (at most 1 GiB)");
            assertThatThrownBy(() -> SnapshotInput.readAll(new ByteArrayInputStream(file), "p",
                    SnapshotInput.MAX_INPUT + 1)).isInstanceOf(IllegalArgumentException.class);
            assertThat(SnapshotInput.readAll(new ByteArrayInputStream(file), "p", SnapshotInput.MAX_INPUT)).hasSize(1 << 10);
        }

        @Test
        @DisplayName("a file larger than the cap is refused after reading one byte past it")
        void plainTooLarge() {
            byte[] file = new byte[1 << 20];
            assertThat(refusal(() -> SnapshotInput.readAll(new ByteArrayInputStream(file), "p.pickle", 1000)))
                    .startsWith("p.pickle: is larger than 1000 B (1000 bytes), the limit for one file: refused after reading 1001 bytes");
        }

        @Test
        @DisplayName("what fits is read whole, zipped or not (the cap counts the unzipped bytes)")
        void fits() {
            byte[] text = "alloc a 1MiB\n".repeat(1000).getBytes(StandardCharsets.US_ASCII);
            assertThat(SnapshotInput.readAll(new ByteArrayInputStream(text), "t", text.length)).isEqualTo(text);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream z = new GZIPOutputStream(out)) {
                z.write(text);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertThat(SnapshotInput.readAll(new ByteArrayInputStream(out.toByteArray()), "t.gz", text.length))
                    .isEqualTo(text);
            assertThat(refusal(() -> SnapshotInput.readAll(new ByteArrayInputStream(out.toByteArray()), "t.gz",
                    text.length - 1))).contains("unzips to more than");
        }

        @Test
        @DisplayName("an empty file named as a snapshot (a dump that failed) is refused by name; an empty trace or message is read")
        void empty() {
            byte[] none = new byte[0];
            for (String name : new String[] {"run.pickle", "run.pickle.gz", "run.pkl", "Run.JSON", "r.json.gz"}) {
                assertThat(refusal(() -> SnapshotInput.readAll(new ByteArrayInputStream(none), name))).isEqualTo(name
                        + ": empty file: 0 bytes, where a memory snapshot (pickle or JSON) was expected; a dump that"
                        + " failed or was cut short leaves such a file");
            }
            ByteArrayOutputStream zipped = new ByteArrayOutputStream();
            try (GZIPOutputStream z = new GZIPOutputStream(zipped)) {
                z.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertThat(refusal(() -> SnapshotInput.readAll(new ByteArrayInputStream(zipped.toByteArray()), "z.pickle.gz")))
                    .startsWith("z.pickle.gz: empty file: it unzips to 0 bytes, where");
            for (String name : new String[] {"t.txt", "oom.log", "-", "t.txt.gz", "pickle"}) {
                assertThat(SnapshotInput.readAll(new ByteArrayInputStream(none), name)).as(name).isEmpty();
            }
        }

        @Test
        @DisplayName("a gzip stream cut short or corrupted is one line, not the library's exception")
        void broken() {
            byte[] z = zeros(1);
            byte[] cut = java.util.Arrays.copyOf(z, z.length / 2);
            assertThat(refusal(() -> SnapshotInput.readAll(new ByteArrayInputStream(cut), "c.gz")))
                    .startsWith("c.gz: not a readable gzip file: it ends early, so it was cut short")
                    .doesNotContain("ZLIB");
        }
    }

    @Nested
    @DisplayName("a trace line is at most 1 MiB")
    class TraceLines {
        @Test
        @DisplayName("a file of one endless line (a gzip of zeros, say) is refused at line 1 with a bounded buffer")
        void endlessLine() {
            byte[] file = new byte[3 << 20];
            java.util.Arrays.fill(file, (byte) 'a');
            Runnable read = () -> new TraceReader(new ByteArrayInputStream(file), "t.trace").forEachRemaining(e -> { });
            assertThatThrownBy(read::run).isInstanceOf(TraceException.class).hasMessage(
                    "t.trace:1: a line longer than 1 MiB (1048576 bytes); a trace line is 'alloc <handle> <size>',"
                            + " 'free <handle>' or 'empty_cache'");
            assertThat(allocatedBy(read)).isLessThan(8L << 20);
        }

        @Test
        @DisplayName("an error quotes at most 60 characters of the line, control characters escaped")
        void quoted() {
            String line = "x\u0000" + "y".repeat(100) + "\n";
            assertThatThrownBy(() -> new TraceReader(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)),
                    "t.trace").forEachRemaining(e -> { })).hasMessage(
                    "t.trace:1: unknown command 'x\\x00" + "y".repeat(55) + "...' (expected alloc, free or empty_cache)");
        }
    }
}
