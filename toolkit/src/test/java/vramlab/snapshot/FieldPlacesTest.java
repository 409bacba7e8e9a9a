package vramlab.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.trace.TraceException;

/**
 * A snapshot field the kit cannot read is named where the user can find it: in a JSON file by
 * the line and column where its value starts and by its path, in a pickle by its path alone;
 * never by a line 0 or by an entry's number passed off as a line.
 */
@DisplayName("a bad snapshot field is named by its path, and in JSON by its line and column")
class FieldPlacesTest {

    /** Four segments and a two-entry history, one value to a line, as json.dump(indent=1) lays it out. */
    private static final String JSON = """
            {
             "segments": [
              {"address": 0, "total_size": 2097152, "stream": 0, "segment_type": "large",
               "blocks": [
                {"address": 0, "size": 2097152, "state": "inactive"}
               ]},
              {"address": 4194304, "total_size": 2097152, "stream": 0, "segment_type": "large",
               "blocks": [
                {"address": 4194304, "size": 1048576, "state": "active_allocated"},
                {"address": 5242880,
                 "size": "SIZE",
                 "state": "inactive"}
               ]}
             ],
             "device_traces": [[
              {"action": "alloc", "addr": 4194304, "size": 1048576, "stream": 0},
              ENTRY
             ]]
            }
            """;

    private static String refusal(byte[] bytes, String file) {
        try {
            SnapshotReader.read(bytes, file);
        } catch (TraceException e) {
            return e.getMessage();
        }
        throw new AssertionError(file + " was read");
    }

    /** Line and column (from 1) of the first {@code needle} in {@code text}: the reference the reader must match. */
    private static String place(String text, String needle) {
        int at = text.indexOf(needle);
        assertThat(at).as(needle).isNotNegative();
        int line = 1 + (int) text.substring(0, at).chars().filter(c -> c == '\n').count();
        int column = at - text.lastIndexOf('\n', at - 1);
        return line + ":" + column;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("JSON: a size of the wrong kind is at the line and column of its value")
    void wrongKindInJson() {
        String text = JSON.replace("\"SIZE\"", "\"1 MiB\"").replace("ENTRY", "{\"action\": \"snapshot\"}");
        assertThat(place(text, "\"1 MiB\"")).isEqualTo("11:14");
        assertThat(refusal(utf8(text), "s.json")).isEqualTo("s.json:" + place(text, "\"1 MiB\"")
                + ": segments[1].blocks[1] has no integer 'size' (found the string '1 MiB')");
    }

    @Test
    @DisplayName("JSON: a missing key is at the dict that lacks it")
    void missingKeyInJson() {
        String text = JSON.replace("\"size\": \"SIZE\",", "").replace("ENTRY", "{\"action\": \"snapshot\"}");
        assertThat(refusal(utf8(text), "s.json")).isEqualTo("s.json:" + place(text, "{\"address\": 5242880")
                + ": segments[1].blocks[1] has no integer 'size' (found no such key)");
    }

    @Test
    @DisplayName("JSON: a history entry is at its own line, not at its number in the history")
    void entryInJson() {
        String text = JSON.replace("\"SIZE\"", "1048576").replace("ENTRY", "[\"free\", 4194304]");
        assertThat(refusal(utf8(text), "s.json")).isEqualTo("s.json:" + place(text, "[\"free\"")
                + ": device_traces[0][1] is not a dict (found a list of 2 items)");
        String noAction = JSON.replace("\"SIZE\"", "1048576").replace("ENTRY", "{\"action\": 7, \"addr\": 0}");
        assertThat(refusal(utf8(noAction), "s.json")).isEqualTo("s.json:" + place(noAction, "7, \"addr\"")
                + ": device_traces[0][1] has no 'action' (found the integer 7)");
    }

    @Test
    @DisplayName("JSON: a block state PyTorch never writes is refused at its value, naming the three it writes")
    void unknownStateInJson() {
        String text = JSON.replace("\"SIZE\"", "1048576").replace("ENTRY", "{\"action\": \"snapshot\"}")
                .replace("\"size\": 1048576, \"state\": \"active_allocated\"", "\"size\": 1048576, \"state\": \"allocated\"");
        assertThat(refusal(utf8(text), "s.json")).isEqualTo("s.json:" + place(text, "\"allocated\"")
                + ": segments[1].blocks[0] has a 'state' PyTorch never writes (found the string 'allocated';"
                + " it writes active_allocated, active_pending_free or inactive)");
        String number = text.replace("\"allocated\"", "1");
        assertThat(refusal(utf8(number), "s.json")).contains("segments[1].blocks[0] has a 'state' PyTorch never"
                + " writes (found the integer 1;");
    }

    @Test
    @DisplayName("JSON: blocks that do not add up to total_size are at total_size")
    void totalSizeInJson() {
        String text = JSON.replace("\"SIZE\"", "4096").replace("ENTRY", "{\"action\": \"snapshot\"}");
        assertThat(refusal(utf8(text), "s.json")).isEqualTo("s.json:" + place(text, "2097152, \"stream\": 0, \"segment_type\": \"large\",\n   \"blocks\": [\n    {\"address\": 4194304")
                + ": segments[1]: its blocks cover 1052672 bytes but total_size is 2097152");
    }

    @Test
    @DisplayName("JSON: in the bare list of segments (torch.cuda.memory_snapshot()) the path still says segments[i]")
    void bareList() {
        String text = "[\n {\"address\": 0, \"total_size\": 512, \"blocks\": [{\"size\": 512}]},\n"
                + " {\"address\": 512, \"total_size\": 512,\n  \"blocks\": [{\"size\": null}]}\n]\n";
        assertThat(place(text, "null")).isEqualTo("4:23");
        assertThat(refusal(utf8(text), "l.json")).isEqualTo("l.json:4:23: segments[1].blocks[0] has no integer"
                + " 'size' (found None)");
    }

    @Test
    @DisplayName("a pickle: the path alone, with no line (a pickle has none) and no line 0")
    void pickle() {
        Map<String, Object> block = new HashMap<>(Map.of("address", 0, "size", "1 MiB", "state", "inactive"));
        Map<String, Object> seg = new HashMap<>(Map.of("address", 0, "total_size", 1048576, "blocks", List.of(block)));
        byte[] file = SnapshotWriter.pickle(new HashMap<>(Map.of("segments", List.of(seg), "device_traces",
                List.of(List.of(Map.of("action", "alloc", "addr", 0, "size", 512), List.of("free", 0))))));
        assertThat(refusal(file, "s.pickle"))
                .isEqualTo("s.pickle: segments[0].blocks[0] has no integer 'size' (found the string '1 MiB')");
        block.put("size", 1048576);
        file = SnapshotWriter.pickle(new HashMap<>(Map.of("segments", List.of(seg), "device_traces",
                List.of(List.of(Map.of("action", "alloc", "addr", 0, "size", 512), List.of("free", 0))))));
        assertThat(refusal(file, "s.pickle")).isEqualTo("s.pickle: device_traces[0][1] is not a dict (found a list of 2 items)");
        byte[] notAList = SnapshotWriter.pickle(new HashMap<>(Map.of("segments", 3, "device_traces", List.of())));
        assertThatThrownBy(() -> SnapshotReader.readPickle(notAList, "p.pickle"))
                .hasMessage("p.pickle: segments is not a list (found the integer 3)");
    }

    /** A pickle of one 1 MiB segment (a live block and a free one) and a history of {@code entries}. */
    private static byte[] pickleWith(Map<String, Object> segment, List<Map<String, Object>> entries) {
        return SnapshotWriter.pickle(new HashMap<>(Map.of("segments", List.of(segment),
                "device_traces", List.of(entries))));
    }

    private static Map<String, Object> segment() {
        return new HashMap<>(Map.of("address", 1L << 20, "total_size", 1048576, "segment_type", "large",
                "blocks", List.of(new HashMap<>(Map.of("address", 1L << 20, "size", 524288, "requested_size",
                        524288, "state", "active_allocated")), new HashMap<>(Map.of("address", 3L << 19,
                        "size", 524288, "state", "inactive")))));
    }

    private static Map<String, Object> entry(String action, long addr, long size) {
        return new HashMap<>(Map.of("action", action, "addr", addr, "size", size, "stream", 0));
    }

    @Test
    @DisplayName("a negative size in a history entry is refused at its field with its value, not passed to the allocator")
    void negativeEntrySize() {
        byte[] file = pickleWith(segment(), List.of(entry("segment_alloc", 1L << 20, 1048576),
                entry("alloc", 1L << 20, 524288), entry("free_requested", 1L << 20, 524288),
                entry("alloc", 1L << 20, -4096)));
        assertThat(refusal(file, "s.pickle")).isEqualTo("s.pickle: device_traces[0][3].size is -4096:"
                + " expected a number of bytes, 0 or more");
    }

    @Test
    @DisplayName("JSON: a negative size is at the line and column of its value")
    void negativeSizeInJson() {
        String text = JSON.replace("\"SIZE\"", "1048576")
                .replace("ENTRY", "{\"action\": \"free_requested\", \"addr\": 4194304,\n   \"size\": -1048576}");
        assertThat(refusal(utf8(text), "s.json")).isEqualTo("s.json:" + place(text, "-1048576")
                + ": device_traces[0][1].size is -1048576: expected a number of bytes, 0 or more");
    }

    @Test
    @DisplayName("segment and block sizes are 0 to 4 TiB (no segment is larger than the largest card the kit simulates)")
    void segmentSizes() {
        Map<String, Object> seg = segment();
        seg.put("total_size", -1);
        assertThat(refusal(pickleWith(seg, List.of()), "s.pickle")).isEqualTo("s.pickle: segments[0].total_size"
                + " is -1: expected a number of bytes, 0 to 4398046511104 (4 TiB, the largest card the kit simulates)");
        seg = segment();
        @SuppressWarnings("unchecked")
        Map<String, Object> block = ((List<Map<String, Object>>) seg.get("blocks")).get(1);
        block.put("size", -524288);
        assertThat(refusal(pickleWith(seg, List.of()), "s.pickle")).startsWith("s.pickle: segments[0].blocks[1].size"
                + " is -524288: expected a number of bytes, 0 to");
        block.put("size", 524288);
        block.put("requested_size", -1);
        assertThat(refusal(pickleWith(seg, List.of()), "s.pickle")).isEqualTo("s.pickle: segments[0].blocks[1]"
                + ".requested_size is -1: expected a number of bytes, 0 or more");
        assertThat(refusal(pickleWith(segment(), List.of(entry("segment_alloc", 1L << 50, 1L << 50))), "s.pickle"))
                .isEqualTo("s.pickle: device_traces[0][0].size is 1125899906842624: expected a number of bytes, 0 to"
                        + " 4398046511104 (4 TiB, the largest card the kit simulates)");
    }

    @Test
    @DisplayName("an oom's device_free is 0 to 4 TiB: a negative one or a petabyte is refused at its field, before a card is inferred")
    void deviceFree() {
        for (long free : new long[] {-5, 1L << 62}) {
            Map<String, Object> oom = new HashMap<>(Map.of("action", "oom", "size", 4194304, "stream", 0,
                    "device_free", free));
            assertThat(refusal(pickleWith(segment(), List.of(entry("alloc", 1L << 20, 524288), oom)), "s.pickle"))
                    .isEqualTo("s.pickle: device_traces[0][1].device_free is " + free + ": expected a number of"
                            + " bytes, 0 to 4398046511104 (4 TiB, the largest card the kit simulates)");
        }
    }

    @Test
    @DisplayName("an address is 0 to 2^64 - 1: above 2^63 it keeps its bits, a negative one is refused")
    void addresses() {
        Map<String, Object> seg = segment();
        seg.put("address", -(1L << 20));
        assertThat(refusal(pickleWith(seg, List.of()), "s.pickle")).isEqualTo("s.pickle: segments[0].address is"
                + " -1048576: expected an address, 0 to 2^64 - 1");
        assertThat(refusal(pickleWith(segment(), List.of(entry("free_requested", -1, 524288))), "s.pickle"))
                .isEqualTo("s.pickle: device_traces[0][0].addr is -1: expected an address, 0 to 2^64 - 1");
        java.math.BigInteger high = java.math.BigInteger.ONE.shiftLeft(63).add(java.math.BigInteger.valueOf(1 << 20));
        Map<String, Object> free = new HashMap<>(Map.of("action", "free_requested", "addr", high, "size", 524288));
        Snapshot s = SnapshotReader.read(pickleWith(segment(), List.of(free)), "s.pickle");
        assertThat(s.device(0).trace().get(0).addr()).as("2^63 + 1 MiB keeps its 64 bits").isEqualTo(Long.MIN_VALUE + (1 << 20));
        free.put("addr", java.math.BigInteger.ONE.shiftLeft(64));
        assertThat(refusal(pickleWith(segment(), List.of(free)), "s.pickle")).isEqualTo("s.pickle:"
                + " device_traces[0][0].addr is 18446744073709551616: expected an address, 0 to 2^64 - 1");
    }

    @Test
    @DisplayName("seeded: whichever block's size is broken, the error is at that value's line and column")
    void seeded() {
        Random r = new Random(34);
        for (int trial = 0; trial < 60; trial++) {
            int segments = 1 + r.nextInt(5);
            int badSeg = r.nextInt(segments);
            StringBuilder text = new StringBuilder("{\"device_traces\": [],\n\"segments\": [\n");
            int badBlock = -1;
            for (int s = 0; s < segments; s++) {
                int blocks = 1 + r.nextInt(4);
                if (s == badSeg) badBlock = r.nextInt(blocks);
                text.append(s == 0 ? "" : ",\n").append("{\"address\": ").append(s << 20)
                        .append(", \"total_size\": ").append(blocks * 512).append(",\n \"blocks\": [");
                for (int b = 0; b < blocks; b++) {
                    text.append(b == 0 ? "" : ",").append(r.nextBoolean() ? "\n  " : " ")
                            .append("{\"size\": ").append(s == badSeg && b == badBlock ? "\"BAD\"" : "512").append("}");
                }
                text.append("]}");
            }
            text.append("\n]}\n");
            String t = text.toString();
            assertThat(refusal(utf8(t), "r.json")).as(t).isEqualTo("r.json:" + place(t, "\"BAD\"") + ": segments["
                    + badSeg + "].blocks[" + badBlock + "] has no integer 'size' (found the string 'BAD')");
        }
    }

    @Test
    @DisplayName("JSON Pointer steps are escaped (RFC 6901): a key with a slash is still found")
    void escapedKeys() {
        String text = "{\"a/b\": {\"x~y\": [1,\n 2]}}";
        assertThat(Json.locate(utf8(text), "/a~1b/x~0y/1")).isEqualTo(new Json.Place(2, 2));
        assertThat(Json.locate(utf8(text), "/a~1b/x~0y/2")).isNull();
        assertThat(Json.locate(utf8(text), "/a~1b")).isEqualTo(new Json.Place(1, 9));
    }
}
