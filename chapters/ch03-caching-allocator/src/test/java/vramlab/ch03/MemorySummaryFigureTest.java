package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.MemoryStats;
import vramlab.alloc.MemorySummary;
import vramlab.alloc.Sim;
import vramlab.units.Bytes;

/** The annotated memory_summary is the notes' own table, and its notes are the run's own blocks. */
@DisplayName("memory_summary(), annotated")
class MemorySummaryFigureTest {
    @Test
    @DisplayName("every cell of the printed table appears in the figure, in the table's order")
    void cellsAreTheTable() {
        String svg = Ch03Figures.figureMemorySummary();
        String table = Ch03Outputs.outputMemorySummary();
        int from = 0;
        for (String line : table.split("\n")) {
            String[] cells = line.substring(1, line.length() - 1).split("\\|");
            if (cells.length != 5) continue;
            for (String c : cells) {
                int at = svg.indexOf(">" + c.trim() + "<", from);
                assertThat(at).as("cell '%s' of row '%s' after offset %d", c.trim(), cells[0].trim(), from)
                        .isGreaterThanOrEqualTo(0);
                from = at;
            }
        }
    }

    @Test
    @DisplayName("the notes add up: requested + rounding = allocated, the segments sum to reserved, pinned free = non-releasable")
    void notesAreTheRun() {
        Sim sim = Ch03Outputs.summaryRun();
        MemoryStats stats = sim.allocator().memoryStats();
        long requested = stats.stat("requested_bytes", "all").current();
        long allocated = stats.stat("allocated_bytes", "all").current();
        long reserved = stats.stat("reserved_bytes", "all").current();
        long nonReleasable = stats.stat("inactive_split_bytes", "all").current();
        assertThat(sim.requested()).isEqualTo(requested).isEqualTo(Bytes.mib(5) + 1);
        assertThat(allocated - requested).as("PyTorch rounds 5 MiB + 1 B up to a multiple of 512 B").isEqualTo(511);
        assertThat(sim.allocator().segments()).hasSize(2);
        assertThat(sim.allocator().segments().stream().mapToLong(s -> s.size()).sum()).isEqualTo(reserved);
        assertThat(Ch03Figures.pinnedFree(sim)).as("free bytes beside a live block").isEqualTo(nonReleasable)
                .isEqualTo(Bytes.mib(20) - allocated);
        long releasable = sim.emptyCache();
        assertThat(releasable).as("what empty_cache() returns is reserved less the pinned segment")
                .isEqualTo(reserved - Bytes.mib(20));

        Map<String, Ch03Figures.Note> notes = Ch03Figures.summaryNotes(Ch03Outputs.summaryRun());
        String svg = Ch03Figures.figureMemorySummary();
        for (Ch03Figures.Note n : notes.values()) assertThat(svg).contains(">" + n.text() + "<");
        assertThat(notes.get("Allocated memory").text()).endsWith(Bytes.readable(511) + " more");
        assertThat(notes.get("Non-releasable memory").text()).endsWith(Bytes.readable(nonReleasable));
        assertThat(notes.get("GPU reserved memory").text())
                .contains("2 MiB small (all free)").contains("20 MiB large (holds a live block)");
    }

    @Test
    @DisplayName("the summary's own rows are the statistics it is made from")
    void summaryIsTheStats() {
        String table = MemorySummary.format(Ch03Outputs.summaryRun().allocator().memoryStats(), 0, true);
        assertThat(table).isEqualTo(Ch03Outputs.outputMemorySummary());
    }
}
