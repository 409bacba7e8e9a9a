package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The JVM options of the child that runs a command on the student's cores: the parent's, and the
 * launcher's short-command flags where the parent chose none (a parent not started by
 * {@code ./vramlab}: an IDE, {@code java -cp}, these tests).
 */
@DisplayName("the student's child JVM: the parent's options, and the launcher's short-command flags")
class StudentCoresChildOptionsTest {
    static final List<String> FAST = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:NewRatio=1",
            "-XX:InitialRAMPercentage=6");

    @Test
    @DisplayName("a parent with no JIT tier and no collector chosen: the child gets C1 alone and the serial collector")
    void defaultsFromTheLauncher() {
        assertThat(StudentCores.childOptions(List.of("-Xmx1g")))
                .containsExactly("-Xmx1g", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
        List<String> parent = ManagementFactory.getRuntimeMXBean().getInputArguments();
        assertThat(StudentCores.childCommand(Path.of("kit"), List.of(), List.of("lab", "3")))
                .as("the child's command line carries them").containsSubsequence(StudentCores.childOptions(parent));
    }

    @Test
    @DisplayName("run from ./vramlab, the parent's flags pass on once, not twice")
    void launchersFlagsOnce() {
        assertThat(StudentCores.childOptions(FAST)).containsExactlyElementsOf(FAST);
    }

    @Test
    @DisplayName("what the user chose wins (VRAMLAB_JAVA_OPTS): another tier, another collector")
    void theUsersChoiceWins() {
        List<String> mine = List.of("-XX:TieredStopAtLevel=4", "-XX:+UseParallelGC");
        assertThat(StudentCores.childOptions(mine)).containsExactlyElementsOf(mine);
        assertThat(StudentCores.childOptions(List.of("-XX:-TieredCompilation", "-XX:+UseG1GC")))
                .doesNotContain("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    }

    @Test
    @DisplayName("the parent's role, agents and debugger stay with the parent")
    void roleAndAgentsDropped() {
        assertThat(StudentCores.childOptions(List.of("-D" + StudentCores.CHILD + "=mine", "-Dvramlab.home=/kit",
                "-agentlib:jdwp=transport=dt_socket", "-javaagent:/x.jar", "-Dother=1")))
                .containsExactly("-Dother=1", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    }
}
