package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;

/**
 * The launcher's flags for a short command are written once ({@link FastFlags#PATH}): the POSIX
 * launcher and the benchmark read the file (LauncherScriptTest runs the launcher on a changed
 * one), the launcher's child JVM reads it from the class path, and the Windows launcher, which
 * reads no file here, holds a copy that must be the same line.
 */
@DisplayName("the short-command JVM flags: one line, read by the launchers, the child JVM and the benchmark")
class FastFlagsTest {
    static final Path ROOT = KitPaths.root();

    static String line() throws IOException {
        return Files.readString(ROOT.resolve(FastFlags.PATH));
    }

    @Test
    @DisplayName("the file is one line, and the class path's copy is that line")
    void oneLine() throws IOException {
        assertThat(line()).endsWith("\n").doesNotContain("\r");
        assertThat(line().strip()).doesNotContain("\n");
        assertThat(FastFlags.flags()).containsExactly(line().strip().split(" "))
                .contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    }

    @Test
    @DisplayName("vramlab.cmd's FAST is the same line (it reads no file: a copy, held here)")
    void windowsCopy() throws IOException {
        List<String> sets = Files.readAllLines(ROOT.resolve("vramlab.cmd")).stream()
                .filter(l -> l.startsWith("set \"FAST=-")).toList();
        assertThat(sets).containsExactly("set \"FAST=" + line().strip() + "\"");
    }

    @Test
    @DisplayName("./vramlab and bench/e2e.sh read the file and spell none of its flags outside their comments")
    void scriptsReadIt() throws IOException {
        for (String script : List.of("vramlab", "bench/e2e.sh")) {
            List<String> code = Files.readAllLines(ROOT.resolve(script)).stream()
                    .filter(l -> !l.strip().startsWith("#")).toList();
            assertThat(code).as(script).anyMatch(l -> l.contains("$(cat \"$ROOT/" + FastFlags.PATH + "\")"));
            for (String flag : FastFlags.flags()) assertThat(code).as(script).noneMatch(l -> l.contains(flag));
        }
    }

    @Test
    @DisplayName("a release copies it (cli's src/main); the Gradescope zip too (GradescopeZipTest reads it back)")
    void released() {
        assertThat(FastFlags.PATH).startsWith("cli/src/main/");
        assertThat(ReleaseCommand.MODULES.get("cli")).contains("src/main");
    }

    @Test
    @DisplayName("what an option decides: the JIT's tiers, the collector, or the -XX option it sets")
    void decides() {
        assertThat(FastFlags.decides("-XX:TieredStopAtLevel=4")).isEqualTo(FastFlags.decides("-XX:TieredStopAtLevel=1"))
                .isEqualTo(FastFlags.decides("-XX:-TieredCompilation")).isEqualTo(FastFlags.decides("-Xint"));
        assertThat(FastFlags.decides("-XX:+UseG1GC")).isEqualTo(FastFlags.decides("-XX:+UseSerialGC"));
        assertThat(FastFlags.decides("-XX:NewRatio=2")).isEqualTo(FastFlags.decides("-XX:NewRatio=1"))
                .isNotEqualTo(FastFlags.decides("-XX:InitialRAMPercentage=6"));
        assertThat(FastFlags.decides("-Xmx1g")).isNotEqualTo(FastFlags.decides("-XX:+UseSerialGC"));
    }
}
