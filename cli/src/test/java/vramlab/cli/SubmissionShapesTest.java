package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.grade.Gradebook;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * A class as it really arrives, graded in one run on the kit's real tests and quiz: ada's copy
 * with {@code labs/} at its top; ivan's inside GitHub's Download-ZIP nesting
 * ({@code ivan/vramlab-main/labs/...}); kim's as a {@code .zip}; an empty folder; bo's whole
 * clone ({@code .git}, the chapters' tests, one graded test edited and one deleted, labs/
 * untouched); and a stray {@code notes.txt}. The three right copies earn the same points, every
 * item of the kit; the empty one carries a flag saying what was looked for; bo's changed tests
 * are flagged; the stray file is skipped, and nothing stops the class.
 */
@Tag("grading-fixtures")
class SubmissionShapesTest {
    static final Salt SALT = Salt.of("shapes-class-salt");
    static final String EDITED = "chapters/ch03-caching-allocator/src/test/java/vramlab/ch03/";

    @TempDir static Path tmp;
    static Path root;
    static Path klass;
    static Grader.ClassResult graded;
    static final Map<String, Grader.Result> byId = new LinkedHashMap<>();
    static String log;
    static String editedFile;
    static String deletedFile;

    @BeforeAll
    static void gradeTheClass() throws Exception {
        root = KitPaths.root();
        Path stage = Files.createDirectories(tmp.resolve("stage"));
        klass = Files.createDirectories(tmp.resolve("class"));
        Submissions make = new Submissions(root, stage, SALT);
        for (String id : List.of("ada", "ivan", "kim")) {
            make.sources(id, make.solutions(), Submissions.Edit.none());
            make.keySheets(id, id, null);
        }
        Files.move(stage.resolve("ada"), klass.resolve("ada"));
        Files.createDirectories(klass.resolve("ivan/ivan"));
        Files.move(stage.resolve("ivan"), klass.resolve("ivan/ivan/vramlab-main"));
        zip(stage.resolve("kim"), klass.resolve("kim.zip"));
        Files.createDirectories(klass.resolve("empty"));
        Files.writeString(klass.resolve("notes.txt"), "the LMS's export notes");
        wholeClone(make);

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Grader g = new Grader(Kit.locate(root), Grader.Options.defaults(), Files.createDirectories(tmp.resolve("work")),
                SALT, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<Path> given;
        try (Stream<Path> s = Files.list(klass)) {
            given = s.sorted().toList();
        }
        graded = g.gradeSubmissions(given, tmp.resolve("out"));
        for (Grader.Result r : graded.results()) byId.put(r.student(), r);
        log = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(log);
    }

    /** bo: a whole clone of the kit, history and chapters included, labs/ as handed out; one graded test edited, one deleted. */
    static void wholeClone(Submissions make) throws IOException {
        Path bo = make.sources("bo", make.untouched(), Submissions.Edit.none());
        Files.createDirectories(bo.resolve(".git/objects"));
        Files.writeString(bo.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        List<Path> tests;
        try (Stream<Path> s = Files.walk(root.resolve("chapters"))) {
            tests = s.filter(p -> p.toString().endsWith("Test.java") && p.toString().contains("/src/test/java/")).sorted().toList();
        }
        for (Path t : tests) {
            Path to = bo.resolve(root.relativize(t).toString());
            Files.createDirectories(to.getParent());
            Files.copy(t, to);
        }
        List<Path> graded = tests.stream().filter(t -> root.relativize(t).toString().startsWith(EDITED))
                .filter(t -> read(t).contains("@Graded(")).toList();
        assertThat(graded).as("chapter 3 has graded test classes").hasSizeGreaterThanOrEqualTo(2);
        Path edited = bo.resolve(root.relativize(graded.get(0)).toString());
        Files.writeString(edited, read(edited).replaceFirst("points = \\d+", "points = 99"));
        Path deleted = bo.resolve(root.relativize(graded.get(1)).toString());
        Files.delete(deleted);
        editedFile = edited.getFileName().toString();
        deletedFile = deleted.getFileName().toString();
        Files.move(bo, klass.resolve("bo"));
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Zips the contents of {@code dir} (labs/ at the zip's top), as a student's "compress" does. */
    static void zip(Path dir, Path zip) throws IOException {
        try (OutputStream o = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(o);
             Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                z.putNextEntry(new ZipEntry(dir.relativize(p).toString().replace('\\', '/')));
                z.write(Files.readAllBytes(p));
                z.closeEntry();
            }
        }
    }

    static List<Integer> earned(String id) { return byId.get(id).rows().stream().map(ScoreRow::earned).toList(); }

    @Test
    @DisplayName("every shape is graded, nothing stops the class, and the stray file is skipped with why")
    void everyShapeGraded() {
        assertThat(byId).containsOnlyKeys("ada", "bo", "empty", "ivan", "kim");
        assertThat(graded.skipped()).singleElement().asString().contains("notes.txt").contains("not a folder, a .zip or a .tar.gz");
        assertThat(log).contains("skipped " + klass.resolve("notes.txt"));
    }

    @Test
    @DisplayName("the nested copy and the zip earn exactly the first's points: every item of the kit")
    void sameAsTheFirst() {
        Grader.Result ada = byId.get("ada");
        assertThat(ada.earned()).as(ada.rows().toString()).isEqualTo(ada.total());
        assertThat(ada.flags()).isEmpty();
        for (String id : List.of("ivan", "kim")) {
            assertThat(earned(id)).as(id).isEqualTo(earned("ada"));
            assertThat(byId.get(id).flags()).as(id).isEmpty();
        }
    }

    @Test
    @DisplayName("what was found and where is on each progress line")
    void whereOnTheProgressLine() {
        assertThat(byId.get("ada").found()).isEqualTo("labs/ at the top");
        assertThat(byId.get("ivan").found()).isEqualTo("labs/ at ivan/vramlab-main/");
        assertThat(byId.get("kim").found()).matches("unpacked kim\\.zip \\(\\d+ files\\), labs/ at the top");
        assertThat(log).containsPattern("\\] ivan: \\d+/\\d+ in [0-9.]+ s, labs/ at ivan/vramlab-main/")
                .containsPattern("\\] kim: \\d+/\\d+ in [0-9.]+ s, unpacked kim.zip");
    }

    @Test
    @DisplayName("the empty folder earns nothing and its flag in gradebook.csv says what was looked for")
    void emptyIsFlagged() throws IOException {
        Grader.Result empty = byId.get("empty");
        assertThat(empty.earned()).isZero();
        assertThat(empty.flags()).anySatisfy(f -> assertThat(f).startsWith("no labs/ found: looked for labs/src/main/java")
                .contains("one or two folders down"));
        String book = Files.readString(tmp.resolve("out").resolve(Gradebook.WIDE));
        assertThat(book.lines().filter(l -> l.startsWith("empty,"))).singleElement().asString()
                .contains("no labs/ found: looked for labs/src/main/java");
    }

    @Test
    @DisplayName("a whole clone is graded from its labs/, and its edited and deleted graded tests are flagged")
    void cloneWithChangedTests() {
        Grader.Result bo = byId.get("bo");
        assertThat(bo.found()).isEqualTo("labs/ at the top");
        assertThat(bo.flags()).anySatisfy(f -> assertThat(f).startsWith("graded test edited").contains(editedFile))
                .anySatisfy(f -> assertThat(f).startsWith("graded test deleted").contains(deletedFile));
        assertThat(bo.rows()).filteredOn(r -> !r.step().startsWith("q"))
                .allSatisfy(r -> assertThat(r.points()).as("the kit's points, not the edited test's").isLessThan(99));
    }
}
