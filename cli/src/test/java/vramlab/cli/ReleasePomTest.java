package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;

/** The release's root pom, from the kit's own (the whole release is ReleaseTest, -Pgrading-fixtures). */
class ReleasePomTest {
    static List<String> modules(String pom) {
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) out.add(m.group(1));
        return out;
    }

    @Test
    @DisplayName("cores/ in place of solutions/, the report in the default build, only the modules the release holds")
    void releasePom() throws Exception {
        String kit = Files.readString(KitPaths.root().resolve("pom.xml")).replace("<module>cli</module>",
                "<module>cli</module>\n    <module>slides</module>");
        Set<String> held = Set.of("labgen", "cores", "labs", "quiz", "toolkit", "cli", "quiz/report",
                "chapters/ch01-mmu", "chapters/ch03-caching-allocator");
        String pom = ReleaseCommand.releasePom(kit, held::contains);
        assertThat(modules(pom)).containsExactly("labgen", "cores", "labs", "quiz", "toolkit", "chapters/ch01-mmu",
                "chapters/ch03-caching-allocator", "cli", "quiz/report");
        assertThat(pom.replaceAll("\\s+", " ")).as("of the kit's profiles, an empty lab alone (the notes' mvn test -Plab)")
                .contains("<profiles> <!-- the notes' mvn test -Plab: plain mvn test grades here already --> "
                        + "<profile> <id>lab</id> </profile> </profiles> </project>")
                .doesNotContain("<id>grading-fixtures</id>").doesNotContain("<id>fuzz</id>");
        assertThat(pom).doesNotContain("solutions</")
                .contains("<vramlab.core>vramlab-cores</vramlab.core>")
                .contains("<vramlab.labs.skip>true</vramlab.labs.skip>")
                .contains("<vramlab.surefire.skip>true</vramlab.surefire.skip>");
    }

    @Test
    @DisplayName("a kit pom it cannot rewrite is an error, not a release that builds the wrong thing")
    void unknownPom() {
        assertThatThrownBy(() -> ReleaseCommand.releasePom("<project><modules><module>cli</module></modules></project>",
                m -> true)).hasMessageContaining("cannot write");
    }
}
