package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The comparison chart draws the standard comparison's own figures, one pair of bars per contender. */
@DisplayName("The comparison as a chart")
class ComparisonFigureTest {
    @Test
    @DisplayName("every contender's internal waste and external fragmentation appear, as the table prints them")
    void barsAreTheResults() {
        List<Result> results = Ch06Figures.standardResults();
        assertThat(results).hasSizeGreaterThan(1);
        String svg = Ch06Figures.figureComparison();
        for (Result r : results) {
            assertThat(svg).contains(">" + r.name() + "<")
                    .contains(String.format(Locale.ROOT, "internal waste %.1f%%", 100 * r.internalWaste()))
                    .contains(String.format(Locale.ROOT, "external fragmentation %.1f%%", 100 * r.externalFragmentation()));
        }
        Result paged = results.stream().filter(r -> r.name().toLowerCase(Locale.ROOT).contains("paged")).findFirst()
                .orElseThrow(() -> new AssertionError("no paged contender in " + results));
        assertThat(paged.externalFragmentation()).as("fixed blocks leave no external fragmentation").isZero();
    }
}
