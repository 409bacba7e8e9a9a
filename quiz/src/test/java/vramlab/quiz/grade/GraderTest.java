package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;

class GraderTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            alice            | alice
            ada@example.edu  | ada@example.edu
            ../../etc        | .._.._etc
            ..               | _..
            a b/c\\d         | a_b_c_d
            """)
    @DisplayName("a student id becomes a folder name that cannot leave the work area")
    void folderNames(String id, String folder) {
        assertThat(Grader.folderName(id)).isEqualTo(folder).doesNotContain("/");
    }
}
