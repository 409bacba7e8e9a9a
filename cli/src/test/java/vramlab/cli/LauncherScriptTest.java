package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * The POSIX launcher decides when to rebuild, on a scratch tree with stand-ins for {@code mvn}
 * and {@code java} that only say they ran: a change under labs/ (the student's), bench/ or
 * site/ never rebuilds; a change to a module the launcher is built from does, and builds only
 * {@code -pl cli -am}.
 */
@DisplayName("./vramlab rebuilds for the launcher's sources only")
class LauncherScriptTest {
    @TempDir Path tmp;
    Path kit;
    Path bin;

    @BeforeEach
    void scratchKit() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs a POSIX shell");
        kit = Files.createDirectories(tmp.resolve("kit"));
        Files.copy(KitPaths.root().resolve("vramlab"), kit.resolve("vramlab"));
        Files.copy(KitPaths.root().resolve(FastFlags.PATH),
                Files.createDirectories(kit.resolve(FastFlags.PATH).getParent()).resolve("fast-jvm-flags"));
        Files.setLastModifiedTime(kit.resolve(FastFlags.PATH), FileTime.from(Instant.now().minusSeconds(7200)));
        Path cp = Files.createDirectories(kit.resolve("cli/target")).resolve("vramlab.classpath");
        Files.writeString(cp, "");
        Files.setLastModifiedTime(cp, FileTime.from(Instant.now().minusSeconds(3600)));
        bin = Files.createDirectories(tmp.resolve("bin"));
        script(bin.resolve("mvn"), "echo \"mvn ran: $*\"");
        Path java = Files.createDirectories(tmp.resolve("jdk/bin")).resolve("java");
        script(java, "echo \"java ran: $*\"");
    }

    static void script(Path p, String body) throws IOException {
        Files.writeString(p, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
        assertThat(p.toFile().setExecutable(true)).isTrue();
    }

    /** The last launch's exit status. */
    int status;

    String launch(String... args) throws IOException, InterruptedException {
        return launch(java.util.Map.of(), args);
    }

    /** The launcher with {@code env} added to the environment (VRAMLAB_OFFLINE is removed first). */
    String launch(java.util.Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("/bin/sh", kit.resolve("vramlab").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", tmp.resolve("jdk").toString());
        pb.environment().remove("VRAMLAB_OFFLINE");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        status = p.exitValue();
        Path log = kit.resolve(".vramlab-build.log");          // where the launcher sends Maven's output
        return out + (Files.exists(log) ? Files.readString(log) : "");
    }

    void touch(String file) throws IOException {
        Path p = kit.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "class Broken { int x = ; }");
    }

    @Test
    @DisplayName("a broken file in labs/, bench/ or site/ starts the launcher with no build")
    void studentsFilesNeverRebuild() throws Exception {
        touch("labs/src/main/java/vramlab/alloc/ToyPolicy.java");
        touch("bench/src/main/java/vramlab/bench/B.java");
        touch("site/src/main/java/vramlab/site/S.java");
        String out = launch("--help");
        assertThat(out).contains("java ran:").contains("vramlab.cli.Main --help").doesNotContain("mvn ran");
    }

    @Test
    @DisplayName("a changed chapter source rebuilds the launcher and what it needs, nothing else")
    void launcherSourcesRebuild() throws Exception {
        touch("chapters/ch03-caching-allocator/src/main/java/vramlab/ch03/X.java");
        String out = launch("check", "3.1");
        assertThat(out).contains("mvn ran: -q -B -DskipTests package -pl cli -am").contains("java ran:")
                .contains("-XX:TieredStopAtLevel=1");
    }

    /**
     * A user on a plane with a filled ~/.m2 had Maven try the network at the first build (Maven
     * 3.8 reads no MAVEN_ARGS, and the launcher passed nothing through): VRAMLAB_OFFLINE=1
     * builds with Maven's -o.
     */
    @Nested
    @DisplayName("VRAMLAB_OFFLINE=1 builds with Maven's -o")
    class Offline {
        @BeforeEach
        void stale() throws IOException {
            touch("toolkit/src/main/java/vramlab/X.java");
        }

        /** The last build's mark an hour old again, so that X.java is newer and the next run builds. */
        void staleAgain() throws IOException {
            Files.setLastModifiedTime(kit.resolve("cli/target/vramlab.classpath"),
                    FileTime.from(Instant.now().minusSeconds(3600)));
        }

        @Test
        @DisplayName("set: -o is passed and the build says offline; unset or 0: the build line as before")
        void passesDashO() throws Exception {
            for (String on : List.of("1", "true", "YES")) {
                staleAgain();
                String out = launch(java.util.Map.of("VRAMLAB_OFFLINE", on), "--help");
                assertThat(out).as(on).contains("mvn ran: -q -B -o -DskipTests package -pl cli -am")
                        .contains("vramlab: building offline (VRAMLAB_OFFLINE: Maven's -o;")
                        .contains("vramlab.cli.Main --help");
                assertThat(status).isZero();
            }
            for (String off : List.of("", "0", "no")) {
                staleAgain();
                String out = launch(java.util.Map.of("VRAMLAB_OFFLINE", off), "--help");
                assertThat(out).as("'%s'", off).contains("mvn ran: -q -B -DskipTests package -pl cli -am")
                        .doesNotContain(" -o ").doesNotContain("offline");
            }
        }

        @Test
        @DisplayName("any other value is refused with one line and exit 2, before any build")
        void badValue() throws Exception {
            String out = launch(java.util.Map.of("VRAMLAB_OFFLINE", "on"), "--help");
            assertThat(status).isEqualTo(2);
            assertThat(out).isEqualTo("error: vramlab: VRAMLAB_OFFLINE is 'on': expected 1 (build offline,"
                    + " Maven's -o) or 0\n");
        }

        @Test
        @DisplayName("a dependency missing from ~/.m2 is named as such, after the build's own error")
        void missingDependency() throws Exception {
            script(bin.resolve("mvn"), "echo \"[ERROR] Failed to execute goal on project vramlab-cli: Cannot access"
                    + " central (https://repo.maven.apache.org/maven2) in offline mode and the artifact"
                    + " info.picocli:picocli:jar:4.7.7 has not been downloaded from it before.\"; exit 1");
            String out = launch(java.util.Map.of("VRAMLAB_OFFLINE", "1"), "--help");
            assertThat(status).isEqualTo(1);
            assertThat(out).contains("error: vramlab: the build failed; see .vramlab-build.log\nerror: vramlab:"
                    + " offline (VRAMLAB_OFFLINE): a dependency is not in ~/.m2 yet; build once with the network,"
                    + " or unset VRAMLAB_OFFLINE\n").doesNotContain("java ran");
            assertThat(launch(java.util.Map.of(), "--help")).doesNotContain("VRAMLAB_OFFLINE)");
        }

        /** No cmd.exe here: the Windows launcher is read, as LauncherStdinTest reads its NUL. */
        @Test
        @DisplayName("vramlab.cmd (read, not run): the same switch, values and refusal")
        void windows() throws IOException {
            String cmd = Files.readString(KitPaths.root().resolve("vramlab.cmd"));
            assertThat(cmd.lines().filter(l -> l.contains("call mvn "))).singleElement().asString()
                    .contains("call mvn -q -B %OFFLINE% -DskipTests package -pl cli -am");
            assertThat(cmd).contains("if \"%VRAMLAB_OFFLINE%\"==\"1\" set \"OFFLINE=-o\"")
                    .contains("if /i \"%VRAMLAB_OFFLINE%\"==\"true\" set \"OFFLINE=-o\"")
                    .contains("echo error: vramlab: VRAMLAB_OFFLINE is '%VRAMLAB_OFFLINE%': expected 1 (build"
                            + " offline, Maven's -o) or 0 1>&2\nexit /b 2\n")
                    .contains("findstr /c:\"in offline mode\"");
        }
    }

    @Nested
    @DisplayName("a class-data-sharing archive, written once after a build")
    class Archive {
        Path log;

        @BeforeEach
        void builtJar() throws IOException {
            Files.writeString(kit.resolve("cli/target/vramlab-cli.jar"), "a jar");
            Files.setLastModifiedTime(kit.resolve("cli/target/vramlab-cli.jar"),
                    FileTime.from(Instant.now().minusSeconds(3600)));
            log = tmp.resolve("java.log");
            // a JVM that writes the archive it is asked for, and says how it was started
            script(tmp.resolve("jdk/bin/java"), "echo \"java ran: $*\" >> " + log + "\n"
                    + "for a in \"$@\"; do case $a in -XX:ArchiveClassesAtExit=*) echo jsa > \"${a#*=}\";; esac; done\n"
                    + "echo \"java ran: $*\"");
        }

        List<String> runs() throws IOException {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        }

        @Test
        @DisplayName("the first run writes it with a short replay, then every run maps it from the jar")
        void writtenOnceThenMapped() throws Exception {
            String out = launch("replay", "x.trace");
            List<String> first = runs();
            assertThat(first).hasSize(2);
            assertThat(first.get(0)).contains("-XX:ArchiveClassesAtExit=", "vramlab.cli.Main replay -");
            assertThat(first.get(1)).contains("-XX:SharedArchiveFile=" + kit.resolve("cli/target/vramlab.jsa"),
                    "-Xlog:cds=off", "-cp " + kit.resolve("cli/target/vramlab-cli.jar") + ":",
                    "vramlab.cli.Main replay x.trace");
            assertThat(out).containsOnlyOnce("java ran:");           // the archive's run says nothing
            assertThat(kit.resolve("cli/target/vramlab.jsa")).exists();

            launch("--help");
            assertThat(runs()).hasSize(3);
            assertThat(runs().get(2)).contains("-XX:SharedArchiveFile=").doesNotContain("ArchiveClassesAtExit");
        }

        @Test
        @DisplayName("a rebuilt class path writes it again")
        void rewrittenAfterABuild() throws Exception {
            launch("--help");
            Files.setLastModifiedTime(kit.resolve("cli/target/vramlab.jsa.stamp"),
                    FileTime.from(Instant.now().minusSeconds(60)));
            Files.setLastModifiedTime(kit.resolve("cli/target/vramlab-cli.jar"), FileTime.from(Instant.now()));
            launch("--help");
            assertThat(runs()).filteredOn(r -> r.contains("ArchiveClassesAtExit")).hasSize(2);
        }

        @Test
        @DisplayName("a JVM that cannot write it runs the command without one, and is not asked again")
        void refused() throws Exception {
            script(tmp.resolve("jdk/bin/java"), "echo \"java ran: $*\" >> " + log + "\n"
                    + "case \"$*\" in *ArchiveClassesAtExit*) echo refused >&2; exit 1;; esac\n"
                    + "echo \"java ran: $*\"");
            String out = launch("replay", "x.trace");
            assertThat(out).contains("vramlab.cli.Main replay x.trace").doesNotContain("refused");
            launch("replay", "x.trace");
            assertThat(runs()).hasSize(3);
            assertThat(runs().get(1)).doesNotContain("SharedArchiveFile");
            assertThat(runs().get(2)).doesNotContain("SharedArchiveFile").doesNotContain("ArchiveClassesAtExit");
        }

        @Test
        @DisplayName("without the launcher's jar (an older build) it runs from the classes folder, no archive")
        void olderBuild() throws Exception {
            Files.delete(kit.resolve("cli/target/vramlab-cli.jar"));
            launch("--help");
            assertThat(runs()).singleElement().asString()
                    .contains("-cp " + kit.resolve("cli/target/classes") + ":").doesNotContain("Archive");
        }
    }

    @Test
    @DisplayName("replay and the other short commands start on the JIT's first tier; site does not")
    void jitChoices() throws Exception {
        assertThat(launch("replay", "x.trace")).contains("java ran: " + String.join(" ", FastFlags.flags()) + " ")
                .contains("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        assertThat(launch("site")).doesNotContain("TieredStopAtLevel").doesNotContain("InitialRAMPercentage");
    }

    @Test
    @DisplayName("the short-command flags are the file's (FastFlags.PATH), read with no build: a changed line is what java gets")
    void flagsFromTheFile() throws Exception {
        Path flags = kit.resolve(FastFlags.PATH);
        Files.writeString(flags, "-XX:TieredStopAtLevel=1 -XX:+UseEpsilonGC -Dchanged=yes\n");
        Files.setLastModifiedTime(flags, FileTime.from(Instant.now().minusSeconds(7200)));   // older than the build
        String out = launch("replay", "x.trace");
        assertThat(out).contains("java ran: -XX:TieredStopAtLevel=1 -XX:+UseEpsilonGC -Dchanged=yes ")
                .doesNotContain("UseSerialGC").doesNotContain("mvn ran");
        assertThat(launch("grade")).doesNotContain("changed=yes");
    }

    @Test
    @DisplayName("short commands ask for huge pages exactly where Linux lends them on request (madvise or always)")
    void hugePages() throws Exception {
        Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        String text = Files.isReadable(mode) ? Files.readString(mode) : "";
        boolean lent = text.contains("[madvise]") || text.contains("[always]");
        String replay = launch("replay", "x.trace");
        if (lent) {
            assertThat(replay).contains("-XX:InitialRAMPercentage=6 -XX:+UseTransparentHugePages");
        } else {
            assertThat(replay).as("this machine's THP mode: '%s'", text.strip()).doesNotContain("UseTransparentHugePages");
        }
        assertThat(launch("site")).doesNotContain("UseTransparentHugePages");
    }
}
