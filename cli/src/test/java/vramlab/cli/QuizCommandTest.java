package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;

class QuizCommandTest {
    @TempDir Path tmp;

    record Result(int status, String out, String err) {}

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = Main.run(args, new Io(new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("without a student the quiz has the notes' own numbers; with one, that student's")
    void variants() {
        Result seed = run("quiz", "real-oom");
        assertThat(seed.status()).isZero();
        assertThat(seed.out()).contains("The notes' own numbers").contains("Process 23187 has 27.30 GiB");
        Result alice = run("quiz", "4", "--student", "alice");
        assertThat(alice.out()).contains("student alice (practice numbers)").doesNotContain("Process 23187");
        assertThat(run("quiz", "ch04", "--student", "alice").out()).isEqualTo(alice.out());
        assertThat(run("quiz", "4", "--student", "bob").out()).isNotEqualTo(alice.out());
    }

    @Test
    @DisplayName("a blank sheet is written once; --check marks it without showing the key")
    void sheetAndCheck() throws Exception {
        Path sheet = tmp.resolve("ch03.txt");
        assertThat(run("quiz", "3", "--student", "carol", "--sheet", sheet.toString()).status()).isZero();
        String text = Files.readString(sheet).replace("q3.1.a.size = ", "q3.1.a.size = 1").replace("q3.5.a.layer = ", "q3.5.a.layer = DRIVER_CUDA_MALLOC");
        Files.writeString(sheet, text);
        Result check = run("quiz", "3", "--student", "carol", "--check", sheet.toString());
        assertThat(check.out()).contains("Score: 0/" + chapterPoints("ch03", "carol"))
                .contains("q3.5.a.layer: not the right choice")
                .doesNotContain("CACHING_ALLOCATOR");
        // Answered in part is wrong; no blank filled in is TODO, as grade's table and results.json say it.
        assertThat(check.out().lines()).anySatisfy(l -> assertThat(l).startsWith("  wrong  q3.1: 0/"))
                .anySatisfy(l -> assertThat(l).matches("  TODO   q3\\.2: 0/\\d+: not answered \\(no blank of q3\\.2 is filled in .*ch03\\.txt\\)"));
        // Under a question answered and marked down, the section to reread; under one not answered, nothing (a
        // reread line under each was noise), and one line above the score counts and names them.
        List<String> lines = check.out().lines().toList();
        List<String> todo = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("  TODO   ")) {
                todo.add(lines.get(i).substring(9, lines.get(i).indexOf(':')));
                assertThat(lines.get(i + 1)).as("under " + lines.get(i)).doesNotContain("reread");
            }
            if (lines.get(i).startsWith("  wrong  q3.1:")) assertThat(lines.get(i + 1)).startsWith("         reread ch03 \"");
        }
        assertThat(todo).hasSizeGreaterThan(2).doesNotContain("q3.1", "q3.5");
        assertThat(lines.get(lines.size() - 2)).isEqualTo("Not answered yet: " + todo.size() + " of "
                + QuizCommand.questions("ch03").size() + " questions (" + String.join(", ", todo) + ").");
        assertThat(lines.get(lines.size() - 1)).startsWith("Score: ");
        Result again = run("quiz", "3", "--student", "carol", "--sheet", sheet.toString());
        assertThat(again.status()).isEqualTo(2);
        assertThat(again.out()).as("the refusal comes before the quiz, which is not printed").isEmpty();
        assertThat(again.err()).contains("--sheet " + sheet + ": it already holds answers").hasLineCount(1);
        assertThat(Files.readString(sheet)).isEqualTo(text);
    }

    @Test
    @DisplayName("in a release, --student's quiz shows each question's points, taken from the practice question of the same id")
    void pointsWhereTheSimulatorIsMissing() {
        vramlab.quiz.Question real = QuizCommand.questions("ch03").get(0);
        vramlab.quiz.Question needsSimulator = new vramlab.quiz.Question() {   // as in a release: no reference cores
            @Override public String id() { return real.id(); }
            @Override public String title() { return real.title(); }
            @Override public String prompt(Variant v) { return real.prompt(v); }
            @Override public List<vramlab.quiz.Part> parts(Variant v) { throw new NoClassDefFoundError("vramlab/alloc/Sim"); }
        };
        Variant alice = Variant.of("ch03", "alice", Salt.PRACTICE);
        String text = QuizCommand.text(vramlab.kit.Chapters.find("3"), alice, Salt.PRACTICE, List.of(needsSimulator),
                List.of(real));
        assertThat(text).contains(real.id() + "  " + real.title() + "  [" + real.points(alice) + " points]")
                .doesNotContain("[? points]");
    }

    @Test
    @DisplayName("in a release, the practice numbers' quiz does not send the student to --student, whose numbers no one there checks")
    void releaseHeading() {
        List<vramlab.quiz.Question> practice = QuizCommand.questions("ch03");   // a release passes its practice key's questions
        String seed = QuizCommand.text(vramlab.kit.Chapters.find("3"), Variant.of("ch03", null, Salt.PRACTICE), Salt.PRACTICE,
                practice, practice);
        assertThat(seed.lines().skip(1).findFirst().orElseThrow())
                .startsWith("The practice numbers, the same for everyone").doesNotContain("give --student");
        String alice = QuizCommand.text(vramlab.kit.Chapters.find("3"), Variant.of("ch03", "alice", Salt.PRACTICE),
                Salt.PRACTICE, practice, practice);
        assertThat(alice).contains("for student alice (practice numbers: not the ones your instructor grades");
        assertThat(QuizCommand.text(vramlab.kit.Chapters.find("3"), Variant.of("ch03", null, Salt.PRACTICE), Salt.PRACTICE,
                practice)).as("the kit, with its reference, keeps its line").contains("The notes' own numbers (give --student <id> for your own)");
    }

    @Test
    @DisplayName("in a release, the quiz ends naming the practice sheet already in labs/answers/, and with --student not --sheet or --check, which are refused there")
    void releaseClosingLine() {
        List<vramlab.quiz.Question> practice = QuizCommand.questions("ch05");
        vramlab.kit.ChapterLab ch05 = vramlab.kit.Chapters.find("5");
        String seed = QuizCommand.text(ch05, Variant.of("ch05", null, Salt.PRACTICE), Salt.PRACTICE, practice, practice);
        assertThat(seed.strip().lines().reduce((a, b) -> b).orElseThrow())
                .isEqualTo("Answer in labs/answers/ch05.txt, then: ./vramlab quiz 5 --check labs/answers/ch05.txt");
        String alice = QuizCommand.text(ch05, Variant.of("ch05", "alice", Salt.PRACTICE), Salt.PRACTICE, practice, practice);
        assertThat(alice).doesNotContain("--sheet <file>", "--check <file>")
                .contains("This copy checks the practice numbers only (leave --student out)");
        assertThat(QuizCommand.text(ch05, Variant.of("ch05", null, Salt.PRACTICE), Salt.PRACTICE, practice))
                .as("the kit keeps its line").endsWith("Answer in an answer sheet (--sheet <file>), then --check <file>.\n");
    }

    @Test
    @DisplayName("the key's sheet checks out at full marks")
    void keyChecksOut() throws Exception {
        Variant v = Variant.of("ch03", "dave", Salt.PRACTICE);
        Path sheet = tmp.resolve("key.txt");
        Files.writeString(sheet, AnswerSheet.key("ch03", v, QuizCommand.questions("ch03")));
        int max = chapterPoints("ch03", "dave");
        assertThat(max).isGreaterThanOrEqualTo(17);
        assertThat(run("quiz", "3", "--student", "dave", "--check", sheet.toString()).out())
                .contains("Score: " + max + "/" + max);
    }

    @Test
    @DisplayName("--check without --student marks the sheet for the student its header names")
    void checkUsesTheSheetsStudent() throws Exception {
        Variant v = Variant.of("ch03", "erin", Salt.PRACTICE);
        Path sheet = tmp.resolve("erin.txt");
        Files.writeString(sheet, AnswerSheet.key("ch03", v, QuizCommand.questions("ch03")));
        int max = chapterPoints("ch03", "erin");
        Result r = run("quiz", "3", "--check", sheet.toString());
        assertThat(r.out()).contains("for student erin (its student line)").contains("Score: " + max + "/" + max)
                .doesNotContain("note:");
        // Another student's variant: the sheet's numbers are not frank's, so it is not marked (one line, exit 2).
        Result asFrank = run("quiz", "3", "--student", "frank", "--check", sheet.toString());
        assertThat(asFrank.status()).isEqualTo(2);
        assertThat(asFrank.err()).contains("written for variant " + v.fingerprint()).contains("student frank")
                .doesNotContain("Score:");
    }

    @Test
    @DisplayName("--check on the blank practice sheet with a name put in its student line says which line to undo")
    void practiceSheetWithAStudentLine() throws Exception {
        Variant seed = Variant.of("ch03", null, Salt.PRACTICE);
        String blank = AnswerSheet.key("ch03", seed, QuizCommand.questions("ch03"));
        assertThat(blank).contains("\nstudent = \n");
        Path sheet = tmp.resolve("ch03.txt");
        Files.writeString(sheet, blank.replace("\nstudent = \n", "\nstudent = ana\n"));
        int line = 1 + (int) blank.substring(0, blank.indexOf("\nstudent = ")).chars().filter(c -> c == '\n').count() + 1;
        Result r = run("quiz", "3", "--check", sheet.toString());
        assertThat(r.status()).isEqualTo(2);
        // It was: "written for variant <seed>, but these are the numbers of variant <ana's> (student ana,
        // practice numbers): a sheet with the course's own numbers only your instructor can mark".
        assertThat(r.err()).contains(sheet + ":" + line + ": written for variant " + seed.fingerprint()
                + ", the practice numbers (no student), but its student line says ana, whose numbers are variant "
                + Variant.of("ch03", "ana", Salt.PRACTICE).fingerprint() + ": leave the student line empty to check it")
                .contains("leave the student line empty").doesNotContain("only your instructor").hasLineCount(1);
        Files.writeString(sheet, blank);
        Result asAna = run("quiz", "3", "--student", "ana", "--check", sheet.toString());
        assertThat(asAna.err()).contains("--student ana, whose numbers are variant " + Variant.of("ch03", "ana", Salt.PRACTICE)
                .fingerprint()).contains("leave --student out");
        assertThat(run("quiz", "3", "--check", sheet.toString()).out()).contains("Score: ");
    }

    @Test
    @DisplayName("--check lists keys that no blank has, with the line and the key that was meant")
    void checkReportsMisspeltKeys() throws Exception {
        Variant v = Variant.of("ch03", "gail", Salt.PRACTICE);
        String key = AnswerSheet.key("ch03", v, QuizCommand.questions("ch03"));
        String misspelt = key.replace("q3.1.a.size =", "q3.1.a.szie =");
        Path sheet = tmp.resolve("gail.txt");
        Files.writeString(sheet, misspelt);
        int line = 1 + (int) misspelt.substring(0, misspelt.indexOf("q3.1.a.szie =")).chars().filter(c -> c == '\n').count();
        Result r = run("quiz", "3", "--check", sheet.toString());
        assertThat(r.out()).contains(sheet + ":" + line + ": unknown key 'q3.1.a.szie' (did you mean q3.1.a.size?)")
                .contains("q3.1.a.size: not answered");
    }

    @Test
    @DisplayName("bad input is one line and status 2: an odd id, the notes' own id, --key without the salt, a chapter without a quiz")
    void badInput() {
        for (List<String> args : List.of(List.of("quiz", "3", "--student", "a b"), List.of("quiz", "3", "--key"),
                List.of("quiz", "3", "--student", "seed"),
                List.of("quiz"), List.of("quiz", "99"))) {
            Result r = run(args.toArray(String[]::new));
            assertThat(r.status()).as(args.toString()).isEqualTo(2);
            assertThat(r.err()).startsWith("error: quiz: ").hasLineCount(1);
        }
    }

    @Test
    @DisplayName("a fault of the sheet is one line naming the file and its line, as every file's error is (README, Reliability)")
    void sheetErrorsNameTheFile() throws Exception {
        Path bad = Files.writeString(tmp.resolve("bad.txt"), "q3.1: banana\n");
        Result r = run("quiz", "3", "--check", bad.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("error: " + bad + ":1: expected 'key = answer', found 'q3.1: banana'\n");

        Path other = Files.writeString(tmp.resolve("other.txt"), "chapter = ch04\n");
        r = run("quiz", "3", "--check", other.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: " + other + ":1: a sheet for ch04, not ch03").hasLineCount(1);
    }

    /** The chapter's points for this student: the sum over its registered questions. */
    static int chapterPoints(String chapter, String student) {
        Variant v = Variant.of(chapter, student, Salt.PRACTICE);
        return QuizCommand.questions(chapter).stream().mapToInt(q -> q.points(v)).sum();
    }
}
