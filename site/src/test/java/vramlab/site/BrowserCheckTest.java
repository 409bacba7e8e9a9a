package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Opens the site this build rendered in headless Chromium with every host name unresolvable
 * ({@code --host-resolver-rules=MAP * ~NOTFOUND}): the index, a chapter's notes and its deck,
 * checking from inside each page that every image and stylesheet loaded, reveal.js started and
 * no request left the machine; then every deck, checking that every slide fits its 1280x720
 * frame and has speaker notes. Screenshots land in {@code site/target/screenshots/}.
 *
 * <p>Runs under {@code -Psite} only, against this build's pages (see {@link Rendered}); there,
 * a missing Chromium fails each check ({@code apt-get install chromium}, or set
 * {@code CHROME_BIN}) unless {@code -Dvramlab.chromium=skip} is given, when each check is
 * skipped saying "skipped: no chromium". Nothing is decided once for the class, so no check
 * vanishes from the counts.
 */
@DisplayName("The rendered site in a real browser")
class BrowserCheckTest {
    private static final Pattern RESULT = Pattern.compile("RESULT (\\{.*?})</pre>");
    static final String NOTES = "ch03-caching-allocator";

    /** This build's student site, and Chromium: or a skip or failure that says which is missing. */
    static Path site() {
        Path site = Rendered.site(Edition.STUDENT);
        chrome();
        return site;
    }

    static String chrome() {
        Optional<String> c = chromium();
        if (c.isPresent()) return c.get();
        if ("skip".equals(System.getProperty("vramlab.chromium"))) {
            assumeTrue(false, "skipped: no chromium (-Dvramlab.chromium=skip)");
        }
        fail("no chromium: the browser checks need it (apt-get install chromium, or set CHROME_BIN); "
                + "-Dvramlab.chromium=skip skips them, saying so");
        return null;
    }

    @Test
    @DisplayName("the index loads offline, and every page it needs is there")
    void index() throws Exception {
        check(site(), "index.html", "index");
    }

    @Test
    @DisplayName("a chapter's notes load offline, with every figure sized, the typeface and the sidebar")
    void notes() throws Exception {
        String r = check(site(), NOTES + "/notes.html", NOTES + "-notes");
        assertThat(r).doesNotContain("\"images\":0").contains("\"font\":true", "\"sidebar\":true");
    }

    @Test
    @DisplayName("a chapter's deck starts reveal.js offline")
    void deck() throws Exception {
        Path site = site();
        String r = check(site, NOTES + "/slides.html", NOTES + "-slides");
        assertThat(r).contains("\"reveal\":true");
        screenshot(site, NOTES + "/slides.html#/1", NOTES + "-slides-2", 1280, 720);
    }

    @TestFactory
    @DisplayName("every deck's every slide fits the 1280x720 frame and has speaker notes")
    Stream<DynamicTest> decksFit() {
        return Course.map().stream().map(e -> DynamicTest.dynamicTest(e.id(), () -> {
            Path site = site();
            String r = run(site, "/browser/deck-check.html", e.id() + "/slides.html", "deck-" + e.id());
            assertThat(r).as("deck check of %s", e.id()).contains("\"problems\":[]", "\"width\":1280",
                    "\"height\":720").doesNotContain("\"slides\":0");
        }));
    }

    /** Runs check.html on one page; returns its JSON result after asserting it found no problem. */
    private String check(Path site, String page, String name) throws Exception {
        screenshot(site, page, name, 1280, 900);
        String result = run(site, "/browser/check.html", page, name);
        assertThat(result).as("browser check of %s", page).contains("\"problems\":[]");
        return result;
    }

    private String run(Path site, String checkerPage, String page, String name) throws Exception {
        Path checker = site.resolve("browser-check-" + name + ".html");
        try (InputStream in = getClass().getResourceAsStream(checkerPage)) {
            Files.writeString(checker, new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("@PAGE@", page));
        }
        try {
            String dom = chromium(site, "--allow-file-access-from-files", "--virtual-time-budget=15000",
                    "--window-size=1280,900", "--dump-dom", checker.toUri().toString());
            Matcher m = RESULT.matcher(dom);
            assertThat(m.find()).as("the checker page reported nothing for %s:%n%s", page, dom).isTrue();
            return m.group(1);
        } finally {
            Files.deleteIfExists(checker);
        }
    }

    private void screenshot(Path site, String page, String name, int w, int h) throws Exception {
        Path shots = Files.createDirectories(site.resolveSibling("screenshots"));
        Path png = shots.resolve(name + ".png");
        Files.deleteIfExists(png);
        chromium(site, "--window-size=" + w + "," + h, "--hide-scrollbars", "--virtual-time-budget=4000",
                "--screenshot=" + png, site.toUri() + page);
        assertThat(png).as("screenshot of %s", page).exists();
    }

    private static String chromium(Path site, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(chrome(), "--headless=new", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"));
        cmd.addAll(List.of(args));
        Path err = Files.createDirectories(site.resolveSibling("screenshots")).resolve("chromium.log");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("Chromium did not finish in 120 s: " + cmd);
        }
        return out;
    }

    static Optional<String> chromium() {
        String env = System.getenv("CHROME_BIN");
        if (env != null && new File(env).canExecute()) return Optional.of(env);
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome", "chrome")) {
                File f = new File(dir, name);
                if (f.canExecute()) return Optional.of(f.getPath());
            }
        }
        return Optional.empty();
    }

    @Test
    @DisplayName("the deck checker is the one the tests load")
    void checkerPresent() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/browser/deck-check.html")) {
            assertThat(in).isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).contains("@PAGE@", "scrollHeight");
        }
    }
}
