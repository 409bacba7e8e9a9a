package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.snapshot.Snapshot;

/**
 * A replayed OOM message's "total capacity" is the replay's CUDA total, PyTorch's share of the
 * card (no snapshot records the card's total), where PyTorch's names the card's total as CUDA
 * reports it, fraction or none (CUDACachingAllocator.cpp, malloc's {@code device_total}). The
 * summary said nothing of it, so the share passed for the card beside the user's own message;
 * a line under the messages now says which figure it is.
 */
@DisplayName("replay of a snapshot: a line under the OOM messages says their total capacity is PyTorch's share")
class SnapshotTotalCapacityTest {
    private static String summary(WhatIf w) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SnapshotSummary.print(w, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("600 MiB of live blocks on a 500 MiB share: the messages say 500.00 MiB, and the line says what that is")
    void withoutFraction() {
        Snapshot s = FractionMarginTest.recorded();
        String text = summary(FractionMarginTest.on(s, "", 500 * MiB));
        assertThat(text).contains("has a total capacity of 500.00 MiB of which ")
                .contains("\n  (in these messages the total capacity is PyTorch's share, 500.00 MiB, which the replay"
                        + " takes for CUDA's total, and this process's memory leaves out its CUDA context: PyTorch's"
                        + " message names the card's total as CUDA reports it, context and other processes included,"
                        + " with or without a memory fraction; no snapshot records it)\n");
    }

    @Test
    @DisplayName("under a fraction the total is still the share, not the allowed bytes, and the line is the same")
    void underFraction() {
        Snapshot s = FractionMarginTest.recorded();
        String text = summary(FractionMarginTest.on(s, "per_process_memory_fraction:0.5", 1000 * MiB));
        assertThat(text).contains("has a total capacity of 1000.00 MiB of which ")
                .contains("500.00 MiB allowed; ")
                .contains("\n  (in these messages the total capacity is PyTorch's share, 1000.00 MiB,");
    }

    @Test
    @DisplayName("no OOM, no line")
    void noOom() {
        Snapshot s = FractionMarginTest.recorded();
        assertThat(summary(FractionMarginTest.on(s, "", 1000 * MiB))).doesNotContain("in these messages");
    }
}
