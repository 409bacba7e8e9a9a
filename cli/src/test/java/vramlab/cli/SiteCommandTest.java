package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("vramlab site")
class SiteCommandTest {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final Io io = new Io(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    @Test
    @DisplayName("is listed among the commands and explains itself with --help")
    void help() {
        assertThat(Main.run(new String[] {"--help"}, io)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("site", "render notes and slides to HTML");
        out.reset();
        assertThat(Main.run(new String[] {"site", "--help"}, io)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: vramlab site [--instructor] [--offline]",
                "-Psite", "site/target/site-instructor/");
        out.reset();
        assertThat(Main.run(new String[] {"slides", "--help"}, io)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: vramlab slides [chapter]", "-Pslides");
    }

    @Test
    @DisplayName("slides refuses two chapters, or a chapter that does not exist, with one line and exit status 2")
    void slidesRefuses() {
        assertThat(Main.run(new String[] {"slides", "3", "4"}, io)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8).trim()).startsWith("error: slides: takes at most one chapter");
        err.reset();
        assertThat(Main.run(new String[] {"slides", "ch99"}, io)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8).trim()).startsWith("error: slides:").doesNotContain("\n");
    }

    @Test
    @DisplayName("drops terminal escape codes from Maven's lines")
    void plainLines() {
        assertThat(SiteCommand.plain("\u001b[0m\u001b[0msite: done\u001b[1;31m")).isEqualTo("site: done");
    }

    @Test
    @DisplayName("in a student release (no site/pom.xml) points to the release's rendered docs/")
    void inARelease(@org.junit.jupiter.api.io.TempDir java.nio.file.Path release) throws Exception {
        java.nio.file.Files.createDirectories(release.resolve("labs"));
        java.nio.file.Files.writeString(release.resolve(vramlab.quiz.KitPaths.RELEASE_MARKER), "release");
        java.nio.file.Files.createDirectories(release.resolve("docs"));
        java.nio.file.Files.writeString(release.resolve("docs/index.html"), "<html></html>");
        String before = System.getProperty("vramlab.home");
        System.setProperty("vramlab.home", release.toString());
        try {
            assertThat(Main.run(new String[] {"site"}, io)).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8).trim()).isEqualTo("error: site: this release's notes and"
                    + " decks are rendered already: open " + release.toAbsolutePath().normalize().resolve("docs/index.html"));
        } finally {
            if (before == null) System.clearProperty("vramlab.home");
            else System.setProperty("vramlab.home", before);
        }
    }

    @Test
    @DisplayName("refuses an argument with one line and exit status 2, before starting any build")
    void refusesArguments() {
        assertThat(Main.run(new String[] {"site", "ch04"}, io)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8).trim())
                .isEqualTo("error: site: takes no arguments, got [ch04]");
    }

    /**
     * The launcher scripts build with Maven's -o under VRAMLAB_OFFLINE; site and slides then ran
     * their own Maven without it, so 'VRAMLAB_OFFLINE=1 ./vramlab site' went to the network after
     * an offline build. The variable now counts as --offline, read as the scripts read it.
     */
    @Test
    @DisplayName("VRAMLAB_OFFLINE (1, true, yes) runs site's and slides' Maven with -o, as --offline does")
    void offlineFromTheEnvironment() {
        EditionOption e = new EditionOption();
        String mvn = ReleaseCommand.mvn();
        for (String on : java.util.List.of("1", "true", "YES")) {
            assertThat(e.maven(java.util.Map.of("VRAMLAB_OFFLINE", on), "package")).as(on).containsExactly(mvn, "-o", "package");
        }
        for (String off : java.util.List.of("0", "false", "no", "")) {
            assertThat(e.maven(java.util.Map.of("VRAMLAB_OFFLINE", off), "package")).as(off).containsExactly(mvn, "package");
        }
        assertThat(e.maven(java.util.Map.of(), "package")).containsExactly(mvn, "package");
        e.offline = true;
        assertThat(e.maven(java.util.Map.of(), "package")).containsExactly(mvn, "-o", "package");
        // The one reading on the Java side, which the site's PlaygroundBundleRepeatableTest uses too.
        assertThat(EditionOption.offline(java.util.Map.of("VRAMLAB_OFFLINE", "True"))).isTrue();
        assertThat(EditionOption.offline(java.util.Map.of("VRAMLAB_OFFLINE", "on"))).as("the scripts refuse 'on'").isFalse();
        assertThat(EditionOption.offline(java.util.Map.of())).isFalse();
    }

    /**
     * Only release's render ran the site's Maven with HotSpot's -XX:hashCode=2, which makes TeaVM's
     * playground bundles the same bytes from one build to the next: two ./vramlab site builds of
     * one commit could differ. site now builds as release does, from the one place
     * (ReleaseCommand.maven), and release's render is site's build (so offline under VRAMLAB_OFFLINE).
     */
    @Test
    @DisplayName("site runs the site's Maven as release does: -XX:hashCode=2 in MAVEN_OPTS; release's render is site's build")
    void repeatableBundles(@org.junit.jupiter.api.io.TempDir java.nio.file.Path root) {
        String mvn = ReleaseCommand.mvn();
        java.util.List<String> build = java.util.List.of("-q", "-B", "-Psite", "-DskipTests", "-Dvramlab.site.edition=student",
                "-pl", "site", "-am", "package");
        ProcessBuilder site = SiteCommand.build(root, new EditionOption(), java.util.Map.of());
        assertThat(site.command()).containsExactlyElementsOf(java.util.stream.Stream.concat(java.util.stream.Stream.of(mvn),
                build.stream()).toList());
        assertThat(site.environment().get("MAVEN_OPTS")).as("site's Maven").endsWith(ReleaseCommand.DETERMINISTIC_JVM);
        assertThat(site.directory()).isEqualTo(root.toFile());
        EditionOption instructor = new EditionOption();
        instructor.instructor = true;
        assertThat(SiteCommand.build(root, instructor, java.util.Map.of()).command()).contains("-Dvramlab.site.edition=instructor");

        ProcessBuilder release = ReleaseCommand.siteRender(root, java.util.Map.of("VRAMLAB_OFFLINE", "yes"));
        assertThat(release.command()).containsExactlyElementsOf(java.util.stream.Stream.concat(java.util.stream.Stream.of(mvn, "-o"),
                build.stream()).toList());
        assertThat(release.environment().get("MAVEN_OPTS")).as("release's render").endsWith(ReleaseCommand.DETERMINISTIC_JVM);
    }

    @Test
    @DisplayName("site --help says it runs Maven with -XX:hashCode=2, as release does")
    void helpNamesTheJvmOption() {
        assertThat(Main.run(new String[] {"site", "--help"}, io)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " "))
                .contains("with " + ReleaseCommand.DETERMINISTIC_JVM + " added to MAVEN_OPTS, as release runs it");
    }
}
