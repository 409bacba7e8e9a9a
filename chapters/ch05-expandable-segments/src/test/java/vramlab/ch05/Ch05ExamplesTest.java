package vramlab.ch05;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.ExpandableSegment;
import vramlab.driver.Gpu;

/**
 * The notes tell the student to replay step 5.1's worked example in JShell "until your table
 * matches the one above": the table must show a returned range in JShell's words
 * ({@code [0..40)M, 40 MiB}), not in a form JShell never prints ({@code Range(0 B, 40 MiB)}).
 */
@DisplayName("Chapter 5's worked examples, as JShell shows the same calls")
class Ch05ExamplesTest {
    private static ExpandableSegment segment(long pageSize) {
        return new ExpandableSegment(new Gpu(mib(64)).openToyProcess(), mib(64), pageSize);
    }

    @Test
    @DisplayName("5.1: each returned range reads as JShell prints it, and the table says how to make the segment there")
    void mapRowsAsJShellPrintsThem() {
        String table = Ch05Examples.example5_1();
        ExpandableSegment s = segment(mib(20));
        String first = String.valueOf(s.map(0, mib(25)));
        String refused = String.valueOf(s.map(mib(40), mib(30)));
        assertThat(first).isEqualTo("[0..40)M, 40 MiB");
        assertThat(table).contains("|`" + first + "`\n").contains("|`" + refused + "`\n")
                .doesNotContain("Range(")
                .contains("`var s = new ExpandableSegment(new Gpu(mib(64)).openToyProcess(), mib(64), mib(20))`");
    }

    @Test
    @DisplayName("5.3: each returned range reads as JShell prints it")
    void unmapRowsAsJShellPrintsThem() {
        ExpandableSegment s = segment(mib(2));
        s.map(0, mib(8));
        String table = Ch05Examples.example5_3();
        assertThat(table).contains("|`" + s.unmap(mib(1), mib(4)) + "`\n").doesNotContain("Range(");
    }
}
