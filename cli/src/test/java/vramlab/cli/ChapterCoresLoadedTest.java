package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.quiz.build.CoreBuild;

/**
 * {@link ChapterCores} reads which cores a chapter uses from its class files; this runs each
 * chapter's whole lab in a JVM of its own and holds every core package that JVM loaded a class
 * from to that set. A core the walk missed (reached by reflection, say) would run as handed out
 * under {@code lab N} in a student's copy, not as the student wrote it. A child JVM per chapter:
 * {@code -Pgrading-fixtures}.
 */
@Tag("grading-fixtures")
class ChapterCoresLoadedTest {
    private static final Pattern LOADED = Pattern.compile("\\] (vramlab\\.\\w+)\\.[\\w$]+ source:");

    @Test
    @DisplayName("every core a chapter's lab loads, run whole in its own JVM, is one ChapterCores compiles for it")
    void whatTheLabLoads() throws Exception {
        String classpath = String.join(File.pathSeparator, StudentCores.entries());
        List<String> missed = new ArrayList<>();
        for (ChapterLab c : Chapters.all()) {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xlog:class+load=info:stdout", "-Dvramlab.home=" + StudentCores.root(), "-cp", classpath,
                    Main.class.getName(), "lab", c.id(), "--reference").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(c.id() + ": " + out.lines().filter(l -> !l.startsWith("[")).toList()).isZero();
            Set<String> loaded = new TreeSet<>();
            Matcher m = LOADED.matcher(out);
            while (m.find()) loaded.add(m.group(1));
            List<String> compiled = ChapterCores.of(c);
            for (CoreBuild.Core core : CoreBuild.CORES) {
                if (core.packages().stream().anyMatch(loaded::contains) && !compiled.contains(core.name())) {
                    missed.add(c.id() + " loads " + core.name() + " (" + core.packages() + "), compiles only " + compiled);
                }
            }
            assertThat(loaded).as(c.id() + ": the log names the classes it loaded").contains("vramlab.units");
        }
        assertThat(missed).isEmpty();
    }
}
