package vramlab.ch04;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The lab prints the nine lines of the published fragmentation example, each block contiguous. The expected text is the
 * published output of the original Python listing (CPython 3.11), typed in, not this code's own output.
 */
class RealOomLabTest {
    static final String FRAGMENTATION = """
            fill:  reserved=40M allocated=40M requested=32M
            freed: reserved=40M allocated=24M requested=20M free=16M largest=4M
            segment 0: seg0[0..4)M 4M FREE seg0[4..10)M 6M LIVE seg0[10..14)M 4M FREE seg0[14..20)M 6M LIVE
            OOM: CUDA out of memory. Tried to allocate 20 MiB (device 40 MiB; 40 MiB reserved; \
            16 MiB is reserved but unallocated; largest free block 4 MiB)
            4 MiB alloc from a hole: OK -> seg0[0..4)M 4M LIVE
            empty_cache() released: 0 MiB
            """;
    static final String EXPANDABLE = """
            expandable fill:            mapped=40M
            expandable freed 4 MiB side: mapped=24M (pages returned NOW)
            expandable 8 MiB alloc:     OK at VA +40M, mapped=32M
            """;

    @Test
    @DisplayName("./vramlab lab real-oom prints the nine lines, each block contiguous")
    void printsTheNineLines() {
        var bytes = new ByteArrayOutputStream();
        RealOomLab.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains(FRAGMENTATION).contains(EXPANDABLE).contains("What to notice");
    }

    @Test
    @DisplayName("freeing everything and emptying the cache returns all 40 MiB, then 8 MiB fits")
    void freeEverythingThenEmpty() {
        var sim = RealOomLab.fragmentation(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        var live = new java.util.ArrayList<vramlab.alloc.Block>();
        sim.allocator().segments().forEach(s -> s.blocks().stream()
                .filter(vramlab.alloc.Block::isAllocated).forEach(live::add));
        live.forEach(sim::free);
        assertThat(sim.emptyCache()).isEqualTo(vramlab.units.Bytes.mib(40));
        assertThat(sim.alloc(vramlab.units.Bytes.mib(8)).toString()).isEqualTo("seg2[0..8)M 8M LIVE");
    }
}
