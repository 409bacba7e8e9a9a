package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;
import vramlab.quiz.ScoreRow;

/**
 * Instructors' scripts read the gradebooks by their headers, and README.adoc is where the columns
 * are written down for them (it gave only "total, each chapter's lab and quiz points, flags",
 * without max, graded_at, run or the item file's detail). This holds README's column names to
 * the headers Gradebook writes, and quiz/README.adoc's fuller description too.
 */
@DisplayName("README names the gradebooks' columns as Gradebook writes them")
class GradebookReadmeTest {
    @Test
    @DisplayName("gradebook-items.csv's header, and gradebook.csv's fixed and per-chapter columns")
    void columns() throws IOException {
        String readme = Files.readString(KitPaths.root().resolve("README.adoc")).replaceAll("\\s+", " ");
        assertThat(readme).contains("`" + Gradebook.LONG_HEADER + "`");

        String wide = Gradebook.header(List.of(new ScoreRow("4.1", "4.1: oom", 2, 2, "PASSED", ""),
                new ScoreRow("q4.1", "q4.1", 5, 0, "FAILED", "wrong")));
        assertThat(wide).isEqualTo("student,total,max,ch04 lab (2),ch04 quiz (5),flags,graded_at,run");
        assertThat(readme).contains("`student,total,max`, then `chNN lab (MAX)` and `chNN quiz (MAX)` for each chapter,"
                + " then `flags`").contains("`graded_at,run`");

        String quizReadme = Files.readString(KitPaths.root().resolve("quiz/README.adoc")).replaceAll("\\s+", " ");
        assertThat(quizReadme).as("quiz/README.adoc, the grader's own page").contains("`" + Gradebook.LONG_HEADER + "`")
                .contains("one row per student: `student,total,max`").contains("`ch03 lab (40)`")
                .contains("then `flags`").contains("`graded_at` and `run`");
    }
}
