package vramlab.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The handle table at the edges PIT found no test for. It tells apart handles whose
 * {@code String.hashCode} is equal, whichever way each was added and is looked up: "Aa" and
 * "BB" hash alike, and a NUL in front adds nothing to the hash ({@code 31 * 0 + 0}), so "\0Aa"
 * hashes as "Aa" with one more byte. And it finds a handle with no ASCII byte at all from the
 * bytes a reader holds.
 */
@DisplayName("the handle table at its edges")
class HandlesEdgesTest {

    private static byte[] ascii(String s) { return s.getBytes(StandardCharsets.US_ASCII); }

    @Test
    @DisplayName("added from bytes and never named, looked up by a string of the same hash: the same length or not")
    void fromBytesByString() {
        assertThat("Aa".hashCode()).isEqualTo("BB".hashCode()).isEqualTo("\u0000Aa".hashCode());
        Handles h = new Handles();
        int bb = h.add(ascii("BB"), 0, 2);
        assertThat(h.find("Aa")).as("the same length, other letters").isEqualTo(-1);
        assertThat(h.find("\u0000BB")).as("a NUL more").isEqualTo(-1);
        int nulAa = h.add(ascii("\u0000Aa"), 0, 3);
        assertThat(h.find("Aa")).as("one byte fewer").isEqualTo(-1);
        assertThat(h.find("BB")).isEqualTo(bb);
        assertThat(h.find("\u0000Aa")).isEqualTo(nulAa);
        assertThat(h.name(nulAa)).isEqualTo("\u0000Aa");
    }

    @Test
    @DisplayName("longer than 7 bytes (kept as bytes, not packed): a NUL more or less is another handle")
    void longHandlesOfOtherLengths() {
        String eight = "AaAaAaAa";
        String nine = "\u0000AaAaAaAa";
        assertThat(eight.hashCode()).isEqualTo(nine.hashCode());
        Handles h = new Handles();
        int e = h.add(ascii(eight), 0, 8);
        assertThat(h.find(ascii(nine), 0, 9)).as("nine bytes, not tracked").isEqualTo(-1);
        assertThat(h.findAndRemove(ascii(nine), 0, 9)).isEqualTo(-1);
        int n = h.add(nine);
        assertThat(h.find(ascii(eight), 0, 8)).isEqualTo(e);
        assertThat(h.find(ascii(nine), 0, 9)).isEqualTo(n);
        assertThat(h.findAndRemove(ascii(eight), 0, 8)).isEqualTo(e);
        assertThat(h.find(ascii(eight), 0, 8)).as("removed").isEqualTo(-1);
        assertThat(h.find(nine)).isEqualTo(n);
        assertThat(h.size()).isEqualTo(1);
    }

    @Test
    @DisplayName("a handle with no ASCII byte, tracked from a reader's bytes: its free finds it")
    void noAsciiByte() {
        Handles h = new Handles();
        TraceReader r = new TraceReader(new java.io.ByteArrayInputStream(
                "alloc \u4e2d\u6587 1\nalloc \u00e9 2\nfree \u4e2d\u6587\nalloc \u00e9 3\nfree \ud83d\ude00\n"
                        .getBytes(StandardCharsets.UTF_8)), "f");
        int[] ids = new int[5];
        for (int i = 0; i < ids.length; i++) {
            assertThat(r.advance()).isTrue();
            ids[i] = r.track(h);
        }
        assertThat(ids[1]).isNotEqualTo(ids[0]);
        assertThat(ids[2]).as("the free of \u4e2d\u6587 finds its id").isEqualTo(ids[0]);
        assertThat(ids[3]).as("the second alloc of \u00e9 finds it tracked").isEqualTo(ids[1]);
        assertThat(ids[4]).as("a free of a handle never tracked").isEqualTo(-1);
        assertThat(h.size()).isEqualTo(1);
        byte[] e = "\u00e9".getBytes(StandardCharsets.UTF_8);
        assertThat(h.find(e, 0, e.length)).isEqualTo(ids[1]);
        assertThat(h.find("\u4e2d\u6587")).isEqualTo(-1);
    }
}
