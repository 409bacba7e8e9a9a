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
    /** ./vramlab's FAST, read from the one file it is written in (FastFlagsTest). */
    static final List<String> FAST = FastFlags.flags();

    static List<String> with(List<String> options) {
        List<String> out = new java.util.ArrayList<>(options);
        out.addAll(FAST);
        return out;
    }

    @Test
    @DisplayName("a parent with none of the launcher's flags: the child gets them all, as ./vramlab gives them (C1 alone,"
            + " the serial collector, its young generation and first heap)")
    void defaultsFromTheLauncher() {
        assertThat(StudentCores.childOptions(List.of("-Xmx1g"))).containsExactlyElementsOf(with(List.of("-Xmx1g")));
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
    @DisplayName("what the user chose wins (VRAMLAB_JAVA_OPTS): another tier, another collector, another young generation")
    void theUsersChoiceWins() {
        List<String> mine = List.of("-XX:TieredStopAtLevel=4", "-XX:+UseParallelGC", "-XX:NewRatio=2",
                "-XX:InitialRAMPercentage=1");
        assertThat(StudentCores.childOptions(mine)).containsExactlyElementsOf(mine);
        assertThat(StudentCores.childOptions(List.of("-XX:-TieredCompilation", "-XX:+UseG1GC")))
                .doesNotContain("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    }

    @Test
    @DisplayName("the parent's role, agents and debugger stay with the parent")
    void roleAndAgentsDropped() {
        assertThat(StudentCores.childOptions(List.of("-D" + StudentCores.CHILD + "=mine", "-Dvramlab.home=/kit",
                "-agentlib:jdwp=transport=dt_socket", "-javaagent:/x.jar", "-Dother=1")))
                .containsExactlyElementsOf(with(List.of("-Dother=1")));
    }
}
