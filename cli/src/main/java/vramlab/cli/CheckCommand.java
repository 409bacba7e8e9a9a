package vramlab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import vramlab.kit.ChapterLab;
import vramlab.labgen.LabGenerator;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.build.CoreBuild;
import vramlab.quiz.feedback.RereadPlaces;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * {@code vramlab check <step|chapter>}: the student's loop. Compiles only the cores the chapter's
 * steps live in (and those they need, only what changed), runs the graded tests of that step or
 * chapter with the batch grader's harness (child JVMs, time-boxed), and prints a few lines per
 * test: passed, failed with expected against actual, needs an earlier step, not written yet, or
 * does not compile; then {@code Score: X/Y}. Each step's heading, and each failure, names the
 * file and line of the step's method in the student's file as it is now ({@link StepLine}).
 */
@CommandLine.Command(name = "check", mixinStandardHelpOptions = true,
        header = "compile your labs/ and run one step's or chapter's graded tests",
        description = """
                Compiles your code in labs/src/main/java (only the cores the chapter uses, only
                what changed), runs the graded tests of one step (check 3.1) or of every step of
                a chapter (check 3, check caching-allocator), and prints for each test:
                  pass                          full points
                  FAIL                          expected against actual, the call that gave it,
                                                the rule it breaks when the mistake is a common one,
                                                the section of the notes to reread (its page, or
                                                its file:line, to open), and your method's file:line
                  needs step N first            it runs through an earlier step you have not written
                  not written yet               the step still throws its Todo; the section that
                                                teaches it, with its page or file:line as above
                  does not compile              the compiler's first errors, file:line: message
                and ends with Score: X/Y for what it ran. Exit status 0 when every test passed, 1 when
                one did not. --reference runs the same tests on the reference cores in solutions/
                (an instructor's sanity check: everything passes).
                The full graded run, with the quiz, is ./vramlab grade (or mvn test -Plab).""")
final class CheckCommand implements Command {
    @Parameters(paramLabel = "<step | chapter>", arity = "1",
            description = "a step (3.1) or a chapter, by number (3) or slug (caching-allocator)")
    String what;

    @Mixin CoresOption which;

    @Override
    public String expected() { return "expected one step or chapter, e.g. vramlab check 3.1 or vramlab check 3"; }

    @Override
    public int run(Io io) throws Exception {
        if (which.mine && which.reference) {
            throw new UsageException("check", "--mine and --reference exclude each other");
        }
        Path root = StudentCores.root();
        Path cwd = Path.of("");                  // every place printed opens from where the student stands
        if (which.reference) StudentCores.refuseReferenceInRelease(root, "check");
        Target target = Target.of(what, (Files.isDirectory(root.resolve("solutions")) ? LabGenerator.steps(root.resolve("solutions"))
                : LabGenerator.stepsFromStubs(root.resolve("cores"))));
        io.err().println(StudentCores.whose(root, !which.reference, "check"));
        Kit kit = chapterKit(root, target.chapter());
        Path work = StudentCores.work(root).resolveSibling("vramlab-check");
        Grader grader = new Grader(kit, new Grader.Options(Duration.ofSeconds(10), Duration.ofMinutes(3), 4L << 20,
                "visible"), Files.createDirectories(work), null, io.err());
        InventoryCache.load(grader, kit.testRoots().get(0), work);
        Map<String, String> uncompiled = new LinkedHashMap<>();
        List<Path> cores;
        if (which.reference) {
            cores = List.of(kit.referenceCore());
        } else {
            CoreBuild.Result built = StudentCores.build(root, target.cores(), io.err());
            cores = built.classpath();
            for (CoreBuild.Outcome o : built.failed()) {
                uncompiled.put(o.core().name(), String.join("; ", o.errors().stream()
                        .map(e -> StudentCores.errorAt(root, cwd, e)).toList()));
            }
        }
        Set<String> steps = target.stepIds();
        List<ScoreRow> rows = new ArrayList<>();
        Set<String> runnable = new LinkedHashSet<>();
        for (String s : steps) {
            String why = uncompiled.get(target.coreOf(s));
            if (why == null) {
                runnable.add(s);
                continue;
            }
            for (ScoreRow z : grader.inventory().values()) {
                if (z.step().equals(s)) rows.add(ScoreRow.zero(s, z.name(), z.points(), "FAILED", "does not compile: " + why));
            }
        }
        if (!runnable.isEmpty()) {
            Path area = work.resolve("run");
            deleteTree(area);                    // a child's results file must never be last run's
            rows.addAll(grader.runLabItems(cores, z -> runnable.contains(z.step()), area));
        }
        Map<String, StepLine> places = new LinkedHashMap<>();     // read now: the student's file as it is
        for (LabGenerator.Step s : target.steps()) places.put(s.id(), StepLine.of(root, cwd, s));
        // A failure's Reread: line gets the place quiz --check gives its reread line, from where the student stands.
        io.out().print(new CheckReport(target, rows, places, RereadPlaces.fromCwd(root, cwd)::in).text());
        return rows.stream().allMatch(ScoreRow::passed) ? 0 : 1;
    }

    private static void deleteTree(Path p) throws java.io.IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (var s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(q);
        }
    }

    /**
     * The kit restricted to one chapter's graded tests: less to discover, nothing else to run, and
     * neither quiz questions nor step markers read ({@link Kit#forLabItems}).
     */
    static Kit chapterKit(Path root, ChapterLab chapter) throws java.io.IOException {
        Path tests = root.resolve("chapters").resolve(chapter.id()).resolve("target/test-classes");
        Kit kit;
        try {
            kit = Kit.forLabItems(root, List.of(tests));
        } catch (IllegalStateException e) {
            throw new UsageException("check", e.getMessage());
        }
        if (!Files.isDirectory(tests)) {
            throw new UsageException("check", "the kit is not built (" + tests + " is missing): run ./vramlab --help once");
        }
        return kit;
    }

    /** What to check: one step or every step of a chapter. */
    record Target(ChapterLab chapter, List<LabGenerator.Step> steps, List<LabGenerator.Step> chapterSteps) {
        static Target of(String name, List<LabGenerator.Step> all) {
            if (name.matches("\\d+\\.\\d+")) {
                ChapterLab c = LabCommand.find(name.substring(0, name.indexOf('.')), "check");
                List<LabGenerator.Step> one = all.stream().filter(s -> s.id().equals(name)).toList();
                if (one.isEmpty()) {
                    throw new UsageException("check", "no step " + name + " (chapter " + c.number() + " has steps "
                            + String.join(", ", ofChapter(all, c).stream().map(LabGenerator.Step::id).toList()) + ")");
                }
                return new Target(c, one, ofChapter(all, c));
            }
            ChapterLab c = LabCommand.find(name, "check");
            List<LabGenerator.Step> steps = ofChapter(all, c);
            if (steps.isEmpty()) throw new UsageException("check", c.id() + " has no lab steps");
            return new Target(c, steps, steps);
        }

        static List<LabGenerator.Step> ofChapter(List<LabGenerator.Step> all, ChapterLab c) {
            return all.stream().filter(s -> s.id().startsWith(c.number() + ".")).sorted(CheckReport.BY_STEP).toList();
        }

        Set<String> stepIds() {
            Set<String> ids = new LinkedHashSet<>();
            steps.forEach(s -> ids.add(s.id()));
            return ids;
        }

        /** The core a step's file is in. */
        String coreOf(String step) {
            return steps.stream().filter(s -> s.id().equals(step)).findFirst()
                    .map(s -> CoreBuild.coreOfFile(s.file()).name()).orElse("base");
        }

        /**
         * The cores to compile: those of every step of the chapter (a test of step 3.1 may run
         * through the others), and, through CoreBuild, those they need.
         */
        List<String> cores() {
            Set<String> out = new LinkedHashSet<>();
            for (LabGenerator.Step s : chapterSteps) {
                out.add(CoreBuild.coreOfFile(s.file()).name());
            }
            return List.copyOf(out);
        }
    }
}
