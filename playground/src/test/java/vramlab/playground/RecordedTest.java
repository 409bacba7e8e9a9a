package vramlab.playground;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The student edition's recordings: for each preset input, exactly what the instructor's page
 * computes (the reference's {@link BrowserMain}, which this module's classpath holds), at the
 * index the page looks it up by ({@code playground-ui.js}'s {@code recordedReplay}: the step,
 * and past the end or {@code -1} the last).
 */
@DisplayName("The student edition's recorded presets")
class RecordedTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static JsonNode recorded;

    @BeforeAll
    static void record() throws Exception {
        String script = Recorded.script(Playground.all());
        int start = script.indexOf("var vramlabRecorded = ");
        assertThat(start).as("the script's global").isPositive();
        assertThat(script).endsWith("};\n");
        recorded = JSON.readTree(script.substring(start + "var vramlabRecorded = ".length(), script.length() - 2));
    }

    @Test
    @DisplayName("hold every chapter's lab as the reference's page runs it")
    void labs() throws Exception {
        List<String> ids = new ArrayList<>();
        recorded.fieldNames().forEachRemaining(ids::add);
        assertThat(ids).isEqualTo(Playground.all().stream().map(Playground::id).toList());
        for (Playground p : Playground.all()) {
            assertThat(recorded.get(p.id()).get("lab")).as(p.id()).isEqualTo(JSON.readTree(BrowserMain.vramlabLab(p.id())));
            assertThat(recorded.get(p.id()).get("lab").get("output").asText()).as(p.id())
                    .isEqualTo(p.labOutput()).doesNotContain("[needs step", "[stopped]");
        }
    }

    @Test
    @DisplayName("hold every step of each preset trace under every policy, as Step and Run show it on the reference's page")
    void everyStepUnderEveryPolicy() throws Exception {
        int traces = 0;
        for (Playground p : Playground.all()) {
            JsonNode replay = recorded.get(p.id()).get("replay");
            if (!p.hasTrace()) {
                assertThat(replay.size()).as(p.id()).isZero();
                continue;
            }
            traces++;
            int events = TraceRun.parse(p.trace()).size();
            for (TraceRun.Choice c : TraceRun.Choice.values()) {
                JsonNode runs = replay.get(c.id());
                assertThat(runs.size()).as("%s %s", p.id(), c.id()).isEqualTo(events + 1);
                for (int step = 0; step <= events; step++) {
                    assertThat(runs.get(step)).as("%s %s step %d", p.id(), c.id(), step)
                            .isEqualTo(JSON.readTree(BrowserMain.vramlabReplay(p.trace(), c.id(), p.card(), step)));
                    assertThat(runs.get(step).get("error").asText()).isEmpty();
                }
                // Run (-1) and a Step past the end show the last.
                assertThat(runs.get(events)).isEqualTo(JSON.readTree(BrowserMain.vramlabReplay(p.trace(), c.id(), p.card(), -1)))
                        .isEqualTo(JSON.readTree(BrowserMain.vramlabReplay(p.trace(), c.id(), p.card(), events + 1)));
            }
        }
        assertThat(traces).isEqualTo(3);
    }
}
