package vramlab.gradecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import vramlab.quiz.KitPaths;

/**
 * HACKING's house rule for the code a newcomer reads first: one concept per class, said at the
 * top. Every main class of the cores ({@code solutions/}), the grader ({@code quiz/}), the toolkit,
 * the launcher and the lab generator has at most {@value #MAX_LINES} lines and a comment before
 * its type declaration (the comment is where the class says the one concept it holds). A class
 * that outgrows the limit is split along the seams its source has, as CachingAllocator and
 * GpuProcess were.
 */
@DisplayName("one concept per class: no main class over 550 lines, each opening with its comment")
class OneConceptPerClassTest {

    static final int MAX_LINES = 550;
    static final List<String> MODULES = List.of("solutions", "quiz", "toolkit", "cli", "labgen");

    private static final Pattern TYPE = Pattern.compile(
            "^(?:public |final |abstract |sealed |non-sealed )*(?:class|interface|record|enum|@interface) ",
            Pattern.MULTILINE);

    static List<Path> mainClasses() throws IOException {
        Path root = KitPaths.root();
        List<Path> files = new ArrayList<>();
        for (String module : MODULES) {
            Path dir = root.resolve(module).resolve("src/main/java");
            try (Stream<Path> s = Files.walk(dir)) {
                s.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    @Test
    @DisplayName("the modules hold classes (an empty walk would pass everything)")
    void theWalkFindsClasses() throws IOException {
        assertThat(mainClasses()).hasSizeGreaterThan(200);
    }

    @Test
    @DisplayName("no main class is over 550 lines")
    void noClassIsOverTheLimit() throws IOException {
        Path root = KitPaths.root();
        List<String> big = new ArrayList<>();
        for (Path f : mainClasses()) {
            long lines = Files.readAllLines(f).size();
            if (lines > MAX_LINES) big.add(root.relativize(f) + ": " + lines + " lines");
        }
        assertThat(big).as("classes to split along their own seams (HACKING, 'Where does my change go')").isEmpty();
    }

    @Test
    @DisplayName("each main class opens with a comment that says what it holds")
    void eachClassSaysWhatItHolds() throws IOException {
        Path root = KitPaths.root();
        List<String> silent = new ArrayList<>();
        for (Path f : mainClasses()) {
            String text = Files.readString(f);
            Matcher type = TYPE.matcher(text);
            if (!type.find()) continue; // package-info.java and the like
            String head = text.substring(0, type.start());
            int lastImport = Math.max(head.lastIndexOf("\nimport "), head.indexOf("package "));
            String between = head.substring(Math.max(lastImport, 0));
            if (!between.contains("/**") && !between.contains("/*") && !between.contains("//")) {
                silent.add(root.relativize(f).toString());
            }
        }
        assertThat(silent).as("main classes with no comment before their declaration").isEmpty();
    }
}
