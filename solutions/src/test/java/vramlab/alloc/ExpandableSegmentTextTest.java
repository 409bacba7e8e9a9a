package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/** What JShell shows for an {@link ExpandableSegment}: its reservation, pages and what is mapped. */
@DisplayName("An expandable segment prints its reservation and mapped pages")
class ExpandableSegmentTextTest {
    @Test
    @DisplayName("chapter 5's segment: 4 pages of 20 MiB reserved, then the runs mapped")
    void pagesAndRuns() {
        ExpandableSegment s = new ExpandableSegment(new Gpu(mib(64)).openToyProcess(), mib(64), mib(20));
        assertThat(s).hasToString("expandable segment: 4 pages of 20 MiB reserved (80 MiB of address space),"
                + " 0 mapped (0 B)");
        s.map(0, mib(25));
        assertThat(s).hasToString("expandable segment: 4 pages of 20 MiB reserved (80 MiB of address space),"
                + " 2 mapped (40 MiB): pages 0-1");
        s.map(mib(60), mib(1));
        assertThat(s.toString()).endsWith(", 3 mapped (60 MiB): pages 0-1, 3");
    }

    @Test
    @DisplayName("past eight runs of mapped pages, the rest is elided")
    void manyRuns() {
        ExpandableSegment s = new ExpandableSegment(new Gpu(mib(64)).openToyProcess(), mib(64), mib(2));
        for (int page = 0; page < 20; page += 2) s.map(page * mib(2), 1);
        assertThat(s.toString()).endsWith(", 10 mapped (20 MiB): pages 0, 2, 4, 6, 8, 10, 12, 14, ...");
    }
}
