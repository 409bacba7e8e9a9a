package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import vramlab.cli.Io;
import vramlab.cli.Main;
import vramlab.playground.Playground;
import vramlab.playground.TraceRun;
import vramlab.units.Bytes;

/**
 * Each chapter's playground in headless Chromium, from disk, with every host name unresolvable:
 * the page runs its trace to the end and its lab, and shows exactly what the launcher prints for
 * them on the JVM ({@code ./vramlab replay}, {@code ./vramlab lab}); a bad trace line shows
 * {@code error: line N: ...} on the page. Runs under {@code -Psite}, against this build's pages
 * (see {@link Rendered}), in the instructor edition; without Chromium it fails or, with {@code -Dvramlab.chromium=skip},
 * is skipped saying so (as {@link BrowserCheckTest}).
 */
@DisplayName("The playgrounds in a real browser")
class PlaygroundBrowserTest {
    @TempDir Path dir;

    @TestFactory
    @DisplayName("each shows its lab's output as ./vramlab lab prints it and, run to the end, what ./vramlab replay prints")
    Stream<DynamicTest> sameAsTheJvm() {
        return sameAsTheJvm(Edition.INSTRUCTOR);
    }

    @TestFactory
    @DisplayName("in the student edition each shows the same for its preset trace and lab, recorded from the reference, and says so")
    Stream<DynamicTest> studentSameAsTheJvm() {
        return sameAsTheJvm(Edition.STUDENT);
    }

    private Stream<DynamicTest> sameAsTheJvm(Edition edition) {
        return Playground.all().stream().map(p -> DynamicTest.dynamicTest(p.id(), () -> {
            Path site = site(edition);
            String dom = dom(site, "playground/" + p.id() + ".html#run&lab");
            if (edition == Edition.STUDENT) {
                assertThat(dom).contains("class=\"pg-recorded-note\"", "recorded from the reference");
                if (p.hasTrace()) assertThat(attribute(dom, "data-recorded")).isEqualTo("true");
            }
            assertThat(attribute(dom, "data-ready")).as("the page started:%n%s", dom).isEqualTo("true");
            assertThat(text(dom, "pre", "pg-lab")).isEqualTo(p.labOutput());
            assertThat(launcher("lab", p.id().substring(0, 4))).startsWith(p.labOutput());
            System.out.println(p.id() + ": ready " + attribute(dom, "data-ready-ms") + " ms after the page began");
            if (!p.hasTrace()) return;
            TraceRun.Choice choice = TraceRun.Choice.of(p.policy());
            String replay = launcher("replay", choice.options(), "--device", p.card(), trace(p.trace()));
            TraceRun.Result jvm = TraceRun.run(p.trace(), p.policy(), p.card(), -1);
            assertThat(text(dom, "pre", "pg-summary")).isEqualTo(replay);
            assertThat(text(dom, "pre", "pg-oom")).isEqualTo(jvm.oom());
            if (!jvm.oom().isEmpty()) assertThat(replay.lines()).contains(jvm.oom());
            assertThat(texts(dom, "span", "pg-counter")).containsExactly(
                    "requested " + Bytes.readable(jvm.requested()), "allocated " + Bytes.readable(jvm.allocated()),
                    "reserved " + Bytes.readable(jvm.reserved()));
            assertThat(dom).contains("<svg", "after step " + jvm.events() + " of " + jvm.events());
        }));
    }

    @Test
    @DisplayName("chapter 4's shows the nine lines of the lab's fragmentation scenario and its expandable twin")
    void nineLines() throws Exception {
        String dom = dom(site(), "playground/ch04-real-oom.html#lab");
        List<String> lines = text(dom, "pre", "pg-lab").lines().filter(l -> !l.isBlank() && !l.startsWith("== "))
                .toList();
        assertThat(lines).hasSize(9).anyMatch(l -> l.startsWith("OOM: CUDA out of memory. Tried to allocate 20 MiB"));
    }

    @Test
    @DisplayName("a bad trace line shows error: line N: and what the launcher says is wrong with it")
    void badLine() throws Exception {
        String trace = "alloc a 3MiB\nalloc b 3 parsecs\nfree a\n";
        String dom = dom(site(), "playground/ch04-real-oom.html#run&trace="
                + URLEncoder.encode(trace, StandardCharsets.UTF_8).replace("+", "%20"));
        String file = trace(trace);
        String cli = launcherErr("replay", "--policy", "toy", "--device", "40MiB", file);
        assertThat(cli).startsWith("error: " + file + ":2: ");
        assertThat(text(dom, "pre", "pg-error")).isEqualTo("error: line 2: " + cli.substring(("error: " + file
                + ":2: ").length()));
    }

    @TestFactory
    @DisplayName("every chapter's notes page carries its playground, started, with no error")
    Stream<DynamicTest> inTheNotes() {
        return Playground.all().stream().map(p -> DynamicTest.dynamicTest(p.id(), () -> {
            String dom = dom(site(), p.id() + "/notes.html");
            assertThat(dom).contains("class=\"vramlab-playground\"", "data-chapter=\"" + p.id() + "\"");
            assertThat(attribute(dom, "data-ready")).as("the playground started").isEqualTo("true");
            assertThat(dom).doesNotContain("class=\"pg-error\">error");
            if (p.hasTrace()) assertThat(dom).contains("after step 0 of ");
        }));
    }

    @Test
    @DisplayName("a real snapshot dropped on the snapshot page, gzipped, shows what ./vramlab replay prints for it")
    void snapshot() throws Exception {
        Path site = site();
        Path snapshots = vramlab.kit.RealSnapshotsFolder.snapshots().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(snapshots != null, vramlab.kit.RealSnapshotsFolder.MISSING);
        Path gz = snapshots.resolve("yiyi.oom_snapshot.legacy.pickle.gz");
        String page = Files.readString(site.resolve("playground/snapshot.html")).replace("</body>",
                "<script>var b = atob('" + java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(gz))
                + "'), u = new Uint8Array(b.length); for (var i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);"
                + " document.addEventListener('DOMContentLoaded', function () {"
                + " document.querySelector('.vramlab-snapshot').vramlabReplayBytes(u, '" + gz + "'); });"
                + "</script></body>");
        Path test = site.resolve("playground/snapshot-test.html");
        Files.writeString(test, page);
        try {
            String dom = dom(site, "playground/snapshot-test.html");
            assertThat(attribute(dom, "data-replayed")).isEqualTo(gz.toString());
            assertThat(text(dom, "pre", "pg-snapshot-output")).isEqualTo(launcher("replay", gz.toString()))
                    .contains("peak reserved");
        } finally {
            Files.deleteIfExists(test);
        }
    }

    /**
     * The instructor edition, whose bundle is the reference cores compiled (the student
     * edition's: {@link #studentEditionShowsNoBody}).
     */
    static Path site() {
        return site(Edition.INSTRUCTOR);
    }

    static Path site(Edition edition) {
        Path site = Rendered.site(edition);
        BrowserCheckTest.chrome();
        return site;
    }

    /**
     * The student edition's playground, as the release copies it into {@code docs/}: its bundle is
     * compiled from the cores as handed out, and the release's body checks find nothing in it
     * (nor, by text, in the whole edition); its recordings are what the reference's page shows (here, on the JVM). No
     * browser needed.
     */
    @Test
    @DisplayName("the student edition's playground shows no graded step's body, by the release's checks, and records the reference's results")
    void studentEditionShowsNoBody() throws Exception {
        Path student = Rendered.site(Edition.STUDENT);
        Path solutions = Repo.root().resolve("solutions");
        assertThat(student.resolve("playground/vramlab-playground.js")).isRegularFile();
        assertThat(student.resolve("playground/snapshot.html")).doesNotExist();
        assertThat(vramlab.quiz.build.StepBodies.of(solutions).shownIn(student)).isEmpty();
        // The expression check on what this edition's playground adds (the notes are the notes' tests').
        assertThat(vramlab.quiz.build.ExpressionLeaks.of(solutions).shownIn(student.resolve("playground"))).isEmpty();
        assertThat(vramlab.quiz.build.PlaygroundBundles.fromTheReference(student)).isEmpty();
        assertThat(vramlab.quiz.build.PlaygroundBundles.fromTheReference(Rendered.site(Edition.INSTRUCTOR))).isNotEmpty();
        String recorded = Files.readString(student.resolve("playground").resolve(vramlab.playground.Recorded.FILE));
        for (Playground p : Playground.all()) {
            assertThat(recorded).as(p.id()).contains("\"lab\":" + vramlab.playground.BrowserMain.vramlabLab(p.id()));
            if (p.hasTrace()) {
                assertThat(recorded).as(p.id()).contains(vramlab.playground.BrowserMain.vramlabReplay(p.trace(), p.policy(),
                        p.card(), -1));
            }
            String notes = Files.readString(student.resolve(p.id()).resolve("notes.html"));
            assertThat(notes).as(p.id()).contains("class=\"vramlab-playground\"", "data-chapter=\"" + p.id() + "\"",
                    "../playground/vramlab-playground.js", "../playground/" + vramlab.playground.Recorded.FILE);
            assertThat(Files.readString(student.resolve("playground").resolve(p.id() + ".html"))).as(p.id())
                    .contains(vramlab.playground.Recorded.FILE).doesNotContain("snapshot.html");
        }
    }

    private String trace(String text) throws Exception {
        return Files.writeString(dir.resolve("trace.txt"), text).toString();
    }

    /** What the launcher prints, run in this JVM as {@code ./vramlab ARGS}; options may hold spaces. */
    private static String launcher(String... args) {
        return launch(args)[0];
    }

    private static String launcherErr(String... args) {
        return launch(args)[1].strip();
    }

    private static String[] launch(String... args) {
        List<String> all = new ArrayList<>();
        for (String a : args) all.addAll(List.of(a.split(" ")));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8), e = new PrintStream(err, true,
                StandardCharsets.UTF_8);
        Main.run(all.toArray(String[]::new), new Io(new ByteArrayInputStream(new byte[0]), o, e));
        o.flush();
        e.flush();
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    /** The page's DOM after its scripts ran, from disk, with no host name resolvable. */
    private static String dom(Path site, String page) throws Exception {
        List<String> cmd = List.of(BrowserCheckTest.chrome(), "--headless=new", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND", "--allow-file-access-from-files",
                "--virtual-time-budget=10000", "--window-size=1280,900", "--dump-dom", site.toUri() + page);
        Path err = Files.createDirectories(site.resolveSibling("screenshots")).resolve("chromium-playground.log");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("Chromium did not finish in 120 s: " + cmd);
        }
        return out;
    }

    /** The text of the first {@code <tag class="cls">}, as the page shows it. */
    static String text(String dom, String tag, String cls) {
        List<String> all = texts(dom, tag, cls);
        assertThat(all).as("a <%s class=\"%s\"> on the page", tag, cls).isNotEmpty();
        return all.get(0);
    }

    static List<String> texts(String dom, String tag, String cls) {
        Matcher m = Pattern.compile("<" + tag + " class=\"" + cls + "\"[^>]*>(.*?)</" + tag + ">", Pattern.DOTALL)
                .matcher(dom);
        List<String> out = new ArrayList<>();
        while (m.find()) out.add(unescape(m.group(1)));
        return out;
    }

    private static String attribute(String dom, String name) {
        Matcher m = Pattern.compile("class=\"vramlab-playground[^\"]*\"[^>]*?\\b" + name + "=\"([^\"]*)\"")
                .matcher(dom);
        return m.find() ? m.group(1) : "(no " + name + ")";
    }

    private static String unescape(String html) {
        return html.replace("&lt;", "<").replace("&gt;", ">").replace("&nbsp;", "\u00a0").replace("&quot;", "\"")
                .replace("&amp;", "&");
    }
}
