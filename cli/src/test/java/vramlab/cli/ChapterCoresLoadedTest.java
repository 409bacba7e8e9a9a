package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import org.junit.jupiter.api.io.TempDir;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.quiz.build.CoreBuild;

/**
 * Each chapter declares the cores it runs ({@code ChapterLab.cores()}, read by {@link ChapterCores}),
 * and {@code replay}, {@code advise} and {@code triage} theirs ({@link Main#ON_THE_CORES}); this
 * runs each chapter's whole lab, and each command, in a JVM of its own and holds every core
 * package that JVM loaded a class from to the declaration. A core a declaration missed would run
 * as handed out in a student's copy, not as the student wrote it. A child JVM per run:
 * {@code -Pgrading-fixtures}.
 */
@Tag("grading-fixtures")
class ChapterCoresLoadedTest {
    private static final Pattern LOADED = Pattern.compile("\\] (vramlab\\.\\w+)\\.[\\w$]+ source:");

    @Test
    @DisplayName("every core a chapter's lab loads, run whole in its own JVM, is one its declaration compiles")
    void whatTheLabLoads() throws Exception {
        List<String> missed = new ArrayList<>();
        for (ChapterLab c : Chapters.all()) {
            missed.addAll(missed(c.id(), ChapterCores.of(c), "lab", c.id(), "--reference"));
        }
        assertThat(missed).isEmpty();
    }

    @Test
    @DisplayName("every core replay, advise and triage load (a trace; a real snapshot, on a smaller card) is one they compile in a release")
    void whatTheCommandsLoad(@TempDir Path tmp) throws Exception {
        Path trace = tmp.resolve("five.trace");
        Files.writeString(trace, "alloc a 3MiB\nalloc b 512\nfree a\nempty_cache\nfree b\n");
        List<List<String>> runs = new ArrayList<>(List.of(List.of("replay", trace.toString()),
                List.of("advise", "--device", "64MiB", trace.toString())));
        Path dir = AdviseMatchesReplayTest.folder();
        Path snapshot = dir == null ? null : dir.resolve("silmont2000.mem_snapshot.pickle.gz");
        if (snapshot != null && Files.isRegularFile(snapshot)) {       // a complete history, peak 3.52 GiB
            runs.add(List.of("triage", "--device", "3GiB", snapshot.toString()));
            runs.add(List.of("replay", snapshot.toString()));
        } else {
            Path message = Files.writeString(tmp.resolve("oom.txt"), "CUDA out of memory. Tried to allocate 2.00 GiB");
            runs.add(List.of("triage", message.toString()));
        }
        assertThat(runs.stream().map(r -> r.get(0)).distinct()).containsExactlyInAnyOrderElementsOf(Main.ON_THE_CORES.keySet());
        List<String> missed = new ArrayList<>();
        for (List<String> run : runs) {
            missed.addAll(missed(String.join(" ", run), ChapterCores.withNeeds(Main.ON_THE_CORES.get(run.get(0))),
                    run.toArray(String[]::new)));
        }
        assertThat(missed).isEmpty();
    }

    /** Runs {@code vramlab <args>} on the reference in a JVM of its own; each core it loaded a class of that {@code compiled} lacks. */
    private static List<String> missed(String what, List<String> compiled, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:stdout", "-Dvramlab.home=" + StudentCores.root(), "-cp",
                String.join(File.pathSeparator, StudentCores.entries()), Main.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(what + ": " + out.lines().filter(l -> !l.startsWith("[")).toList()).isZero();
        Set<String> loaded = new TreeSet<>();
        Matcher m = LOADED.matcher(out);
        while (m.find()) loaded.add(m.group(1));
        assertThat(loaded).as(what + ": the log names the classes it loaded").contains("vramlab.units");
        List<String> missed = new ArrayList<>();
        for (CoreBuild.Core core : CoreBuild.CORES) {
            if (core.packages().stream().anyMatch(loaded::contains) && !compiled.contains(core.name())) {
                missed.add(what + " loads " + core.name() + " (" + core.packages() + "), compiles only " + compiled);
            }
        }
        return missed;
    }
}
