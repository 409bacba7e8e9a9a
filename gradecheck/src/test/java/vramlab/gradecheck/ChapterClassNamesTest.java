package vramlab.gradecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import vramlab.quiz.KitPaths;

/**
 * A chapter's classes are named one way (HACKING, "Where does my change go"). What a student
 * types in JShell is named for the topic: one {@code <Topic>Lab} and one {@code <Topic>Chapter}
 * ({@code MmuLab}, {@code BuddyChapter}). What the build reads from a chapter is named for its
 * number: {@code ChNNExamples} (worked examples), {@code ChNNOutputs} (the lab's printed runs) and
 * {@code ChNNFigures} (the notes' SVG figures), so a reader finds chapter 6's figures in
 * {@code Ch06Figures} without knowing its topic's word.
 */
@DisplayName("chapter classes: <Topic>Lab and <Topic>Chapter for students, ChNN<Role> for the build")
class ChapterClassNamesTest {

    private static List<Path> chapterPackages() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(KitPaths.root().resolve("chapters"))) {
            for (Path module : (Iterable<Path>) s.sorted()::iterator) {
                String nn = module.getFileName().toString().substring(2, 4);
                Path pkg = module.resolve("src/main/java/vramlab/ch" + nn);
                if (Files.isDirectory(pkg)) out.add(pkg);
            }
        }
        return out;
    }

    private static List<String> classes(Path pkg) throws IOException {
        try (Stream<Path> s = Files.list(pkg)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".java"))
                    .map(n -> n.substring(0, n.length() - 5))
                    .sorted()
                    .toList();
        }
    }

    @Test
    @DisplayName("every chapter has one <Topic>Lab and one <Topic>Chapter")
    void oneLabAndOneChapterClass() throws IOException {
        List<Path> packages = chapterPackages();
        assertThat(packages).hasSizeGreaterThanOrEqualTo(8);
        for (Path pkg : packages) {
            List<String> names = classes(pkg);
            assertThat(names.stream().filter(n -> n.endsWith("Lab")).toList())
                    .as(pkg + ": the class a student opens in JShell").hasSize(1);
            assertThat(names.stream().filter(n -> n.endsWith("Chapter")).toList())
                    .as(pkg + ": the chapter's registry entry").hasSize(1);
        }
    }

    @Test
    @DisplayName("examples, outputs and figures are ChNNExamples, ChNNOutputs and ChNNFigures")
    void buildFacingClassesCarryTheChapterNumber() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Path pkg : chapterPackages()) {
            String nn = pkg.getFileName().toString().substring(2);
            for (String n : classes(pkg)) {
                for (String role : List.of("Examples", "Outputs", "Figures")) {
                    if (n.endsWith(role) && !n.equals("Ch" + nn + role)) {
                        wrong.add(pkg.getFileName() + "/" + n + " (expected Ch" + nn + role + ")");
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
    }
}
