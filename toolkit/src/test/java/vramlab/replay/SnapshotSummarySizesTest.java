package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.snapshot.Snapshot;
import vramlab.units.Bytes;

/**
 * replay's recorded/replayed rows of a snapshot in bytes were bare numbers (3781165056) where
 * every other figure of the report is a size as PyTorch writes it; each is now followed by a line
 * with the same two as sizes, and the byte rows are unchanged for scripts.
 */
@DisplayName("replay's reserved rows of a snapshot: bytes for scripts, then the same as sizes")
class SnapshotSummarySizesTest {
    @Test
    @DisplayName("under reserved and peak reserved, their recorded and replayed figures as sizes")
    void sizesUnderBytes() {
        Snapshot s = FractionMarginTest.recorded();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        SnapshotSummary.print(WhatIf.run(s, s.device(0), SnapshotReplay.Options.recorded(), (step, e, r, b, a) -> { }, false), out);
        String text = bytes.toString(StandardCharsets.UTF_8);
        for (String row : new String[] {"reserved", "peak reserved"}) {
            Matcher m = Pattern.compile("(?m)^  " + row + " +(\\d+) +(\\d+)\\n {17}( *)(\\S+ \\S+) +(\\S+ \\S+)$").matcher(text);
            assertThat(m.find()).as("%s, then a line of sizes, in:%n%s", row, text).isTrue();
            assertThat(m.group(4)).isEqualTo(Bytes.formatSize(Long.parseLong(m.group(1))));
            assertThat(m.group(5)).isEqualTo(Bytes.formatSize(Long.parseLong(m.group(2))));
        }
    }
}
