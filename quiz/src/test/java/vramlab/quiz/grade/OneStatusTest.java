package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.ObjectMapper;

import vramlab.quiz.Reports;
import vramlab.quiz.ScoreRow;

/**
 * One item, one story: the gradebook's status ({@code gradebook-items.csv}), the status grade's
 * table shows and the word {@code results.json}'s output starts with come from one rule
 * ({@link ScoreRow#todo}, {@link ScoreRow#waitingFor}), and "(needs step N first)" is said where,
 * and only where, the item waits. Before that rule each of the three decided for itself: a
 * {@code TODO step 3.1 is not written yet} of step 3.1 was the table's {@code WAITING} and the
 * gradebook's {@code NOT_WRITTEN}; a Todo on an assertion's fourth line was the gradebook's
 * {@code WAITING} and the table's {@code FAILED} with "(needs step 3.1 first)" under it; a
 * question left blank in an answered sheet was {@code FAILED} everywhere, and in a missing sheet
 * the gradebook's {@code NOT_WRITTEN} but the table's {@code FAILED}, as was a submission with
 * nothing in it. (The gradebook's TIMEOUT, COMPILE_ERROR and CRASHED stay its own: the table
 * shows those rows' FAILED, and their reasons say which.)
 */
class OneStatusTest {
    /** AssertJ's message when a step's test expected an exception and got a step's Todo: the Todo on the fourth line. */
    static final String ASSERTJ = "Expecting actual throwable to be an instance of:\\n  java.lang.IllegalArgumentException\\n"
            + "but was:\\n  vramlab.lab.Todo: TODO step 3.1 (Round a request) is not written yet: read the notes";

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            3.1  | Todo: TODO step 3.1 (Round a request) is not written yet: read the notes              | NOT_WRITTEN
            3.1  | TODO step 3.1 is not written yet                                                     | NOT_WRITTEN
            3.1  | Todo: TODO step 3.1: Round a request                                                 | NOT_WRITTEN
            3.4  | Todo: TODO step 3.1 (Round a request) is not written yet: read the notes              | WAITING
            3.4  | TODO step 3.1 is not written yet                                                     | WAITING
            3.1  | Todo: TODO step 3.10 (Merge) is not written yet                                      | WAITING
            3.3  | needs step 3.2 first: Find a block is not written yet: read the notes               | WAITING
            3.4  | ASSERTJ                                                                              | FAILED
            3.1  | ASSERTJ                                                                              | FAILED
            3.1  | roundSize(1 B): expected 512 B but was 1 B\\nTODO step 3.1 (Round) in a note        | FAILED
            q3.1 | q3.1: 0/4: not answered (no blank of q3.1 is filled in labs/answers/ch03.txt)\\nreread ch03 "Rule 1" | NOT_WRITTEN
            q4.1 | q4.1: 0/5: not answered (no blank of q4.1 is filled in labs/answers/ch04.txt, which is missing) | NOT_WRITTEN
            q3.1 | q3.1: 0/4: (a) q3.1.a.size: not answered; (b) q3.1.b.layer: not the right choice  | FAILED
            q3.1 | q3.1: 0/4: (a) q3.1.a.size: 7 B is not the size the simulator computes            | FAILED
            3.1  | not graded: no labs/ found: looked for labs/src/main/java or labs/answers/             | NOT_WRITTEN
            3.4  | no Java sources in labs/src/main/java (labs/ at the top)                             | NOT_WRITTEN
            """)
    void gradebookTableAndResultsJsonAgree(String step, String reason, Gradebook.Status expected) throws Exception {
        String why = (reason.equals("ASSERTJ") ? ASSERTJ : reason).replace("\\n", "\n");
        ScoreRow row = new ScoreRow(step, step + ": an item", 4, 0, ScoreRow.FAILED, why);

        List<String> cells = Gradebook.itemCells("kim", row);
        String table = Reports.table(List.of(row));
        String tableStatus = table.lines().skip(1).findFirst().orElseThrow().strip().split("\\s+")[1];
        @SuppressWarnings("unchecked")
        Map<String, Object> json = new ObjectMapper().readValue(Reports.gradescopeJson(List.of(row), "visible", ""), Map.class);
        @SuppressWarnings("unchecked")
        String output = (String) ((List<Map<String, Object>>) json.get("tests")).get(0).get("output");
        String jsonStatus = output.substring(0, output.indexOf(':'));

        String shown = expected == Gradebook.Status.NOT_WRITTEN ? ScoreRow.TODO : expected.name();
        assertThat(List.of(cells.get(5), tableStatus, jsonStatus)).as("gradebook, table, results.json for\n" + table + "\n" + output)
                .containsExactly(expected.name(), shown, shown);
        boolean waits = expected == Gradebook.Status.WAITING;
        assertThat(table.contains("needs step")).as("the table says it waits:\n" + table).isEqualTo(waits);
        assertThat(output.contains("needs step")).as("results.json says it waits: " + output).isEqualTo(waits);
        assertThat(cells.get(6).contains("needs step")).as("the gradebook's reason says it waits: " + cells).isEqualTo(waits);
    }
}
