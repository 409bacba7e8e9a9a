package vramlab.ch07;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Clock;

/** The head-of-line timeline is the misconception's own run, drawn span by span. */
@DisplayName("The event queue's head-of-line blocking, as a timeline")
class HeadOfLineFigureTest {
    @Test
    @DisplayName("the 2 MiB copy ends long before the 16 MiB one, and the re-pin falls between them")
    void timeline() {
        List<Clock.Span> spans = Ch07Figures.headOfLineSpans();
        Clock.Span kernel = find(spans, "stream 1", "long kernel");
        Clock.Span slowCopy = spans.stream().filter(s -> s.lane().equals("stream 1") && s != kernel)
                .filter(s -> s.start() >= kernel.end()).findFirst().orElseThrow(() -> new AssertionError(spans));
        Clock.Span fastCopy = spans.stream().filter(s -> s.lane().equals("stream 0")).findFirst()
                .orElseThrow(() -> new AssertionError(spans));
        List<Clock.Span> pins = spans.stream().filter(s -> s.lane().equals("host")
                && s.label().startsWith("cudaHostAlloc")).toList();
        assertThat(kernel.duration()).isEqualTo(50_000_000L);
        assertThat(fastCopy.end()).isLessThan(slowCopy.start());
        assertThat(pins).as("two blocks pinned at the start, one more for the request at 5 ms").hasSize(3);
        Clock.Span repin = pins.get(2);
        assertThat(repin.start()).isGreaterThan(fastCopy.end()).isLessThan(slowCopy.end());
        assertThat(Ch07Outputs.outputHeadOfLine()).contains("a new block, not the freed 2 MiB block");
        assertThat(Ch07Figures.figureHeadOfLine()).contains("pins a new 2 MiB block");
    }

    private static Clock.Span find(List<Clock.Span> spans, String lane, String label) {
        return spans.stream().filter(s -> s.lane().equals(lane) && s.label().equals(label)).findFirst()
                .orElseThrow(() -> new AssertionError(lane + " " + label + " in " + spans));
    }
}
