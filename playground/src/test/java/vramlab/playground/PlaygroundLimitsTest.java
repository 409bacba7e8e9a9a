package vramlab.playground;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.SnapshotInput;
import vramlab.snapshot.SnapshotWriter;
import vramlab.units.Bytes;

/**
 * The snapshot page reads with the launcher's limits: the same pickle reader (its declared
 * lengths, its refusals of globals, its shape checks), the same 1 GiB cap on what the browser
 * unzips, and one line for whatever goes wrong.
 */
@DisplayName("The snapshot page's limits are the launcher's")
class PlaygroundLimitsTest {
    @Test
    @DisplayName("the page's unzip cap (playground-ui.js MAX_INPUT) is SnapshotInput.MAX_INPUT, 1 GiB")
    void sameCap() throws IOException {
        String js;
        try (InputStream in = PlaygroundLimitsTest.class.getResourceAsStream("/vramlab/playground/web/playground-ui.js")) {
            assertThat(in).as("playground-ui.js on the class path").isNotNull();
            js = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher m = Pattern.compile("var MAX_INPUT = (\\d+);").matcher(js);
        assertThat(m.find()).as("var MAX_INPUT in playground-ui.js").isTrue();
        assertThat(Long.parseLong(m.group(1))).isEqualTo(SnapshotInput.MAX_INPUT).isEqualTo(Bytes.GiB);
        assertThat(js).contains("reader.cancel()");
    }

    @Test
    @DisplayName("a pickle declaring a 2 GiB string, or calling os.system, is one line on the page")
    void hostile() {
        byte[] declared = {(byte) 0x80, 4, 'X', (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f, 'a', 'b', 'c'};
        assertThat(SnapshotRun.run(declared, "s.pickle", "", "")).isEqualTo(
                "error: s.pickle: byte 2: BINUNICODE declares 2147483647 bytes but the file has 3 left after it;"
                        + " the file does not end with STOP, a pickle's last opcode: was it cut short?\n");
        byte[] evil = HexFormat.of().parseHex(
                "800263706f7369780a73797374656d0a7100580a0000006563686f2070776e656471018571025271032e");
        assertThat(SnapshotRun.run(evil, "evil.pickle", "", ""))
                .startsWith("error: evil.pickle: byte 2: not a memory snapshot: it calls posix.system, that is os.system");
    }

    @Test
    @DisplayName("300 seeded corruptions of a snapshot the kit exports: each a replay or one line 'error: FILE...'")
    void corrupted() {
        CachingAllocator a = new CachingAllocator(new Gpu(Bytes.gib(8)).openToyProcess(), new PyTorchPolicy(""));
        a.trace().record(true, Long.MAX_VALUE);
        SplittableRandom r = new SplittableRandom(34);
        List<Block> live = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            if (live.isEmpty() || r.nextInt(10) < 6) {
                live.add(a.alloc(1 + r.nextLong(Bytes.mib(20))));
            } else {
                a.free(live.remove(r.nextInt(live.size())));
            }
        }
        byte[] good = SnapshotWriter.pickle(MemorySnapshot.of(a));
        assertThat(SnapshotRun.run(good, "good.pickle", "", "")).startsWith("snapshot: good.pickle");
        int errors = 0;
        for (int i = 0; i < 300; i++) {
            byte[] bad = good.clone();
            int n = 1 + r.nextInt(4);
            for (int k = 0; k < n; k++) {
                int at = r.nextInt(bad.length);
                if (r.nextInt(3) == 0) {
                    bad = java.util.Arrays.copyOf(bad, at);
                    if (bad.length == 0) break;
                } else {
                    bad[at] = (byte) r.nextInt(256);
                }
            }
            String out = SnapshotRun.run(bad, "bad.pickle", "", "");
            if (out.startsWith("error: ")) {
                errors++;
                assertThat(out).as("case " + i).startsWith("error: bad.pickle").hasLineCount(1)
                        .doesNotContain("java.", "Exception");
            } else {
                assertThat(out).as("case " + i).startsWith("snapshot: bad.pickle");
            }
        }
        assertThat(errors).as("refusals among 300 corruptions").isPositive();
    }
}
