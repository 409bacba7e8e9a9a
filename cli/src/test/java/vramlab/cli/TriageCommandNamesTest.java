package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.triage.Cause;

/**
 * A command triage tells the user to run is written as README writes it, {@code ./vramlab ...}
 * from the repository root: two hints said {@code vramlab replay ...} and {@code vramlab triage
 * ...}, which a shell without the kit on its PATH answers with "command not found", beside
 * thirty that say {@code ./vramlab}.
 */
@DisplayName("triage names the commands to run next as ./vramlab, as README does")
class TriageCommandNamesTest {
    static final String EXAMPLE = "chapters/ch05-expandable-segments/examples/three-allocators.pytorch.pickle";

    @Test
    @DisplayName("a snapshot's recorded OOM: 'every site with its stack: ./vramlab replay --at oom --stacks FILE'")
    void everySite() {
        CliRun r = CliRun.of("triage", vramlab.quiz.KitPaths.root().resolve(EXAMPLE).toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("(every site with its stack: ./vramlab replay --at oom --stacks ")
                .doesNotContainPattern("(?<![./])vramlab (replay|advise|triage) ");
    }

    @Test
    @DisplayName("every cause's check and fixes")
    void causes() {
        List<String> texts = new ArrayList<>();
        for (Cause c : Cause.values()) {
            texts.add(c.check());
            texts.addAll(c.fixes());
        }
        assertThat(texts).noneMatch(t -> t.matches("(?s).*(?<![./])vramlab (replay|advise|triage) .*"));
    }
}
