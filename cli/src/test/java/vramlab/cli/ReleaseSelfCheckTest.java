package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.contest.Entries;
import vramlab.judge.RecordedRuns;
import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.kit.Citations;
import vramlab.kit.FigureRegistry;
import vramlab.judge.Scoreboard;
import vramlab.quiz.KitPaths;
import vramlab.quiz.grade.Gradebook;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;
import vramlab.workload.Workload;
import vramlab.workload.Workloads;
import vramlab.quiz.build.ExpressionLeaks;

/**
 * A student release checks every point alone, and holds no key: written from this kit, its
 * practice keys mark the kit's own reference sheets exactly as the instructor's copy marks them
 * (full marks, and one wrong part loses exactly that part's points, with the same words), its
 * exercises answer as the instructor's copy does, and no quiz key is written out in it. The
 * release's launcher is run here in memory with {@code vramlab.home} pointing at the release;
 * {@link ReleaseTest} (grading-fixtures) runs the real launcher in a built release. One release
 * is written for the whole class (it takes most of its time), which also holds the quick half of
 * {@link ReleaseTest}'s body check: the sources a release copies show no graded step's body.
 */
@Tag("grading-fixtures")  // writes a whole student release (~18 s on 2 cores): -Pgrading-fixtures, which .ci/run runs, not every mvn test
class ReleaseSelfCheckTest {
    @TempDir static Path tmp;
    static Path root;
    static Path release;

    @BeforeAll
    static void write() throws Exception {
        root = KitPaths.root();
        release = tmp.resolve("course");
        ReleaseCommand.write(root, release, null, 3);      // seeds 1-3 of each exercise: ReleaseTest writes all
    }

    static CliRun inRelease(String... args) { return as(release, () -> CliRun.of(args)); }

    static <T> T as(Path home, Supplier<T> run) {
        String old = System.getProperty("vramlab.home");
        System.setProperty("vramlab.home", home.toString());
        try {
            return run.get();
        } finally {
            if (old == null) System.clearProperty("vramlab.home");
            else System.setProperty("vramlab.home", old);
        }
    }

    @Test
    @DisplayName("no quiz key in the release: the release's own check finds none, and no choice constant is in a question")
    void noKeys() throws Exception {
        assertThat(PracticeKeys.keysShownIn(release)).isEmpty();
        String q = Files.readString(release.resolve("chapters/ch03-caching-allocator/src/main/java/vramlab/ch03/quiz/NoCompaction.java"));
        assertThat(q).contains("Blanks.choice(\"q3.5.a.layer\", Layer.class)").doesNotContain("Layer.CACHING_ALLOCATOR)");
        assertThat(release.resolve("chapters/ch03-caching-allocator/src/test/java/vramlab/ch03/quiz/Ch03QuestionsTest.java")).doesNotExist();
        assertThat(Files.readString(release.resolve(KitPaths.RELEASE_MARKER))).contains("no quiz keys");
    }

    @Test
    @DisplayName("what a release copies shows no graded step's body as text (the quick half of ReleaseTest)")
    void noStepBodies() throws Exception {
        assertThat(vramlab.quiz.build.StepBodies.of(root.resolve("solutions")).shownIn(release)).isEmpty();
    }

    @Test
    @DisplayName("no step body in the release as an expression (names and numbers filled in): hints, JShell help, notes")
    void noBodyAsExpression() throws Exception {
        assertThat(ExpressionLeaks.of(root.resolve("solutions")).shownIn(release)).isEmpty();
    }

    @Test
    @DisplayName("every file the notes name is in the release: chapter 5's examples, the triage corpus chapter 4 reads")
    void everyFileTheNotesNameIsThere() throws Exception {
        assertThat(NotesPaths.missingIn(release)).isEmpty();
        assertThat(NotesPaths.cited(release)).extracting(NotesPaths.Cited::path)
                .contains("chapters/ch05-expandable-segments/examples/three-allocators.pytorch.pickle",
                        "chapters/ch05-expandable-segments/examples/",
                        "toolkit/src/test/resources/triage-corpus/015-cobra.txt",
                        "toolkit/src/test/resources/triage-corpus");
        assertThat(release.resolve("toolkit/src/test/resources/triage-corpus/README.md")).isRegularFile();
        assertThat(release.resolve("chapters/ch05-expandable-segments/examples/three-allocators.trace")).isRegularFile();
    }

    @Test
    @DisplayName("the notes' check names the note, the line and the path a release lacks; attributes and includes are the renderer's")
    void theNotesCheckCanFail() throws Exception {
        Path dir = tmp.resolve("missing-files");
        Path notes = Files.createDirectories(dir.resolve("chapters/ch09-x/src/docs/asciidoc")).resolve("ch09-x.adoc");
        Files.createDirectories(dir.resolve("labs/answers"));
        Files.writeString(dir.resolve("labs/answers/ch09.txt"), "");
        Files.writeString(notes, String.join("\n", "= Chapter 9", ":core: ../../../../../solutions/src/main/java/vramlab",
                "include::../../../../../toolkit/src/test/resources/x.txt[]",
                "Write your answers in `labs/answers/ch09.txt`.",
                "Replay `chapters/ch09-x/examples/run.pickle` and read toolkit/README.adoc.",
                "A citation names PyTorch's file, not the kit's: link:https://github.com/pytorch/pytorch/blob/68e217b9e71fcecbd34d"
                        + "831dd3e3e5a4ea9028fd/docs/source/notes/cuda.rst[`+docs/source/notes/cuda.rst+` (pytorch/pytorch@68e217b)].",
                ""));
        assertThat(NotesPaths.missingIn(dir)).containsExactly(
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:5: chapters/ch09-x/examples/run.pickle (not in the release)",
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:5: toolkit/README.adoc (not in the release)");
    }

    @Test
    @DisplayName("the notes read alone, with no site: labs/ for solutions/, every attribute defined, and each step's"
            + " worked example, each output and the lab's run expanded into them")
    void theNotesReadAlone() throws Exception {
        assertThat(ReleaseNotes.unresolved(release)).as("what a reader of the AsciiDoc alone cannot see").isEmpty();
        Path ch03 = release.resolve("chapters/ch03-caching-allocator/src/docs/asciidoc");
        String notes = Files.readString(ch03.resolve("ch03-caching-allocator.adoc"));
        assertThat(notes).doesNotContain("solutions/").contains(":core: ../../../../../labs/src/main/java/vramlab")
                .contains(":generated: generated").contains(":link-ch04: link:../../../../ch04-real-oom/src/docs/asciidoc/");
        ChapterLab lab = Chapters.all().stream().filter(l -> l.id().equals("ch03-caching-allocator")).findFirst().orElseThrow();
        var sources = Citations.read(root);          // the examples' prose as the notes' own: code spans literal
        for (String step : List.of("3.1", "3.2", "3.3", "3.4", "3.5")) {
            assertThat(notes).as("step " + step + "'s worked example").contains(
                    ReleaseNotes.linked(FigureRegistry.example(FigureRegistry.examples(lab).get(step)), sources).strip());
        }
        assertThat(notes).as("an output").contains(
                ReleaseNotes.linked(FigureRegistry.example(FigureRegistry.outputs(lab).get("pools-never-mix")), sources).strip());
        assertThat(ch03.resolve("generated")).as("its text is in the notes").doesNotExist();
        assertThat(Files.readString(ch03.resolve("figures/ch03-split-merge.svg"))).contains("<svg");
        assertThat(release.resolve("chapters/ch02-cudamalloc/src/docs/asciidoc/figures/vmm-states.svg"))
                .as("a figure drawn outside ChNNFigures (VmmStateFigure)").isNotEmptyFile();
        // The listing of step 3.2 is labs/'s as handed out: the region inside its tags, around the Todo, not the body.
        assertThat(notes).contains(region("labs/src/main/java/vramlab/alloc/CachingAllocator.java", "find"))
                .contains("throw new vramlab.lab.Todo(\"3.2\"").doesNotContain("pool.ceiling(");
    }

    /** The lines of the release's {@code file} between {@code // tag::tag[]} and {@code // end::tag[]}, markers left out. */
    static String region(String file, String tag) throws Exception {
        String text = Files.readString(release.resolve(file));
        int from = text.indexOf("\n", text.indexOf("// tag::" + tag + "[]")) + 1;
        String region = text.substring(from, text.lastIndexOf("\n", text.indexOf("// end::" + tag + "[]")) + 1);
        assertThat(region).as(file + "'s region " + tag).isNotBlank().doesNotContain("tag::", "end::");
        return region;
    }

    @Test
    @DisplayName("no include left in a release's notes: GitHub expands none; the partial and the generated files are in"
            + " the notes, not beside them")
    void noIncludeLeft() throws Exception {
        List<Path> adoc;
        try (Stream<Path> s = Files.walk(release.resolve("chapters"))) {
            adoc = s.filter(p -> p.toString().endsWith(".adoc") && p.toString().contains("/src/docs/")).sorted().toList();
        }
        assertThat(adoc).extracting(p -> p.getFileName().toString()).as("the notes, one file a chapter")
                .containsExactly("ch01-mmu.adoc", "ch02-cudamalloc.adoc", "ch03-caching-allocator.adoc", "ch04-real-oom.adoc",
                        "ch05-expandable-segments.adoc", "ch06-buddy.adoc", "ch07-pinned.adoc", "ch08-malloc-lab.adoc");
        for (Path f : adoc) {
            assertThat(Files.readAllLines(f)).as(f + ": include lines").noneMatch(l -> l.startsWith("include::"));
        }
        String ch04 = Files.readString(release.resolve("chapters/ch04-real-oom/src/docs/asciidoc/ch04-real-oom.adoc"));
        assertThat(ch04).as("triage.adoc, expanded with its listings from toolkit/ and the corpus")
                .contains(Files.readString(root.resolve("toolkit/src/test/resources/triage-corpus/003-echomimic-v2.txt")).strip())
                .contains(region("toolkit/src/main/java/vramlab/triage/Ladder.java", "ladder"));
    }

    @Test
    @DisplayName("a citation src:key[...] is a plain link in a release's notes, from the site's own table, and code spans are literal")
    void citationsAreLinks() throws Exception {
        Citations.Source cca = Citations.read(root).get("cca");
        String ch03 = Files.readString(release.resolve("chapters/ch03-caching-allocator/src/docs/asciidoc/ch03-caching-allocator.adoc"));
        assertThat(ch03).as("a citation of CUDACachingAllocator.cpp").contains("link:" + cca.url("") + "#L")
                .doesNotContain("src:cca[");
        assertThat(ch03).as("code spans literal, as the site makes them: no arrow for <=")
                .contains("`+requested <= allocated <= reserved+`").doesNotContain(" `requested <= allocated");
        List<Path> adoc;
        try (Stream<Path> s = Files.walk(release.resolve("chapters"))) {
            adoc = s.filter(p -> p.toString().endsWith(".adoc") && p.toString().contains("/src/docs/")).toList();
        }
        for (Path f : adoc) {
            Citations.eachProseLine(Files.readString(f), (n, line) -> {
                assertThat(line).as(f + ":" + n).doesNotContainPattern(Citations.SRC);
                return line;
            });
        }
    }

    @Test
    @DisplayName("a student's edit to labs/ changes no listing in the notes: a deleted tag:: comment leaves them whole")
    void aDeletedTagChangesNoListing() throws Exception {
        Path file = release.resolve("labs/src/main/java/vramlab/alloc/CachingAllocator.java");
        String handedOut = Files.readString(file);
        String listing = region("labs/src/main/java/vramlab/alloc/CachingAllocator.java", "find");
        Path notes = release.resolve("chapters/ch03-caching-allocator/src/docs/asciidoc/ch03-caching-allocator.adoc");
        try {
            Files.writeString(file, handedOut.replace("// tag::find[]", "").replace("throw new vramlab.lab.Todo(\"3.2\"",
                    "return pool.ceiling(key); // throw new vramlab.lab.Todo(\"3.2\""));
            assertThat(ReleaseNotes.unresolved(release)).as("what the notes miss once the student has edited labs/").isEmpty();
            assertThat(Files.readString(notes)).contains(listing).doesNotContain("return pool.ceiling(key);");
        } finally {
            Files.writeString(file, handedOut);
        }
    }

    @Test
    @DisplayName("the release's ./vramlab finds its short-command flags (it reads them from cli/src/main before any build)")
    void launcherFlags() {
        assertThat(release.resolve("vramlab")).isExecutable();
        assertThat(release.resolve(FastFlags.PATH)).hasSameTextualContentAs(root.resolve(FastFlags.PATH));
    }

    @Test
    @DisplayName("the notes-alone check names the note, the line and what does not resolve")
    void theNotesAloneCheckCanFail() throws Exception {
        Path dir = tmp.resolve("unresolved");
        Path docs = Files.createDirectories(dir.resolve("chapters/ch09-x/src/docs/asciidoc"));
        Files.createDirectories(dir.resolve("labs/src/main/java/vramlab/alloc"));
        Files.writeString(dir.resolve("labs/src/main/java/vramlab/alloc/A.java"), "// tag::a[]\nclass A {}\n// end::a[]\n");
        Files.writeString(docs.resolve("part.adoc"), "include::{core}/alloc/A.java[tag=b]\n");
        Files.writeString(docs.resolve("ch09-x.adoc"), String.join("\n", "= Chapter 9",
                ":core: ../../../../../labs/src/main/java/vramlab",
                ":old: ../../../../../solutions/src/main/java/vramlab",
                "As src:cca[1-2] says.",
                "include::{core}/alloc/A.java[tag=a]",
                "include::{generated}/step-9.1.adoc[]",
                "include::{old}/alloc/A.java[tag=a]",
                "include::../../../../../../outside.txt[]",
                "See {link-ch03}.",
                "include::part.adoc[]",
                "image::figures/none.svg[A figure]", "----", "src:cca[1-2] in a listing is text", "----", ""));
        String left = " is not expanded into the notes (GitHub shows no include, and the student's copy of the file may change)";
        assertThat(ReleaseNotes.unresolved(dir)).containsExactly(
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:4: src:cca[1-2] is not a link (release links a citation"
                        + " whose key is in site/src/site/sources.tsv and whose lines are FIRST-LAST)",
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:5: include::labs/src/main/java/vramlab/alloc/A.java" + left,
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:6: {generated} is not defined",
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:7: include::solutions/src/main/java/vramlab/alloc/A.java is not in the release",
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:8: include::../../../../../../outside.txt is outside the release",
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:9: {link-ch03} is not defined",
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:10: include::chapters/ch09-x/src/docs/asciidoc/part.adoc" + left,
                "chapters/ch09-x/src/docs/asciidoc/part.adoc:1: include::labs/src/main/java/vramlab/alloc/A.java: no tag::b[] in the file",
                "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:11: image::figures/none.svg is not in the release");
    }

    @Test
    @DisplayName("the README of a release without its site sends students to the AsciiDoc, not docs/, and says how to check and grade")
    void readmeMatchesTheRelease() throws Exception {
        String readme = Files.readString(release.resolve("README.adoc"));
        assertThat(release.resolve("docs")).doesNotExist();
        assertThat(readme).doesNotContain("`docs/").doesNotContain("docs/index.html").contains("chapters/chNN-slug/src/docs/asciidoc/")
                .contains("`./vramlab grade`").contains("`./vramlab check <chapter>`").contains("`./vramlab check 3.1`");
        assertThat(ReleaseCommand.readme(true, "")).contains("`docs/index.html`").contains("|`docs/` |")
                .contains("`./vramlab grade`").contains("`./vramlab check <chapter>`");
        // quiz --check's reread line as this copy prints it: no notes.html here, the AsciiDoc's line of the heading.
        String notes = "chapters/ch03-caching-allocator/src/docs/asciidoc/ch03-caching-allocator.adoc";
        java.util.regex.Matcher reread = java.util.regex.Pattern.compile("`reread ch03 \"" + ReleaseCommand.README_SECTION
                + "\" \\(\\Q" + notes + "\\E:(\\d+)\\)`").matcher(readme);
        assertThat(reread.find()).as(readme).isTrue();
        assertThat(readme).doesNotContain("notes.html");
        assertThat(Files.readAllLines(release.resolve(notes)).get(Integer.parseInt(reread.group(1)) - 1))
                .as("the line the README names").endsWith(" " + ReleaseCommand.README_SECTION);
    }

    @Test
    @DisplayName("the check finds a key: a choice constant in a question, or a filled-in sheet line")
    void theCheckCanFail() throws Exception {
        Path dir = tmp.resolve("leaky");
        String question = "chapters/ch03-caching-allocator/src/main/java/vramlab/ch03/quiz/NoCompaction.java";
        Path q = dir.resolve(question);
        Files.createDirectories(q.getParent());
        Files.createDirectories(dir.resolve("labs/answers"));
        Files.writeString(q, Files.readString(release.resolve(question)).replace("Blanks.choice(\"q3.5.a.layer\", Layer.class)",
                "Blanks.choice(\"q3.5.a.layer\", Layer.CACHING_ALLOCATOR)"));
        Path sheet = dir.resolve("labs/answers/ch04.txt");
        Files.writeString(sheet, Files.readString(release.resolve("labs/answers/ch04.txt"))
                .replace("q4.4.a.cause = \n", "q4.4.a.cause = other processes\n"));
        assertThat(PracticeKeys.keysShownIn(dir)).hasSize(2)
                .anySatisfy(s -> assertThat(s).startsWith("chapters/ch03-caching-allocator/").contains("Layer.CACHING_ALLOCATOR"))
                .anySatisfy(s -> assertThat(s).startsWith("labs/answers/ch04.txt:").contains("q4.4.a.cause"));
    }

    @Test
    @DisplayName("quiz N --check in the release marks the reference sheets as the instructor's copy does: full marks")
    void fullMarks() {
        for (int ch = 1; ch <= 8; ch++) {
            String sheet = root.resolve(String.format("solutions/answers/ch%02d.txt", ch)).toString();
            int n = ch;
            CliRun mine = inRelease("quiz", "" + n, "--check", sheet);
            CliRun theirs = as(root, () -> CliRun.of("quiz", "" + n, "--check", sheet));
            assertThat(mine.status()).as(mine.err()).isZero();
            assertThat(mine.out()).as("ch%02d", ch).isEqualTo(theirs.out());
            Matcher m = Pattern.compile("Score: (\\d+)/(\\d+)").matcher(mine.out());
            assertThat(m.find()).isTrue();
            assertThat(m.group(1)).as(mine.out()).isEqualTo(m.group(2));
        }
    }

    @Test
    @DisplayName("one wrong part loses exactly its points, with the instructor's copy's words; ranges and sets too")
    void oneWrongPart() throws Exception {
        record Wrong(int chapter, String line, String with) {}
        for (Wrong w : List.of(new Wrong(3, "q3.5.a.layer = ", "DRIVER_CUDA_MALLOC"),
                new Wrong(3, "q3.1.a.size = ", "1KiB"),
                new Wrong(4, "q4.5.d.fixes = ", "EXPANDABLE_SEGMENTS, LARGER_BATCHES"),
                new Wrong(4, "q4.7.d.succeeds = ", "1000MiB"),
                new Wrong(2, "q2.6.d.unmap = ", "1"))) {
            Path ref = root.resolve(String.format("solutions/answers/ch%02d.txt", w.chapter()));
            List<String> lines = Files.readAllLines(ref, StandardCharsets.UTF_8);
            int at = -1;
            for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith(w.line())) at = i;
            assertThat(at).as(w.line()).isNotNegative();
            lines.set(at, w.line() + w.with());
            Path sheet = tmp.resolve("wrong-" + w.line().strip().replace(" =", "") + ".txt");
            Files.write(sheet, lines, StandardCharsets.UTF_8);
            CliRun mine = inRelease("quiz", "" + w.chapter(), "--check", sheet.toString());
            CliRun theirs = as(root, () -> CliRun.of("quiz", "" + w.chapter(), "--check", sheet.toString()));
            // This release has no docs/ (written without the site): where the kit's reread line names its
            // rendered page (a file: address) or its AsciiDoc, the release's names the chapter's AsciiDoc, which
            // it has, at the heading's line, from the folder the command runs in.
            String where = "\\((?:file:[^)]*|[^)]*\\.adoc(?::\\d+)?)\\)";
            assertThat(mine.out().replaceAll(where, "(at)")).isEqualTo(theirs.out().replaceAll(where, "(at)"));
            assertThat(mine.out()).doesNotContain("notes.html");
            Matcher reread = Pattern.compile("reread ch\\d\\d \"([^\"]+)\" \\(([^):]+\\.adoc):(\\d+)\\)").matcher(mine.out());
            assertThat(reread.find()).as(mine.out()).isTrue();
            Path named = Path.of(reread.group(2)).toAbsolutePath().normalize();
            assertThat(named).as("named from here, in the release").startsWith(release.toAbsolutePath().normalize());
            assertThat(Files.readAllLines(named).get(Integer.parseInt(reread.group(3)) - 1)
                    .replace("`+", "`").replace("+`", "`")).as("the line the release's reread names (a heading)")
                    .startsWith("=").contains(reread.group(1));
            Matcher m = Pattern.compile("Score: (\\d+)/(\\d+)").matcher(mine.out());
            assertThat(m.find()).isTrue();
            assertThat(Integer.parseInt(m.group(1))).as(mine.out()).isEqualTo(Integer.parseInt(m.group(2)) - 1);
            assertThat(mine.out()).contains("  wrong  " + w.line().substring(0, w.line().indexOf('.', 2)));
        }
    }

    @Test
    @DisplayName("a sheet of another chapter, or of a salted variant, stops with one line saying why")
    void otherSheets() throws Exception {
        CliRun chapter = inRelease("quiz", "3", "--check", root.resolve("solutions/answers/ch04.txt").toString());
        assertThat(chapter.status()).isEqualTo(2);
        assertThat(chapter.err()).contains("a sheet for ch04, not ch03").hasLineCount(1);
        Path salted = tmp.resolve("salted.txt");
        Files.writeString(salted, Files.readString(root.resolve("labs/answers/ch03.txt")).replaceFirst("variant = \\w+", "variant = 0badf00d"));
        CliRun variant = inRelease("quiz", "3", "--check", salted.toString());
        assertThat(variant.status()).isEqualTo(2);
        assertThat(variant.err()).contains("written for variant 0badf00d").contains("only your instructor can mark").hasLineCount(1);
    }

    @Test
    @DisplayName("exercise 3 2 --seed 3 --answer prints in the release what the instructor's copy prints")
    void exercises() {
        CliRun mine = inRelease("exercise", "3", "2", "--seed", "3", "--answer");
        CliRun theirs = as(root, () -> CliRun.of("exercise", "3", "2", "--seed", "3", "--answer"));
        assertThat(mine.status()).as(mine.err()).isZero();
        assertThat(mine.out()).contains("Answer (computed by the simulator for seed 3):").isEqualTo(theirs.out());
        CliRun far = inRelease("exercise", "3", "2", "--seed", "999", "--answer");
        assertThat(far.status()).isEqualTo(2);
        assertThat(far.err()).contains("seeds 1-3");
    }

    /** Steps 8.1 and 8.2 as a student might write them: classes by bit arithmetic, large segments reused only at their exact size. */
    static final String STUDENT_8_1 = """
            if (size <= 0) throw new IllegalArgumentException("size must be positive, got " + size);
                    if (size > (1L << 20)) return -1;
                    long block = Math.max(ALIGNMENT, Long.highestOneBit(size - 1) << 1);
                    return Long.numberOfTrailingZeros(block / ALIGNMENT);""";
    static final String STUDENT_8_2 = """
            int c = sizeClass(size);
                    if (c < 0) {
                        long bytes = (size + SLAB - 1) / SLAB * SLAB;
                        ArrayDeque<Long> same = cached.get(bytes);
                        long address = same == null ? cudaMalloc(bytes) : same.pop();
                        if (same != null && same.isEmpty()) cached.remove(bytes);
                        live.put(address, bytes);
                        return address;
                    }
                    if (freeLists.get(c).isEmpty()) carve(c);
                    long address = freeLists.get(c).pop();
                    slabs.floorEntry(address).getValue().live++;
                    live.put(address, classSize(c));
                    return address;""";

    @Test
    @DisplayName("done when: in a release, a student's segregated fits is checked and scored beside PyTorch's recorded"
            + " rows by contest, and grading puts its chapter 8 points in the gradebook")
    void aStudentsSegregatedFits() throws Exception {
        Path copy = tmp.resolve("student-copy");
        copyAll(release, copy);
        Path mine = copy.resolve("labs/src/main/java/vramlab/contest/SegregatedFits.java");
        String handedOut = Files.readString(mine);
        // Chapters 1-7 done (the judge walks the student's page tables and prices the student's driver calls).
        Path labs = copy.resolve("labs/src/main/java");
        try (var s = Files.walk(root.resolve("solutions/src/main/java"))) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                Files.copy(f, labs.resolve(root.resolve("solutions/src/main/java").relativize(f).toString()),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        String written = handedOut
                .replaceFirst("throw new vramlab\\.lab\\.Todo\\(\"8\\.1\"[^;]*;", Matcher.quoteReplacement(STUDENT_8_1))
                .replaceFirst("throw new vramlab\\.lab\\.Todo\\(\"8\\.2\"[^;]*;", Matcher.quoteReplacement(STUDENT_8_2));
        assertThat(written).doesNotContain("Todo(\"8.");
        Files.writeString(mine, written);
        compileTheHandedOutCores(copy);     // what the release's own first build makes: the stand-in for a core that fails

        CliRun contest = as(copy, () -> CliRun.of("contest"));
        assertThat(contest.status()).as(contest.err() + contest.out()).isZero();
        assertThat(contest.err()).contains("contest runs your cores in labs/").doesNotContain("does not compile");
        String table = contest.out();
        for (Workload w : Workloads.publicSet()) {
            assertThat(table).containsPattern("(?m)^" + w.name() + " +segregated-fits +yes .* live$")
                    .containsPattern("(?m)^" + w.name() + " +pytorch +yes .* recorded$");
        }
        // PyTorch's index is the recording's (which recordedRowsAreTheReferences holds to a fresh run).
        Scoreboard reference = new Scoreboard(Entries.PYTORCH, Entries.references(), Workloads.publicSet(), shipped());
        assertThat(table).contains(String.format(java.util.Locale.ROOT, "  %-18s %6.1f%n", "pytorch", reference.index("pytorch")))
                .containsPattern("  segregated-fits +\\d+\\.\\d\n")
                .contains("run: recorded rows are the reference cores' runs, recorded by ./vramlab release of ")
                .contains("run: segregated-fits ran live on your cores in labs/.");

        Kit kit = Kit.locate(root).withTestRoots(List.of(root.resolve("chapters/ch08-malloc-lab/target/test-classes")))
                .withQuestions(List.of());
        Path graded = tmp.resolve("graded");
        Path student = tmp.resolve("submissions/ada");
        copyAll(copy.resolve("labs"), student.resolve("labs"));
        Grader g = new Grader(kit, Grader.Options.defaults().withJobs(1), Files.createDirectories(tmp.resolve("grader-work")),
                vramlab.quiz.Salt.PRACTICE, new java.io.PrintStream(new java.io.ByteArrayOutputStream()));
        Grader.Result r = g.gradeClass(List.of(student), graded).get(0);
        assertThat(r.rows()).as(r.rows().toString()).isNotEmpty().allSatisfy(row -> assertThat(row.earned())
                .as(row.toString()).isEqualTo(row.points()));
        List<String> book = Files.readAllLines(graded.resolve(Gradebook.WIDE));
        int ch08 = List.of(book.get(0).split(",")).indexOf("ch08 lab (11)");
        assertThat(ch08).as(book.get(0)).isPositive();
        assertThat(book).anySatisfy(l -> assertThat(l).startsWith("ada,11,11,").satisfies(x ->
                assertThat(x.split(",")[ch08]).isEqualTo("11")));
    }

    static void copyAll(Path from, Path to) throws java.io.IOException {
        try (var s = Files.walk(from)) {
            for (Path f : s.toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(t);
                else Files.copy(f, t);
            }
        }
    }

    static RecordedRuns shipped() throws java.io.IOException {
        try (var in = Files.newBufferedReader(release.resolve(RecordedRuns.IN_RELEASE))) {
            return RecordedRuns.read(in, RecordedRuns.IN_RELEASE);
        }
    }

    @Test
    @DisplayName("the release's recorded reference rows equal a fresh run of each reference entry on each public workload")
    void recordedRowsAreTheReferences() throws Exception {
        RecordedRuns shipped = shipped();
        assertThat(shipped.size()).isEqualTo(Entries.references().size() * Workloads.publicSet().size());
        for (vramlab.contest.Contestant c : Entries.references()) {
            for (Workload w : Workloads.publicSet()) {
                assertThat(shipped.find(c.name(), w)).as("%s on %s", c, w.name()).usingRecursiveComparison()
                        .ignoringFields("hostNanos").isEqualTo(vramlab.judge.Judge.run(c, w));
            }
        }
    }

    @Test
    @DisplayName("the marker and the recording's origin name the commit released (ReleaseStamp), not the day; no host time is shipped")
    void datedByTheCommit() throws Exception {
        String phrase = vramlab.quiz.ReleaseStamp.of(root).phrase();
        assertThat(Files.readString(release.resolve(KitPaths.RELEASE_MARKER)))
                .startsWith("vramlab student release, written by ./vramlab release from " + phrase + ".\n");
        RecordedRuns shipped = shipped();
        assertThat(shipped.origin()).isEqualTo("by ./vramlab release of " + phrase + ", on the reference cores");
        assertThat(shipped.hostTimeMeasured()).isFalse();
    }

    /** The release's cores as handed out, compiled where its own build puts them. */
    static void compileTheHandedOutCores(Path copy) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("-d", copy.resolve("cores/target/classes").toString(),
                "-proc:none", "-nowarn"));
        try (var s = Files.walk(copy.resolve("cores/src/main/java"))) {
            s.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        int rc = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new));
        assertThat(rc).as("the handed-out cores compile").isZero();
    }

    @Test
    @DisplayName("--reference is not offered in the release (it has none), and lab says whose code runs")
    void noReferenceInTheRelease() {
        for (String[] args : List.of(new String[] {"check", "3.1", "--reference"}, new String[] {"lab", "3", "--reference"},
                new String[] {"jshell", "3", "--reference"})) {
            CliRun r = inRelease(args);
            assertThat(r.status()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err()).startsWith("error: " + args[0] + ": --reference: this copy has no reference cores").hasLineCount(1);
        }
        assertThat(StudentCores.whose(release, true, "lab ch03-caching-allocator"))
                .isEqualTo("vramlab: lab ch03-caching-allocator runs your cores in labs/");
        assertThat(StudentCores.whose(root, false, "lab ch03-caching-allocator")).contains("runs the reference cores in solutions/")
                .contains("to run yours");
    }
}
