package vramlab.labgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's own call, as labgen's pom.xml writes it, run on a student's copy: it must write
 * nothing. (A pom edited to call the generator without {@code --sync}, or with {@code --force},
 * fails here before it can reach a student.)
 */
class BuildKeepsStudentCopyTest {

    /** The arguments the build gives LabGenerator, read from labgen/pom.xml's exec execution. */
    static List<String> buildArguments() throws Exception {
        String pom = Files.readString(LabsMatchSolutionsTest.repoRoot().resolve("labgen/pom.xml"));
        Matcher args = Pattern.compile("(?s)<arguments>(.*?)</arguments>").matcher(pom);
        assertThat(args.find()).as("labgen/pom.xml runs LabGenerator through exec-maven-plugin's <arguments>").isTrue();
        List<String> all = Pattern.compile("<argument>([^<]*)</argument>").matcher(args.group(1)).results()
                .map(m -> m.group(1)).toList();
        int main = all.indexOf(LabGenerator.class.getName());
        assertThat(main).as("the build's main class in " + all).isNotNegative();
        return all.subList(main + 1, all.size());
    }

    @Test
    @DisplayName("the build syncs (never forces), from ../solutions into ../labs")
    void theBuildSyncs() throws Exception {
        assertThat(buildArguments()).containsExactly("--sync", "${project.basedir}/../solutions", "${project.basedir}/../labs");
    }

    @Test
    @DisplayName("run on a student's copy with stale and edited files, the build's call writes over nothing")
    void leavesAStudentsCopy(@TempDir Path kit) throws Exception {
        Path solutions = kit.resolve("solutions");
        Path labs = kit.resolve("labs");
        Files.createDirectories(solutions.resolve("src/main/java/p"));
        Files.writeString(solutions.resolve("src/main/java/p/A.java"), "package p;\nclass A { int changedSince; }\n");
        Files.createDirectories(labs.resolve("src/main/java/p"));
        Path mine = labs.resolve("src/main/java/p/A.java");
        Files.writeString(mine, "package p;\nclass A { /* the student's */ }\n");
        Files.writeString(labs.resolve(LabGenerator.STUDENT_MARKER), "");
        long stamp = Files.getLastModifiedTime(mine).toMillis();

        String[] args = buildArguments().stream()
                .map(a -> a.replace("${project.basedir}", kit.resolve("labgen").toString())).toArray(String[]::new);
        LabGenerator.main(args);

        assertThat(Files.readString(mine, StandardCharsets.UTF_8)).contains("the student's");
        assertThat(Files.getLastModifiedTime(mine).toMillis()).isEqualTo(stamp);
        assertThat(labs.resolve(LabGenerator.MANIFEST)).doesNotExist();
    }
}
