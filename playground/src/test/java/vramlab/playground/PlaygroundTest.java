package vramlab.playground;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A chapter's playground")
class PlaygroundTest {
    @Test
    @DisplayName("its lab button prints what ./vramlab lab prints for those scenarios, word for word")
    void labIsTheLaunchersLab() {
        for (Playground p : Playground.all()) {
            Launcher.Run lab = Launcher.run("lab", p.id().substring(0, 4));
            assertThat(lab.exit()).as(lab.err()).isZero();
            assertThat(lab.out()).as(p.id()).startsWith(p.labOutput());
            assertThat(p.labOutput()).as(p.id()).contains("== ").doesNotContain("[stopped]", "[needs step");
        }
    }

    @Test
    @DisplayName("chapter 4's lab shows the nine lines of the fragmentation scenario and its expandable twin")
    void nineLines() {
        String out = Playground.of("ch04-real-oom").labOutput();
        assertThat(out.lines().filter(l -> !l.isBlank() && !l.startsWith("== "))).hasSize(9);
        assertThat(out).contains("OOM: CUDA out of memory.", "expandable 8 MiB alloc:");
    }

    @Test
    @DisplayName("chapter 4's opens on the 40 MiB card under the toy, the lab's own setting")
    void opensOnTheLab() {
        Playground p = Playground.of("ch04");
        assertThat(p.card()).isEqualTo("40MiB");
        assertThat(p.policy()).isEqualTo("toy");
        assertThat(TraceRun.run(p.trace(), p.policy(), p.card(), 8).summary()).contains("reserved=40M allocated=40M");
    }

    @Test
    @DisplayName("a chapter without one is named in the error")
    void unknown() {
        assertThatThrownBy(() -> Playground.of("ch99")).hasMessage("no playground for 'ch99'");
    }

    @Test
    @DisplayName("the page's functions answer in JSON with every field the page reads")
    void json() {
        Playground p = Playground.of("ch04");
        String r = BrowserMain.vramlabReplay("alloc \"a\\ 1MiB\n", "toy", "40MiB", -1);
        assertThat(r).startsWith("{\"step\":1,\"events\":1,").contains("\"summary\":\"events: 1, OOMs: 0", "\"csv\":[\"step,op,",
                "\"svg\":\"<svg", "\"counters\":[\"requested 1 MiB\",", "\"oom\":\"\"", "\"error\":\"\"")
                .contains("\\\"a\\\\").doesNotContain("\n");
        assertThat(BrowserMain.vramlabPlayground("ch04")).contains("\"policy\":\"toy\"", "\"card\":\"40MiB\"");
        assertThat(BrowserMain.vramlabPlayground("ch99")).isEqualTo("{\"error\":\"error: no playground for 'ch99'\"}");
        assertThat(BrowserMain.vramlabLab("ch04")).startsWith("{\"output\":\"== Fragmentation");
        assertThat(p.trace()).contains("alloc big 8MiB");
    }
}
