package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
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

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Opens the rendered site in headless Chromium with every host name unresolvable
 * ({@code --host-resolver-rules=MAP * ~NOTFOUND}): the index, the first chapter's notes and
 * its deck. For each it checks, from inside the page, that every image loaded and has a size,
 * every stylesheet loaded, reveal.js started, and no request went anywhere but a local file;
 * and it saves screenshots under {@code site/target/screenshots/} for a person to look at.
 *
 * <p>Skipped, with a message, when Chromium is not installed ({@code apt-get install chromium},
 * or set {@code CHROME_BIN}) or the site has not been rendered ({@code ./vramlab site}).
 */
@DisplayName("The rendered site in a real browser")
class BrowserCheckTest {
    private static final Pattern RESULT = Pattern.compile("RESULT (\\{.*?})</pre>");
    static Path site;
    static Path shots;
    static String chrome;

    @BeforeAll
    static void findChromiumAndSite() throws IOException {
        site = Repo.root().resolve("site/target/site");
        shots = Repo.root().resolve("site/target/screenshots");
        Optional<String> c = chromium();
        assumeTrue(c.isPresent(), "Chromium not found: apt-get install chromium (or set CHROME_BIN) to run the "
                + "browser check");
        assumeTrue(Files.isRegularFile(site.resolve("index.html")),
                "no rendered site at " + site + ": run ./vramlab site first");
        chrome = c.get();
        Files.createDirectories(shots);
    }

    @Test
    @DisplayName("the index loads offline, and every page it needs is there")
    void index() throws Exception {
        check("index.html", "index");
    }

    @Test
    @DisplayName("a chapter's notes load offline, with every figure sized")
    void notes() throws Exception {
        String id = firstChapterWithNotes();
        String r = check(id + "/notes.html", id + "-notes");
        assertThat(r).doesNotContain("\"images\":0");
    }

    @Test
    @DisplayName("a chapter's deck starts reveal.js offline")
    void deck() throws Exception {
        String id = firstChapterWithNotes();
        String r = check(id + "/slides.html", id + "-slides");
        assertThat(r).contains("\"reveal\":true");
        screenshot(id + "/slides.html#/2", id + "-slides-2");
    }

    /** The first chapter the rendered site has notes for. */
    private String firstChapterWithNotes() throws IOException {
        try (var dirs = Files.list(site)) {
            Optional<String> id = dirs.filter(d -> Files.isRegularFile(d.resolve("notes.html")))
                    .map(d -> d.getFileName().toString()).sorted().findFirst();
            assumeTrue(id.isPresent(), "no chapter notes rendered yet");
            return id.get();
        }
    }

    /** Runs check.html on one page; returns its JSON result after asserting it found no problem. */
    private String check(String page, String name) throws Exception {
        screenshot(page, name);
        Path checker = site.resolve("browser-check-" + name + ".html");
        try (InputStream in = getClass().getResourceAsStream("/browser/check.html")) {
            String html = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("@PAGE@", page);
            Files.writeString(checker, html);
        }
        try {
            String dom = run("--allow-file-access-from-files", "--virtual-time-budget=8000", "--dump-dom",
                    checker.toUri().toString());
            Matcher m = RESULT.matcher(dom);
            assertThat(m.find()).as("the checker page reported nothing for %s:%n%s", page, dom).isTrue();
            String result = m.group(1);
            assertThat(result).as("browser check of %s", page).contains("\"problems\":[]");
            return result;
        } finally {
            Files.deleteIfExists(checker);
        }
    }

    private void screenshot(String page, String name) throws Exception {
        Path png = shots.resolve(name + ".png");
        run("--window-size=1280,900", "--hide-scrollbars", "--virtual-time-budget=4000",
                "--screenshot=" + png, site.toUri() + page);
        assertThat(png).as("screenshot of %s", page).exists();
    }

    private static String run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(chrome, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"));
        cmd.addAll(List.of(args));
        Path err = shots.resolve("chromium.log");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("Chromium did not finish in 90 s: " + cmd);
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
}
