package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * The launcher's build leaves standard input to the command: Maven reads standard input, so on a
 * fresh clone (or after a source change) `cat oom.txt | ./vramlab triage` built the kit, the
 * build swallowed the paste, and triage read nothing (before it refused an empty paste it
 * answered NOT_PYTORCH_OOM, exit 0). Stand-ins as in {@link LauncherScriptTest}: an mvn that
 * reads all of its standard input, as Maven may, and a java that echoes what it receives.
 */
@DisplayName("./vramlab's build does not eat the paste piped to the command")
class LauncherStdinTest {
    @TempDir Path tmp;

    @Test
    @DisplayName("a stale build with a piped paste: the build runs, and the command still gets the paste")
    void pasteReachesTheCommand() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs a POSIX shell");
        Path kit = Files.createDirectories(tmp.resolve("kit"));
        Files.copy(KitPaths.root().resolve("vramlab"), kit.resolve("vramlab"));
        Path cp = Files.createDirectories(kit.resolve("cli/target")).resolve("vramlab.classpath");
        Files.writeString(cp, "");
        Files.setLastModifiedTime(cp, FileTime.from(Instant.now().minusSeconds(3600)));
        Path source = Files.createDirectories(kit.resolve("toolkit/src/main/java/vramlab")).resolve("A.java");
        Files.writeString(source, "class A {}");                  // newer than the build: it is stale
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        LauncherScriptTest.script(bin.resolve("mvn"), "cat >/dev/null; echo \"mvn ran: $*\"");
        Path java = Files.createDirectories(tmp.resolve("jdk/bin")).resolve("java");
        LauncherScriptTest.script(java, "echo \"java ran, stdin: $(cat)\"");

        ProcessBuilder pb = new ProcessBuilder(List.of("/bin/sh", kit.resolve("vramlab").toString(), "triage"))
                .redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", tmp.resolve("jdk").toString());
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write("CUDA out of memory. Tried to allocate 2.00 GiB\n".getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String log = Files.readString(kit.resolve(".vramlab-build.log"));
        assertThat(log).as("the build ran").contains("mvn ran:");
        assertThat(out).contains("java ran, stdin: CUDA out of memory. Tried to allocate 2.00 GiB");
    }

    @Test
    @DisplayName("the Windows launcher's build reads NUL, not the console or a pipe")
    void windowsBuildReadsNul() throws IOException {
        String cmd = Files.readString(KitPaths.root().resolve("vramlab.cmd"));
        assertThat(cmd.lines().filter(l -> l.contains("call mvn ")))
                .singleElement().asString().contains("< NUL");
    }
}
