package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;
import vramlab.quiz.NotesSection;
import vramlab.quiz.ReleaseStamp;
import vramlab.quiz.build.ExpressionLeaks;
import vramlab.quiz.build.PlaygroundBundles;
import vramlab.quiz.build.StepBodies;
import vramlab.quiz.grade.GradescopeZip;

/**
 * {@code vramlab release DIR}: writes what an instructor hands out (a GitHub Classroom template
 * repository, or a folder to zip): the chapters (notes, labs, graded tests, quiz prompts, example
 * traces), the triage corpus chapter 4 reads, the
 * cores as {@code labs/} (every step a Todo) and as {@code cores/} (the same, which the launcher,
 * the chapters and the grader build on, so a student's file that does not compile never stops
 * them), the grading harness, the student edition of the rendered notes and decks, and the
 * Classroom workflow. Never {@code solutions/}, the answer keys, the Gradescope autograder, the
 * benchmarks or the site's sources; and before it finishes it reads every file it wrote for a
 * graded step's body ({@link StepBodies}) and for compiled code, and fails if it finds any, or
 * if the notes name a file it did not write ({@link NotesPaths}), or do not read alone
 * ({@link ReleaseNotes}).
 */
@CommandLine.Command(name = "release", mixinStandardHelpOptions = true,
        header = "instructors: write the student release (no solutions) into a folder",
        description = """
                Writes the kit as students receive it into <dir> (which must be new or empty): the chapters,
                labs/ as the cores (every step a Todo), the grading harness and the Classroom workflow, and
                docs/ with the student edition of the notes, decks and playgrounds (--no-site leaves it out).
                There is no solutions/ in it, no graded step's body anywhere (sources, rendered pages,
                compiled code; hints and notes compared as expressions, names and numbers filled in) and no
                quiz key, and every file the notes name is in it: the command reads everything it wrote and
                fails otherwise. In the release, mvn test and ./vramlab grade mark the student's labs/,
                and ./vramlab check, lab and jshell run on them; the salted quiz keys and the batch grader
                stay with this copy. Make it a GitHub Classroom template repository, or zip it.
                RELEASE.txt names the kit's commit and dates the release by it; SOURCE_DATE_EPOCH (whole
                seconds since 1970 UTC, in decimal digits) dates the release and the autograder zip's
                entries instead, and a value that is not such a number stops it before it writes (exit 2).""")
public final class ReleaseCommand implements Command {
    /** What is copied from the kit, module by module: its pom and these folders. */
    static final Map<String, List<String>> MODULES = Map.of(
            "labgen", List.of("src/main"),
            "quiz", List.of("src/main"),
            // The triage corpus too: chapter 4's notes cite its messages and README, and an exercise opens one.
            "toolkit", List.of("src/main", "src/test/resources/triage-corpus"),
            "cli", List.of("src/main"));

    @Option(names = "--no-site",
            description = "leave the rendered notes out (students then read the notes' AsciiDoc in chapters/,"
                    + " and quiz --check names the heading's line there)")
    boolean noSite;

    @Option(names = "--gradescope", paramLabel = "<file.zip>", description = """
            instead: write the Gradescope autograder zip (setup.sh, run_autograder, the kit's sources for \
            grading and salt.txt from VRAMLAB_SALT_FILE or VRAMLAB_SALT)""")
    String gradescope;

    @Parameters(paramLabel = "<dir>", arity = "0..1", description = "a new or empty folder outside the kit")
    String target;

    @Override
    public String expected() { return "expected one folder, e.g. vramlab release ../course"; }

    @Override
    public int run(Io io) throws Exception {
        Path root = KitPaths.root();
        if (KitPaths.isRelease(root) || !Files.isDirectory(root.resolve("solutions/src/main/java"))) {
            throw new UsageException("release", "a release is made from the instructor's copy of the kit (with solutions/)");
        }
        try {
            ReleaseStamp.of(root);     // SOURCE_DATE_EPOCH checked before any work (a site render takes minutes): bad, exit 2
        } catch (IllegalArgumentException e) {
            throw new UsageException("release", e.getMessage());
        }
        if (gradescope != null) return gradescope(root, io);
        if (target == null) throw new UsageException("release", expected());
        Path dir = Path.of(target).toAbsolutePath().normalize();
        if (dir.startsWith(root)) throw new UsageException("release", dir + ": must be outside the kit (" + root + ")");
        if (Files.exists(dir) && (!Files.isDirectory(dir) || !empty(dir))) {
            throw new UsageException("release", dir + ": exists and is not an empty folder");
        }
        Path site = null;
        if (!noSite) {
            site = renderStudentSite(root, io);
            if (site == null) return 1;
        }
        write(root, dir, site);
        List<String> shown = shownIn(root, dir);
        if (!shown.isEmpty()) {
            io.err().println("error: release: " + dir + " would show what students must not see; nothing to hand out:");
            shown.forEach(s -> io.err().println("  " + s));
            return 1;
        }
        List<String> missing = NotesPaths.missingIn(dir);
        if (!missing.isEmpty()) {
            io.err().println("error: release: the notes in " + dir + " name files that are not in it; nothing to hand out:");
            missing.forEach(s -> io.err().println("  " + s));
            return 1;
        }
        List<String> unresolved = ReleaseNotes.unresolved(dir);
        if (!unresolved.isEmpty()) {
            io.err().println("error: release: the notes in " + dir + " do not read alone (an include or attribute the"
                    + " release lacks); nothing to hand out:");
            unresolved.forEach(s -> io.err().println("  " + s));
            return 1;
        }
        io.out().println("Wrote the student release to " + dir + " (no solutions, no step bodies, no quiz keys: checked)");
        io.out().println("Make it a GitHub Classroom template repository (git init; commit; push), or zip it.");
        return 0;
    }

    /**
     * What the release at {@code dir} shows that students must not see, one line each: a step's
     * body (as text, as an expression), a playground bundle compiled from the reference, a quiz key.
     */
    static List<String> shownIn(Path root, Path dir) throws IOException {
        List<String> shown = new ArrayList<>(StepBodies.of(root.resolve("solutions")).shownIn(dir));
        shown.addAll(ExpressionLeaks.of(root.resolve("solutions")).shownIn(dir));
        shown.addAll(PlaygroundBundles.fromTheReference(dir));
        shown.addAll(PracticeKeys.keysShownIn(dir));
        return shown;
    }

    /**
     * Writes the release of the kit at {@code root} into {@code dir} with the rendered student
     * edition {@code site} (exercise answers for seeds 1 to {@code seeds}) and returns what
     * {@code release} would then refuse to hand out, as it prints it (what students must not see,
     * then the files the notes name that are missing): the site's tests use it on the edition
     * {@code -Psite} renders, so the check runs on the whole of {@code docs/}.
     */
    public static List<String> writeChecked(Path root, Path dir, Path site, int seeds) throws IOException {
        write(root, dir, site, seeds);
        List<String> refused = new ArrayList<>(shownIn(root, dir));
        refused.addAll(NotesPaths.missingIn(dir));
        refused.addAll(ReleaseNotes.unresolved(dir));
        return refused;
    }

    /**
     * The kit's notes in {@code dir}, a release's folder, as they read before {@code release}
     * expands their includes; {@link #expandNotes} then does the rest of what {@code release}
     * does to them. The site's test renders both with Asciidoctor and compares them.
     */
    public static void prepareNotes(Path root, Path dir) throws IOException { ReleaseNotes.prepare(root, dir); }

    /** Expands the includes of the notes {@link #prepareNotes} wrote in {@code dir}. */
    public static void expandNotes(Path dir) throws IOException { ReleaseNotes.expand(dir); }

    /** {@code --gradescope FILE.zip}: the autograder zip, alone (issue 33; {@link GradescopeZip}). */
    private int gradescope(Path root, Io io) throws IOException {
        if (target != null) throw new UsageException("release", "--gradescope writes the autograder zip alone: drop " + target);
        if (!gradescope.endsWith(".zip")) throw new UsageException("release", "--gradescope " + gradescope + ": expected a .zip");
        GradescopeZip.Written w;
        try {
            w = GradescopeZip.write(root, GradescopeZip.saltText(), Path.of(gradescope));
        } catch (IllegalArgumentException e) {
            throw new UsageException("release", e.getMessage());
        }
        io.out().printf(java.util.Locale.ROOT, "Wrote the Gradescope autograder to %s (%d files, %.1f MiB): upload it as"
                + " the assignment's autograder zip%n", w.zip(), w.files(), w.bytes() / 1048576.0);
        return 0;
    }

    /** Writes the release of the kit at {@code root} into {@code dir}; {@code site} is a rendered student edition, or null. */
    static void write(Path root, Path dir, Path site) throws IOException { write(root, dir, site, PracticeKeys.SEEDS); }

    /** The same, with the exercises' answers for seeds 1 to {@code seeds} (the kit's quick test writes fewer). */
    static void write(Path root, Path dir, Path site, int seeds) throws IOException {
        Files.createDirectories(dir);
        for (String f : List.of("vramlab", "vramlab.cmd", ".gitignore")) copy(root.resolve(f), dir.resolve(f));
        dir.resolve("vramlab").toFile().setExecutable(true, false);
        copy(root.resolve(".github/workflows/classroom.yml"), dir.resolve(".github/workflows/classroom.yml"));
        for (Map.Entry<String, List<String>> m : MODULES.entrySet()) {
            copy(root.resolve(m.getKey()).resolve("pom.xml"), dir.resolve(m.getKey()).resolve("pom.xml"));
            for (String sub : m.getValue()) copyTree(root.resolve(m.getKey()).resolve(sub), dir.resolve(m.getKey()).resolve(sub));
        }
        copy(root.resolve("quiz/report/pom.xml"), dir.resolve("quiz/report/pom.xml"));
        try (Stream<Path> s = Files.list(root.resolve("chapters"))) {
            for (Path ch : s.filter(Files::isDirectory).sorted().toList()) {
                Path to = dir.resolve("chapters").resolve(ch.getFileName().toString());
                copy(ch.resolve("pom.xml"), to.resolve("pom.xml"));
                // examples/: recorded traces and snapshots that the notes have students replay and advise on.
                for (String sub : List.of("src/main", "src/test", "src/docs", "examples")) copyTree(ch.resolve(sub), to.resolve(sub));
                // Only the graded tests go out: the maintainers' own (the questions' keys against hand
                // models, the hints fed wrong bodies, the reference's points) hold keys and bodies.
                try (Stream<Path> t = Files.walk(to)) {
                    for (Path f : t.filter(f -> f.getFileName().toString().endsWith("Test.java")).toList()) {
                        if (!Files.readString(f).contains("@Graded")) Files.delete(f);
                    }
                }
            }
        }
        Map<String, String> generated = LabGenerator.generate(root.resolve("solutions"));
        for (String module : List.of("labs", "cores")) {
            for (Map.Entry<String, String> f : generated.entrySet()) {
                Path p = dir.resolve(module).resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
            }
        }
        // The notes read alone (GitHub, an editor, asciidoctor): labs/ for solutions/, citations as links, and
        // every include expanded from the files just written (labs/ as handed out, never the reference).
        ReleaseNotes.write(root, dir);
        copy(root.resolve("labs/pom.xml"), dir.resolve("labs/pom.xml"));
        copyTree(root.resolve("labs/answers"), dir.resolve("labs/answers"));
        Files.writeString(dir.resolve("labs/STUDENT_COPY"), "labs/ is the student's: the kit's maintainers' checks leave it alone.\n");
        Files.writeString(dir.resolve("cores/pom.xml"), CORES_POM);
        if (site != null) copySite(site, dir.resolve("docs"));
        PracticeKeys.write(dir, seeds);
        // The contest's reference rows: a release's own cores would build PyTorch's entry from the student's code.
        // Dated by the commit released, not the day: two releases of one commit are the same bytes.
        ReleaseStamp stamp = ReleaseStamp.of(root);
        ContestCommand.writeRelease(dir, "by ./vramlab release of " + stamp.phrase() + ", on the reference cores");
        Files.writeString(dir.resolve(KitPaths.RELEASE_MARKER), "vramlab student release, written by ./vramlab release"
                + " from " + stamp.phrase() + ".\nIt has no reference cores and no quiz keys: those stay with the instructor's"
                + " copy of the kit. The practice numbers' answers are kept as keyed hashes (quiz --check marks a\n"
                + "practice sheet with them) and the exercises' answers for seeds 1-" + seeds
                + " as computed by the reference; no graded (salted) number is here.\n");
        // The README's example of quiz --check's reread line, as this copy prints it (docs/'s page, or the AsciiDoc's line).
        Files.writeString(dir.resolve("README.adoc"), readme(site != null, rereadExample(dir), root));
        Files.writeString(dir.resolve("pom.xml"), releasePom(Files.readString(root.resolve("pom.xml")),
                m -> Files.isRegularFile(dir.resolve(m).resolve("pom.xml"))));
    }

    /**
     * The site build's marker ({@code SiteBuilder.MARKER} in the site module, which the cli cannot
     * see; the site's {@code SiteMarkerTest} holds the two equal): its edition and the build's time,
     * for the site's own tests. Nothing in a release reads it, and its time would make two releases
     * of one commit differ, so it stays out of {@code docs/}.
     */
    public static final String SITE_BUILD_MARKER = ".vramlab-site";

    /** The rendered student edition {@code site} into {@code docs}: every file but the build's marker. */
    public static void copySite(Path site, Path docs) throws IOException {
        copyTree(site, docs);
        Files.deleteIfExists(docs.resolve(SITE_BUILD_MARKER));
    }

    /**
     * The kit's root pom for a release: cores/ in place of solutions/, quiz/report in the default
     * build, no module the release does not hold ({@code present} says which it does), and of the
     * kit's profiles only an empty {@code lab}: a release's plain {@code mvn test} grades already,
     * and the notes' {@code mvn test -Plab} then does the same without Maven's warning that no
     * such profile exists.
     */
    static String releasePom(String pom, java.util.function.Predicate<String> present) {
        String p = pom.replaceAll("(?s)\\s*<profiles>.*</profiles>", "")
                .replace("<module>solutions</module>", "<module>cores</module>")
                .replace("<module>cli</module>", "<module>cli</module>\n    <module>quiz/report</module>");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\n\\s*<module>([^<]+)</module>").matcher(p);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, present.test(m.group(1)) ? java.util.regex.Matcher.quoteReplacement(m.group()) : "");
        }
        m.appendTail(sb);
        p = sb.toString()
                .replaceAll("<vramlab\\.core>[^<]*</vramlab\\.core>", "<vramlab.core>vramlab-cores</vramlab.core>")
                .replaceAll("<vramlab\\.labs\\.skip>[^<]*</vramlab\\.labs\\.skip>", "<vramlab.labs.skip>true</vramlab.labs.skip>")
                .replaceAll("<vramlab\\.surefire\\.skip>[^<]*</vramlab\\.surefire\\.skip>",
                        "<vramlab.surefire.skip>true</vramlab.surefire.skip>");
        for (String must : List.of("<module>cores</module>", "<vramlab.core>vramlab-cores</vramlab.core>",
                "<vramlab.labs.skip>true</vramlab.labs.skip>", "<vramlab.surefire.skip>true</vramlab.surefire.skip>",
                "<module>quiz/report</module>")) {
            if (!p.contains(must)) throw new IllegalStateException("the kit's pom.xml has changed: cannot write " + must);
        }
        int end = p.lastIndexOf("</project>");
        p = p.substring(0, end) + "  <profiles>\n    <!-- the notes' mvn test -Plab: plain mvn test grades here already -->\n"
                + "    <profile>\n      <id>lab</id>\n    </profile>\n  </profiles>\n" + p.substring(end);
        return p.replace("<description>", "<description>The student release: ");
    }

    static final String CORES_POM = """
            <?xml version="1.0" encoding="UTF-8"?>
            <project xmlns="http://maven.apache.org/POM/4.0.0"
                     xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                     xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
              <modelVersion>4.0.0</modelVersion>
              <parent>
                <groupId>org.vramlab</groupId>
                <artifactId>vramlab</artifactId>
                <version>0.1.0-SNAPSHOT</version>
              </parent>
              <artifactId>vramlab-cores</artifactId>
              <name>vramlab cores, as handed out</name>
              <description>The cores exactly as labs/ was handed out, every step a Todo. The launcher, the
                chapters and the grader build on these, so a file of yours that does not compile never stops
                them; when one of your cores does not compile, these stand in for it. Never edit them: edit
                labs/.</description>
            </project>
            """;

    /** The section of chapter 3 whose reread line the release's README shows. */
    static final String README_SECTION = "Rule 2: pools never mix";

    /**
     * {@code quiz --check}'s reread line for {@link #README_SECTION} as a student at the root of
     * the release at {@code dir} reads it, the page's address with the folder the copy will be in
     * (not this one) written {@code file:///.../}.
     */
    static String rereadExample(Path dir) {
        Path root = dir.toAbsolutePath().normalize();
        return NotesSection.inCopy(root, "ch03", README_SECTION).reread(root, root)
                .replace(root.toUri().toString(), "file:///.../");
    }

    /**
     * The release's README: where to read the notes ({@code docs/} when {@code site}, else the
     * AsciiDoc), and how to check and grade; {@code reread} is {@code quiz --check}'s line for
     * {@link #README_SECTION} as the release prints it ({@code NotesSection.inCopy}).
     */
    static String readme(boolean site, String reread) {
        return readme(site, reread, KitPaths.root());
    }

    /**
     * The same for the kit at {@code root}: which earlier chapters' steps each chapter needs
     * ({@link ChapterNeeds#text}) and which chapters have a playground ({@link ChapterNeeds#playgrounds}).
     */
    static String readme(boolean site, String reread, Path root) {
        String playgrounds = ChapterNeeds.playgrounds(root);
        String notes = site
                ? "`docs/index.html` (rendered, with each chapter's slides; " + playgrounds
                        + "), or their AsciiDoc in"
                        + " `chapters/chNN-slug/src/docs/asciidoc/`"
                : "their AsciiDoc in `chapters/chNN-slug/src/docs/asciidoc/` (GitHub and an editor's AsciiDoc preview"
                        + " render them; this copy was made without the rendered pages)";
        String docsRow = site ? "|`docs/` |the notes and slides, rendered; " + playgrounds + " (`docs/playground/`):"
                + " a playground runs these cores as handed out in the browser and shows the reference's results, recorded, for its"
                + " preset inputs\n" : "";
        String where = site ? "the address of that section in the chapter's rendered page under `docs/`, which a click in"
                + " most terminals, or a browser's address bar, opens at the section"
                : "the line it is on in the chapter's AsciiDoc notes (this copy has no rendered pages), which an"
                        + " editor opens at that line";
        return README.replace("{notes}", notes).replace("{docs}", docsRow).replace("{reread}", reread)
                .replace("{reread-where}", where).replace("{needs}\n", ChapterNeeds.text(root));
    }

    private static final String README = """
            = vramlab: how GPU memory is really managed (your copy)
            :toc: macro

            A course on GPU memory in Java: the GPU's MMU, `cudaMalloc`, PyTorch's caching allocator,
            fragmentation and the real OOM, expandable segments, buddy allocators and paged KV blocks,
            pinned host memory. You rebuild each mechanism step by step in `labs/`. You need a JDK (17
            or newer) and Maven.

            toc::[]

            == Start

            {needs}
            . Read a chapter's notes: {notes}.
            . Play with the chapter in JShell: `./vramlab jshell <chapter>` (type `help()`), and run
              its lab: `./vramlab lab <chapter>`. Both run on your own `labs/`.
            . Write the steps in `labs/src/main/java`. A step you have not written throws a `Todo`
              that names the step, the section of the notes to read and the file to edit.
            . Check one step: `./vramlab check 3.1`; a whole chapter: `./vramlab check <chapter>` (`3` or
              `caching-allocator`). Check everything: `mvn test`, which compiles your cores one at a time
              (a file that does not compile costs only its own core's steps, and says where) and ends
              with `Score: X/Y`. A failure of `check` says expected against actual, for a common mistake
              the rule it breaks, and the section of the notes to reread, named as `quiz --check` names it
              (below), with the heading. A step you have not written is `TODO`, "not written yet", with the
              section that teaches it, named the same way.
            . The quiz: `./vramlab quiz <chapter>` prints the questions with the practice numbers. Write
              your answers in `labs/answers/chNN.txt` and check them with
              `./vramlab quiz <chapter> --check labs/answers/chNN.txt`: points and what is wrong, never
              the right answer (this copy holds the practice answers as hashes only), and under a question
              answered and marked down the section to reread: `{reread}`, the heading in the chapter's notes and
              {reread-where}. A question none of whose blanks you filled in is `TODO`, "not answered",
              with nothing to reread under it; one line above the score counts and names those:
              `Not answered yet: 3 of 8 questions (q3.2, q3.6, q3.7).` In the sheets of `labs/answers/` leave the `student` line
              empty: the practice numbers are everyone's. A sheet your instructor hands out with your own numbers is marked
              by your instructor alone.
            . Your points: `./vramlab grade` grades every lab step and every quiz sheet in
              `labs/answers/` (on the practice numbers) and ends with `Score: X/Y`: a step you have not
              written is `TODO`, "not written yet", as `check` says it, and so is a quiz question none of
              whose blanks you filled in, as `quiz --check` says it (a test that waits for an earlier step
              is `WAITING`, `check`'s `WAIT`), and under a quiz question that lost points, and under a
              failed step, the section to reread, as `quiz --check` and `check` name it, its file named from this folder. GitHub Classroom runs the same on every push.
            . Homework: `./vramlab exercise <chapter> N --seed S --answer` (answers for seeds 1-20,
              computed by the kit's reference when this copy was made).

            On Windows use `vramlab.cmd` in place of `./vramlab`.

            == What is here

            [cols="1,4"]
            |===
            |`labs/` |your cores: every graded step is yours to write
            |`cores/` |the same cores as they were handed out (never edit): the launcher and the graded tests build on them, and they stand in for a core of yours that does not compile
            |`chapters/` |each chapter's notes, lab, JShell start-up, graded tests, quiz questions and example traces (`examples/`)
            |`toolkit/` |the kit's tools (`triage`, `advise`, `replay`), and the real OOM messages chapter 4 reads (`toolkit/src/test/resources/triage-corpus/`)
            |`quiz/` |the grading harness behind `mvn test`, `./vramlab check` and `./vramlab grade`
            {docs}|`.github/workflows/` |GitHub Classroom's autograding: your points on every push
            |===
            """;

    private static boolean empty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isRegularFile(from)) return;
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) return;
        List<Path> files;
        try (Stream<Path> s = Files.walk(from)) {
            files = s.filter(Files::isRegularFile).toList();
        }
        for (Path f : files) copy(f, to.resolve(from.relativize(f).toString()));
    }

    /**
     * The JVM options the site's Maven runs with ({@code release}'s render and {@code ./vramlab site},
     * both through {@link #maven}), so that TeaVM compiles the same playground bundle every time.
     * TeaVM 0.16.0's dependency analysis keeps the nodes that share a type set in a
     * {@code HashSet<DependencyNode>} ({@code org.teavm.dependency.TypeSet.addDomain}; DependencyNode
     * has no {@code hashCode}, so the set iterates by identity hash codes, which differ from one JVM
     * to the next) and walks them in that order ({@code TypeSet.getTransitions}); the order in which
     * classes are first reached is the order {@code Renderer.render} emits them and
     * {@code ClassInitializerAnalysis} lists the initialisers the entry point calls. Measured: the
     * student bundle of two builds differed in 29 diff lines of its 1 MB, the instructor's of
     * another pair from byte 665507; with HotSpot's
     * {@code -XX:hashCode=2} (every identity hash code 1, an experimental option) such a set
     * iterates in the order its nodes were added, and three builds gave the same bytes.
     */
    static final String DETERMINISTIC_JVM = "-XX:+UnlockExperimentalVMOptions -XX:hashCode=2";

    /**
     * Maven, run in the kit's {@code root} with {@code cmd} (its command line), its JVM given
     * {@link #DETERMINISTIC_JVM} after any {@code MAVEN_OPTS} of the caller's.
     */
    public static ProcessBuilder maven(Path root, List<String> cmd) {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        String opts = System.getenv("MAVEN_OPTS");
        pb.environment().put("MAVEN_OPTS", (opts == null || opts.isBlank() ? "" : opts.strip() + " ") + DETERMINISTIC_JVM);
        return pb;
    }

    /** {@code mvn} as this system names it (site, slides and release run it). */
    public static String mvn() { return System.getProperty("os.name", "").startsWith("Windows") ? "mvn.cmd" : "mvn"; }

    /**
     * The student edition's site build as release runs it: {@code ./vramlab site}'s own
     * ({@link SiteCommand#build}), so offline ({@code -o}) under {@code VRAMLAB_OFFLINE} in
     * {@code env} as site and slides are, in the JVM {@link #maven} gives.
     */
    static ProcessBuilder siteRender(Path root, Map<String, String> env) {
        return SiteCommand.build(root, new EditionOption(), env);
    }

    /**
     * Renders the student edition of the site ({@code -Psite}, {@code vramlab.site.edition=student})
     * and returns its folder, or null when the render failed (its messages are on the console).
     */
    private static Path renderStudentSite(Path root, Io io) throws Exception {
        return renderStudentSite(root, siteRender(root, System.getenv()), io);
    }

    /**
     * Runs {@code render} as {@code ./vramlab site} runs its build ({@link SiteCommand#run}): Maven's
     * output on standard error, its terminal escape codes dropped unless a person watches a
     * terminal. Before, the render inherited the console, and a release written with its output
     * kept ({@code > release.log 2>&1}) held Maven's escape codes and the site's own
     * {@code index.html} path on standard output, beside the release's lines.
     */
    static Path renderStudentSite(Path root, ProcessBuilder render, Io io) throws Exception {
        io.err().println("vramlab: rendering the student edition of the notes...");
        int status = SiteCommand.run(render, io.err());
        Path index = root.resolve("site/target/site/index.html");
        if (status != 0 || !Files.isRegularFile(index)) {
            io.err().println("error: release: the site did not render; its messages are above (--no-site leaves it out)");
            return null;
        }
        return index.getParent();
    }
}
