package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.quiz.grade.Declared;
import vramlab.quiz.grade.Kit;

/**
 * What the GitHub Classroom workflow posts, as its comments and the READMEs say it: every item,
 * the kit's declared total, read here the way {@code ./vramlab grade} reads it (the graded lab
 * tests' points, {@link Declared#labTotal}, plus the quiz's on the practice numbers,
 * {@link Declared#quizTotal}), so a chapter's new points cannot leave the text behind.
 */
class ReleaseClassroomPointsTest {
    static final Pattern POINTS = Pattern.compile("(\\d+) points \\((\\d+) lab \\+ (\\d+) quiz\\)");

    @Test
    @DisplayName("classroom.yml, README.adoc and quiz/README.adoc state the points grade posts: T points (L lab + Q quiz)")
    void theStatedTotalsAreTheKits() throws Exception {
        Path root = KitPaths.root();
        Kit kit = Kit.locate(root);
        int lab = Declared.scan(kit).withoutQuizTests().labTotal();
        int quiz = Declared.quizTotal(kit.questions(), "classroom", Salt.PRACTICE);
        assertThat(lab).isPositive();
        assertThat(quiz).isPositive();
        for (String file : List.of(".github/workflows/classroom.yml", "README.adoc", "quiz/README.adoc")) {
            String text = Files.readString(root.resolve(file)).replaceAll("\\s*\\n\\s*(#\\s*)?", " ");
            Matcher m = POINTS.matcher(text);
            assertThat(m.find()).as("%s states the points the workflow posts as 'T points (L lab + Q quiz)'", file).isTrue();
            do {
                assertThat(List.of(m.group(1), m.group(2), m.group(3))).as(file + ": " + m.group())
                        .containsExactly("" + (lab + quiz), "" + lab, "" + quiz);
            } while (m.find());
            assertThat(text).as(file).doesNotContain("lab points only").doesNotContain("lab steps only");
        }
        assertThat(Files.readString(root.resolve("quiz/README.adoc"))).contains("`Score: X/" + (lab + quiz) + "`");
    }
}
