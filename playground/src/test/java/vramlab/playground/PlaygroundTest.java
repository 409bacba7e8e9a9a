package vramlab.playground;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.Chapters;
import vramlab.kit.Scenario;

@DisplayName("A chapter's playground")
class PlaygroundTest {
    @Test
    @DisplayName("its lab button runs the chapter's own lab scenarios, its first ones in the lab's order")
    void labIsTheChaptersLab() {
        for (Playground p : Playground.all()) {
            List<Scenario> page = p.lab().get();
            List<Scenario> lab = Chapters.all().stream().filter(c -> c.id().equals(p.id())).findFirst()
                    .orElseThrow(() -> new AssertionError("no chapter " + p.id())).scenarios();
            assertThat(page).as(p.id()).isNotEmpty();
            assertThat(page.stream().map(Scenario::title).toList()).as(p.id())
                    .isEqualTo(lab.subList(0, page.size()).stream().map(Scenario::title).toList());
        }
    }

    @Test
    @DisplayName("its lab output is the launcher's, word for word (chapter 3, whose lab is quick)")
    void labIsTheLaunchersLab() {
        Playground p = Playground.of("ch03");
        Launcher.Run lab = Launcher.run("lab", "3");
        assertThat(lab.exit()).as(lab.err()).isZero();
        assertThat(lab.out()).isEqualTo(p.labOutput());
        assertThat(p.labOutput()).contains("== ").doesNotContain("[stopped]", "[needs step");
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
