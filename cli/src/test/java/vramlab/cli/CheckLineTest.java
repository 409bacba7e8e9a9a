package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.build.CoreBuild;

/**
 * {@code check} tells a student where to look: the file and the line of the step's method, read
 * from their file as it is (lines they added above it move it), as {@code file:line}; a method
 * they renamed is said to be not found, beside the file.
 */
class CheckLineTest {
    static final String FILE = "labs/src/main/java/vramlab/alloc/ToyPolicy.java";

    @TempDir Path tmp;

    @AfterEach
    void done() { System.clearProperty(StudentCores.LABS); }

    /** A student's copy of labs/ whose ToyPolicy has {@code edit} applied; returns its ToyPolicy.java. */
    Path studentCopy(java.util.function.UnaryOperator<String> edit) throws IOException {
        Path labs = ScratchLabs.make(KitPaths.root(), tmp.resolve("labs"), List.of(), Map.of("ToyPolicy.java", edit));
        Files.writeString(labs.resolve(StudentCores.MARKER), "");
        System.setProperty(StudentCores.LABS, labs.toString());
        return labs.resolve("src/main/java/vramlab/alloc/ToyPolicy.java");
    }

    /** The 1-based line of the first line of {@code file} that contains {@code text}. */
    static int lineOf(Path file, String text) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(text)) return i + 1;
        throw new AssertionError(file + " has no line with " + text);
    }

    @Test
    @DisplayName("a FAIL names file:line of the student's method, with lines they added above it; a renamed method is not found")
    void failNamesTheLine() throws IOException {
        Path generated = studentCopy(t -> t);
        int asHandedOut = lineOf(generated, "public long roundSize(long requested)");
        String helper = """
                    // my notes on the ladder
                    private static long half(long x) {
                        return x / 2;
                    }

                """;
        Path mine = studentCopy(t -> {
            String withHelper = t.replace("    // tag::round[]\n", helper + "    // tag::round[]\n");
            int at = withHelper.indexOf("throw new vramlab.lab.Todo(\"3.1\"");
            return withHelper.substring(0, at) + "return requested + 1;   // wrong on purpose"
                    + withHelper.substring(withHelper.indexOf('\n', at));
        });
        int line = lineOf(mine, "public long roundSize(long requested)");
        assertThat(line).as("the helper moved the method").isEqualTo(asHandedOut + helper.lines().count());

        CliRun r = CliRun.of("check", "3.1");
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        // The tests run in cli/ on a scratch labs/ (-Dvramlab.labs): the places name that file, from here.
        java.util.regex.Matcher heading = java.util.regex.Pattern.compile("(?m)^3\\.1 Round a request  \\((\\S+" + FILE + "):(\\d+);"
                + " notes: ch03 \"Rule 1: the rounding ladder\"\\)$").matcher(r.out());
        assertThat(heading.find()).as(r.out()).isTrue();
        assertThat(Files.isSameFile(Path.of(heading.group(1)), mine)).as(heading.group(1) + " opens the student's file from here").isTrue();
        assertThat(Integer.parseInt(heading.group(2))).isEqualTo(line);
        assertThat(r.out()).contains("FAIL");
        assertThat(r.out().lines().filter(l -> l.equals("        your method ToyPolicy.roundSize: " + heading.group(1) + ":" + line)))
                .as(r.out()).isNotEmpty();

        // Renamed: the place check reads from the file as it is now (its wiring into check's report is the run
        // above; how the report says "not found" is failWithoutTheMethod), without a second compile and run.
        studentCopy(t -> t.replace("public long roundSize(long requested)", "public long roundUp(long requested)"));
        LabGenerator.Step step = LabGenerator.steps(KitPaths.root().resolve("solutions")).stream()
                .filter(s -> s.id().equals("3.1")).findFirst().orElseThrow();
        assertThat(StepLine.of(KitPaths.root(), tmp, step)).isEqualTo(new StepLine(FILE, "ToyPolicy.roundSize", 0));
    }

    /** alloc's build, failed with {@code error}. */
    private static CoreBuild.Outcome outcome(CoreBuild.CompileError error) {
        CoreBuild.Core alloc = CoreBuild.CORES.stream().filter(c -> c.name().equals("alloc")).findFirst().orElseThrow();
        return new CoreBuild.Outcome(alloc, Path.of("unused"), false, List.of(error), false);
    }

    @Test
    @DisplayName("run from a folder below the copy's root, the heading, the FAIL's line and a compile error (check's and the compile report's) name the file as it opens"
            + " from there; from the root, as they always did")
    void placesFromASubfolder() throws IOException {
        Path root = KitPaths.root();
        LabGenerator.Step step = LabGenerator.steps(root.resolve("solutions")).stream()
                .filter(s -> s.id().equals("3.1")).findFirst().orElseThrow();
        CheckCommand.Target target = CheckCommand.Target.of("3.1", List.of(step));
        List<ScoreRow> rows = List.of(ScoreRow.zero("3.1", "the ladder", 2, ScoreRow.FAILED, "roundSize(1 B): expected 512 B but was 2 B"));
        CoreBuild.CompileError error = new CoreBuild.CompileError("vramlab/alloc/ToyPolicy.java", 37, "';' expected");
        Path real = root.resolve(FILE);
        int line = lineOf(real, "public long roundSize(long requested)");

        StepLine fromRoot = StepLine.of(root, root, step);
        assertThat(fromRoot).isEqualTo(new StepLine(FILE, "ToyPolicy.roundSize", line));
        assertThat(StudentCores.errorAt(root, root, error)).isEqualTo(FILE + ":37: ';' expected");

        for (Path cwd : List.of(root.resolve("labs"), root.resolve("chapters/ch03-caching-allocator"))) {
            StepLine place = StepLine.of(root, cwd, step);
            String text = new CheckReport(target, rows, Map.of("3.1", place)).text();
            assertThat(text).contains("3.1 Round a request  (" + place.file() + ":" + line + "; notes:")
                    .contains("        your method ToyPolicy.roundSize: " + place.file() + ":" + line + "\n");
            assertThat(place.file()).as("from " + cwd).doesNotStartWith("/").endsWith("src/main/java/vramlab/alloc/ToyPolicy.java");
            assertThat(Files.isSameFile(cwd.resolve(place.file()), real)).as(place.file() + " from " + cwd).isTrue();
            assertThat(StudentCores.errorAt(root, cwd, error)).isEqualTo(place.file() + ":37: ';' expected");
            // The compile report lab, jshell and check print on standard error names it alike.
            assertThat(StudentCores.compileReport(outcome(error), root, cwd, false))
                    .contains("\n  " + place.file() + ":37: ';' expected\n");
        }
        assertThat(StudentCores.compileReport(outcome(error), root, root, false)).contains("\n  " + FILE + ":37: ';' expected\n");
        assertThat(StepLine.of(root, root.resolve("labs"), step).file()).isEqualTo("src/main/java/vramlab/alloc/ToyPolicy.java");

        // Another labs/ (-Dvramlab.labs): the file named is that one, the one check compiles and the student edits.
        Path mine = studentCopy(t -> t);
        assertThat(Files.isSameFile(root.resolve(StepLine.of(root, root, step).file()), mine)).isTrue();
        assertThat(StepLine.of(root, mine.getParent(), step).file()).isEqualTo("ToyPolicy.java");
    }

    @Test
    @DisplayName("a FAIL under a method that was not found says so, with the file; the line is kept past the cut of a long reason")
    void failWithoutTheMethod() {
        CheckCommand.Target target = CheckCommand.Target.of("3.1", LabGenerator.steps(KitPaths.root().resolve("solutions")));
        String longReason = String.join("\n", java.util.Collections.nCopies(CheckReport.MAX_LINES + 5, "roundSize(1 B): expected 512 B but was 1 KiB"));
        List<ScoreRow> rows = List.of(ScoreRow.zero("3.1", "the ladder", 2, ScoreRow.FAILED, longReason));
        String notFound = new CheckReport(target, rows, Map.of("3.1", new StepLine(FILE, "ToyPolicy.roundSize", 0))).text();
        assertThat(notFound).contains("(" + FILE + ", method ToyPolicy.roundSize not found; notes:")
                .contains("        your method ToyPolicy.roundSize was not found in " + FILE + " (renamed?");
        String found = new CheckReport(target, rows, Map.of("3.1", new StepLine(FILE, "ToyPolicy.roundSize", 41))).text();
        assertThat(found).contains("        ...\n        your method ToyPolicy.roundSize: " + FILE + ":41\n");
    }

    @Test
    @DisplayName("a declaration split across lines beside a new overload of the same name: the heading names the step's method, not the overload")
    void splitDeclarationBesideAnOverload() throws IOException {
        LabGenerator.Step step = LabGenerator.steps(KitPaths.root().resolve("solutions")).stream()
                .filter(s -> s.id().equals("3.1")).findFirst().orElseThrow();
        String overload = """
                    /** An int request: roundSize(long) below does the work. */
                    public long roundSize(int requested) {
                        return roundSize((long) requested);
                    }

                """;
        // The step's file alone, as the generator hands it out, edited as the student did (no build: StepLine reads the text).
        String handedOut = LabGenerator.transform(Files.readString(KitPaths.root().resolve("solutions/src/main/java/vramlab/alloc/ToyPolicy.java")),
                "labs/src/main/java/vramlab/alloc/ToyPolicy.java");
        assertThat(handedOut).contains("    // tag::round[]\n    @Override\n    public long roundSize(long requested) {\n");
        Path mine = tmp.resolve("labs/src/main/java/vramlab/alloc/ToyPolicy.java");
        Files.createDirectories(mine.getParent());
        Files.writeString(mine, handedOut.replace("    // tag::round[]\n", overload + "    // tag::round[]\n")
                .replace("    public long roundSize(long requested) {\n", "    public long roundSize(\n            long requested) {\n"));
        System.setProperty(StudentCores.LABS, tmp.resolve("labs").toString());
        int line = Files.readAllLines(mine).indexOf("    public long roundSize(") + 1;
        assertThat(Files.readAllLines(mine).get(line)).as("the step's declaration, split").contains("long requested) {");
        assertThat(lineOf(mine, "public long roundSize(int requested)")).isLessThan(line);
        assertThat(StepLine.of(KitPaths.root(), tmp, step).place()).isEqualTo(FILE + ":" + line);
    }

    @Test
    @DisplayName("check's TODO and grade's are one rule: the same rows, and grade says check's words first")
    void todoAsGradeSaysIt() {
        CheckCommand.Target target = CheckCommand.Target.of("3.1", LabGenerator.steps(KitPaths.root().resolve("solutions")));
        String own = "Todo: TODO step 3.1 (Round a request) is not written yet: read the notes, ch03 \"Rule 1: the rounding"
                + " ladder\", then write it in " + FILE;
        List<ScoreRow> rows = List.of(
                ScoreRow.zero("3.1", "own Todo", 2, ScoreRow.FAILED, own),
                ScoreRow.zero("3.1", "3.10's Todo", 2, ScoreRow.FAILED, own.replace("3.1 (", "3.10 (")),
                ScoreRow.zero("3.1", "a wrong answer", 2, ScoreRow.FAILED, "roundSize(1 B): expected 512 B but was 1 B\n" + own),
                ScoreRow.zero("3.1", "needs 3.0", 2, ScoreRow.FAILED, "needs step 3.0 first: x is not written yet"),
                new ScoreRow("3.1", "passed", 2, 2, ScoreRow.PASSED, ""));
        String check = new CheckReport(target, rows, Map.of("3.1", new StepLine(FILE, "ToyPolicy.roundSize", 36))).text();
        for (ScoreRow r : rows) {
            String checkTag = check.lines().filter(l -> l.contains(" " + r.name() + " ")).findFirst().orElseThrow().strip()
                    .split(" ")[0];
            assertThat(checkTag.equals("TODO")).as(r.name()).isEqualTo(vramlab.quiz.Reports.shownStatus(r).equals("TODO"));
            assertThat(checkTag.equals("WAIT")).as(r.name() + ": check's WAIT is grade's WAITING")
                    .isEqualTo(vramlab.quiz.Reports.shownStatus(r).equals("WAITING"));
            if (checkTag.equals("TODO")) {
                assertThat(check).contains("  TODO  " + r.name());
                assertThat(vramlab.quiz.Reports.told(r)).startsWith("not written yet")
                        .isEqualTo("not written yet: read the notes, ch03 \"Rule 1: the rounding ladder\", then write it in " + FILE);
            }
        }
        assertThat(check.lines().filter(l -> l.startsWith("  TODO  "))).hasSize(1);
        assertThat(check.lines().filter(l -> l.startsWith("  WAIT  "))).as("needs 3.0, and 3.10's Todo").hasSize(2);
    }

    @Test
    @DisplayName("a step not written yet: its TODO line names the section that teaches it with the place a failure's Reread: line gives it")
    void todoNamesWhereToRead() {
        Path root = KitPaths.root();
        CheckCommand.Target target = CheckCommand.Target.of("3.1", LabGenerator.steps(root.resolve("solutions")));
        String own = "Todo: TODO step 3.1 (Round a request) is not written yet: read the notes, ch03 \"Rule 1: the rounding"
                + " ladder\", then write it in " + FILE;
        List<ScoreRow> rows = List.of(
                ScoreRow.zero("3.1", "own Todo", 2, ScoreRow.FAILED, own),
                ScoreRow.zero("3.1", "a wrong answer", 2, ScoreRow.FAILED, "expected 512 B\nReread: ch03 \"Rule 1: the rounding ladder\"."));
        vramlab.quiz.feedback.RereadPlaces places = vramlab.quiz.feedback.RereadPlaces.fromCwd(root, root);
        String check = new CheckReport(target, rows, Map.of("3.1", new StepLine(FILE, "ToyPolicy.roundSize", 36)), places::in).text();
        String reread = places.in("Reread: ch03 \"Rule 1: the rounding ladder\".");
        assertThat(reread).as("the resolver places it").isNotEqualTo("Reread: ch03 \"Rule 1: the rounding ladder\".");
        assertThat(check).contains("  TODO  own Todo")
                .contains("\n        not written yet: read " + reread.substring("Reread: ".length()) + "\n")
                .contains("\n        " + reread + "\n");
    }
}
