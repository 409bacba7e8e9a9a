package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ReportsTest {
    /** Gradescope's documented fields (gradescope/autograder_samples, docs/specs.md). */
    static final Set<String> TOP = Set.of("score", "execution_time", "output", "output_format",
            "test_output_format", "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
            "leaderboard");
    static final Set<String> TEST = Set.of("score", "max_score", "status", "name", "name_format", "number",
            "output", "output_format", "tags", "visibility", "extra_data");

    static final List<ScoreRow> ROWS = List.of(
            new ScoreRow("3.1", "rounds \"100 B\"\tto 512", 2, 2, "PASSED", ""),
            new ScoreRow("3.10", "merges", 3, 0, "FAILED", "TODO step 3.10 (Merge) is not written yet"),
            new ScoreRow("q3.1", "predict the block", 4, 1, "PARTIAL", "q3.1: 1/4: (b) wrong\nsecond line"));

    @Nested
    @DisplayName("results.json")
    class GradescopeJson {
        @SuppressWarnings("unchecked")
        Map<String, Object> json() {
            return (Map<String, Object>) MiniJson.parse(Reports.gradescopeJson(ROWS, "after_due_date", "Score: 3/9"));
        }

        @Test
        @DisplayName("uses only Gradescope's documented fields, with their types and values")
        @SuppressWarnings("unchecked")
        void validatesAgainstTheSpec() {
            Map<String, Object> top = json();
            assertThat(TOP).containsAll(top.keySet());
            assertThat(top.get("score")).isInstanceOf(Double.class);
            assertThat(Reports.VISIBILITY).contains((String) top.get("visibility"), (String) top.get("stdout_visibility"));
            List<Object> tests = (List<Object>) top.get("tests");
            assertThat(tests).hasSize(ROWS.size());
            for (Object o : tests) {
                Map<String, Object> t = (Map<String, Object>) o;
                assertThat(TEST).containsAll(t.keySet());
                assertThat(t.keySet()).contains("name", "number", "score", "max_score", "status", "output", "visibility");
                assertThat(t.get("status")).isIn("passed", "failed");
                assertThat(Reports.VISIBILITY).contains((String) t.get("visibility"));
                assertThat((Double) t.get("score")).isBetween(0.0, (Double) t.get("max_score"));
            }
        }

        @Test
        @DisplayName("the top-level score is the sum of the tests' scores, and names survive escaping")
        @SuppressWarnings("unchecked")
        void scoreAndEscaping() {
            Map<String, Object> top = json();
            List<Map<String, Object>> tests = (List<Map<String, Object>>) (List<?>) top.get("tests");
            double sum = tests.stream().mapToDouble(t -> (Double) t.get("score")).sum();
            assertThat(top.get("score")).isEqualTo(sum).isEqualTo(3.0);
            assertThat(tests.get(0).get("name")).isEqualTo("rounds \"100 B\"\tto 512");
            assertThat(tests.get(0).get("status")).isEqualTo("passed");
            assertThat(tests.get(2).get("number")).isEqualTo("q3.1");
            assertThat((String) tests.get(2).get("output")).contains("(b) wrong");
        }

        @Test
        @DisplayName("an unknown visibility is refused")
        void badVisibility() {
            assertThatThrownBy(() -> Reports.gradescopeJson(ROWS, "public", ""))
                    .hasMessageContaining("expected one of");
        }

        @Test
        @DisplayName("no rows is still valid JSON with score 0")
        void empty() {
            assertThat(MiniJson.parse(Reports.gradescopeJson(List.of(), "visible", ""))).isInstanceOf(Map.class);
        }
    }

    @Test
    @DisplayName("the Classroom result has the reporter's fields and a test per item")
    @SuppressWarnings("unchecked")
    void classroom() {
        Map<String, Object> top = (Map<String, Object>) MiniJson.parse(Reports.classroomJson(ROWS));
        assertThat(top).containsEntry("version", 1.0).containsEntry("status", "fail").containsEntry("max_score", 9.0);
        List<Map<String, Object>> tests = (List<Map<String, Object>>) (List<?>) top.get("tests");
        assertThat(tests).extracting(t -> t.get("score")).containsExactly(2.0, 0.0, 1.0);
        assertThat(tests).extracting(t -> t.get("status")).containsExactly("pass", "fail", "fail");
    }

    @Test
    @DisplayName("the table lists each item with its reason and ends in Score: X/Y")
    void table() {
        String t = Reports.table(Reports.sorted(ROWS));
        assertThat(t).endsWith("Score: 3/9");
        assertThat(t.indexOf("3.1 ")).isLessThan(t.indexOf("3.10")).isLessThan(t.indexOf("q3.1"));
        assertThat(t).contains("  3.10   TODO     0/3  merges\n           not written yet\n").doesNotContain("needs step")
                .as("the Todo's own words are check's, not the exception's").doesNotContain("TODO step");
    }

    @Test
    @DisplayName("a step not written yet reads as check says it, TODO and 'not written yet', with where to read and write; a wait stays a wait")
    @SuppressWarnings("unchecked")
    void notWrittenAsCheckSaysIt() {
        String todo = "Todo: TODO step 3.1 (Round a request) is not written yet: read the notes, ch03 \"Rule 1\","
                + " then write it in labs/src/main/java/vramlab/alloc/ToyPolicy.java";
        ScoreRow own = new ScoreRow("3.1", "rounds", 2, 0, "FAILED", todo);
        ScoreRow blocked = new ScoreRow("3.4", "merges", 3, 0, "FAILED", todo);
        ScoreRow wrong = new ScoreRow("3.1", "rounds up", 2, 0, "FAILED", "roundSize(1 B): expected 512 B but was 1 B");
        String told = "not written yet: read the notes, ch03 \"Rule 1\", then write it in labs/src/main/java/vramlab/alloc/ToyPolicy.java";
        assertThat(Reports.table(List.of(own, blocked, wrong)))
                .contains("  3.1    TODO     0/2  rounds\n           " + told + "\n")
                .contains("  3.4    WAITING  0/3  merges\n           (needs step 3.1 first) " + todo + "\n")
                .contains("  3.1    FAILED   0/2  rounds up\n           roundSize(1 B)");
        List<Map<String, Object>> tests = (List<Map<String, Object>>) ((Map<String, Object>) MiniJson.parse(
                Reports.gradescopeJson(List.of(own, blocked, wrong), "visible", ""))).get("tests");
        assertThat(tests).extracting(t -> (String) t.get("output")).containsExactly("TODO: " + told,
                "WAITING: (needs step 3.1 first) " + todo, "FAILED: roundSize(1 B): expected 512 B but was 1 B");
        ScoreRow stepOrder = new ScoreRow("3.3", "splits", 2, 0, "FAILED", "needs step 3.2 first: Find a block is not written yet");
        assertThat(Reports.table(List.of(stepOrder))).as("a chapter's test under StepOrder, as check's WAIT")
                .contains("  3.3    WAITING  0/2  splits\n           needs step 3.2 first: Find a block is not written yet\n");
        assertThat(tests).extracting(t -> t.get("status")).as("Gradescope's own status: passed or failed").containsOnly("failed");
        assertThat(tests).extracting(t -> t.get("score")).containsOnly(0.0);
        assertThat(Reports.explained(own)).as("explained keeps the Todo's words; the table, results.json and the gradebook tell it").isEqualTo(todo);
    }

    @Test
    @DisplayName("a step's test stopped by an earlier unwritten step says which step comes first")
    void blockedByAnEarlierStep() {
        ScoreRow blocked = new ScoreRow("3.4", "merges", 3, 0, "FAILED", "Todo: TODO step 3.1 (Round) is not written yet");
        ScoreRow own = new ScoreRow("3.1", "rounds", 2, 0, "FAILED", "Todo: TODO step 3.1 (Round) is not written yet");
        assertThat(Reports.table(List.of(own, blocked)))
                .contains("(needs step 3.1 first) Todo: TODO step 3.1")
                .containsOnlyOnce("needs step");
    }

    @Test
    @DisplayName("the gradebook quotes commas and quotes, and defuses spreadsheet formulas")
    void csv() {
        assertThat(Reports.csv("a,b")).isEqualTo("\"a,b\"");
        assertThat(Reports.csv("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(Reports.csv("=cmd()")).isEqualTo("'=cmd()");
    }

    @Test
    @DisplayName("results.json and the Classroom result keep the reason and say which step comes first")
    @SuppressWarnings("unchecked")
    void reasonsTravel() {
        ScoreRow blocked = new ScoreRow("3.4", "3.4: merges", 3, 0, "FAILED",
                "Todo: TODO step 3.1 (Round) is not written yet\nexpected: 1\n but was: 2");
        Map<String, Object> gs = (Map<String, Object>) MiniJson.parse(Reports.gradescopeJson(List.of(blocked), "visible", ""));
        String out = (String) ((List<Map<String, Object>>) (List<?>) gs.get("tests")).get(0).get("output");
        assertThat(out).startsWith("WAITING: (needs step 3.1 first) Todo: TODO step 3.1").contains("but was: 2");
        Map<String, Object> cr = (Map<String, Object>) MiniJson.parse(Reports.classroomJson(List.of(blocked)));
        Map<String, Object> t = ((List<Map<String, Object>>) (List<?>) cr.get("tests")).get(0);
        assertThat(t.get("name")).as("the step is not repeated").isEqualTo("3.4 merges");
        assertThat((String) t.get("message")).startsWith("(needs step 3.1 first)");
    }

    @Test
    @DisplayName("a question not answered is TODO in the table and results.json (the gradebook's NOT_WRITTEN), in quiz --check's words")
    @SuppressWarnings("unchecked")
    void notAnsweredAsQuizCheckSaysIt() {
        String mark = "q3.1: 0/4: not answered (no blank of q3.1 is filled in labs/answers/ch03.txt)";
        String reread = "reread ch03 \"Rule 1: the rounding ladder\" (ch03-caching-allocator/notes.html#_rule_1)";
        ScoreRow blank = new ScoreRow("q3.1", "q3.1: Predict, the block", 4, 0, "FAILED", mark + "\n" + reread);
        ScoreRow wrong = new ScoreRow("q3.2", "q3.2: Which pool", 2, 0, "FAILED", "q3.2: 0/2: (a) q3.2.a.pool: not the right choice");
        assertThat(Reports.table(List.of(blank, wrong)))
                .contains("  q3.1   TODO     0/4  q3.1: Predict, the block\n           " + mark + "\n             " + reread + "\n")
                .contains("  q3.2   FAILED   0/2  q3.2: Which pool\n");
        List<Map<String, Object>> tests = (List<Map<String, Object>>) ((Map<String, Object>) MiniJson.parse(
                Reports.gradescopeJson(List.of(blank, wrong), "visible", ""))).get("tests");
        assertThat(tests).extracting(t -> (String) t.get("output"))
                .containsExactly("TODO: " + mark + "\n" + reread, "FAILED: q3.2: 0/2: (a) q3.2.a.pool: not the right choice");
        assertThat(tests).extracting(t -> t.get("status")).as("Gradescope's own status").containsOnly("failed");
        Map<String, Object> cr = (Map<String, Object>) MiniJson.parse(Reports.classroomJson(List.of(blank)));
        assertThat(((List<Map<String, Object>>) (List<?>) cr.get("tests")).get(0).get("message")).isEqualTo(mark + "\n" + reread);
    }

    @Test
    @DisplayName("score rows survive the TSV round trip and refuse impossible points")
    void tsv() {
        for (ScoreRow r : ROWS) {
            ScoreRow back = ScoreRow.fromTsv(r.toTsv());
            assertThat(back.earned()).isEqualTo(r.earned());
            assertThat(back.step()).isEqualTo(r.step());
        }
        assertThatThrownBy(() -> new ScoreRow("1", "x", 2, 3, "PASSED", "")).hasMessageContaining("earned 3 of 2");
    }
}
