package vramlab.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import picocli.CommandLine;
import vramlab.kit.ChapterLab;
import vramlab.kit.Citations;
import vramlab.kit.Chapters;
import vramlab.kit.FigureRegistry;
import vramlab.playground.Pages;
import vramlab.playground.Playground;
import vramlab.playground.Recorded;

/**
 * Renders the course site in one edition (student or instructor, see {@link Edition}): for
 * every chapter module, its figures (drawn by the simulator now), its steps' worked examples and
 * its lab's real output, its notes as one HTML page and its deck ({@code slides/chNN-slug.adoc})
 * as a reveal.js page; then the index with the course map. Everything a page loads lies beside
 * it: Asciidoctor's stylesheet is embedded, {@code book.css} and its typeface are copied in, code
 * is highlighted by Rouge at build time, reveal.js is copied in. With {@code --what decks} only
 * the decks are built (what {@code ./vramlab slides} runs).
 *
 * <p>Any Asciidoctor warning (a missing include, tag or attribute) fails the build, and so does
 * a page that loads from the network or shows an image that is not there.
 *
 * <pre>
 * out/index.html
 * out/book.css, out/fonts/        the book's stylesheet and typeface
 * out/chNN-slug/notes.html        the notes
 * out/chNN-slug/slides.html       the deck
 * out/chNN-slug/figures/NAME.svg  one per figure method of the chapter (also as chNN-NAME.svg)
 * out/playground/chNN-slug.html  a chapter's live lab on its own page, beside the browser bundle: in
 *                                 the instructor edition the reference cores compiled, in the student
 *                                 edition the cores as handed out (playground/student) and the
 *                                 reference's answers for the preset inputs (Recorded)
 * out/reveal.js/...               reveal.js, shared by every deck, and deck.css (the decks' theme)
 * out/.vramlab-site               the marker: edition and build stamp (tests read only their own build)
 * out/../generated/chNN-slug/lab-output.txt   include::{generated}/lab-output.txt[] in the notes
 * out/../generated/chNN-slug/chNN-slug.txt    the same, as include::{labout}/chNN-slug.txt[]
 * out/../generated/chNN-slug/step-N.M.adoc    step N.M's worked example (include it by that name)
 * out/../generated/chNN-slug/playground.adoc  the live lab, for include::{generated}/playground.adoc[]
 * out/../generated/chNN-slug/output-xxx.txt   what outputXxx() prints (include it in a literal block)
 * </pre>
 */
public final class SiteBuilder {
    /** The failures of one build, reported together. */
    public static final class SiteException extends RuntimeException {
        public SiteException(String what, List<?> problems) {
            super(what + ":\n  " + String.join("\n  ", problems.stream().map(Object::toString).toList()));
        }
    }

    static final String MARKER = ".vramlab-site";
    /** The typeface's files the pages use, from the npm package's {@code files/} folder. */
    static final List<String> FONT_FILES = List.of("source-serif-4-latin-wght-normal.woff2",
            "source-serif-4-latin-wght-italic.woff2", "source-serif-4-latin-ext-wght-normal.woff2",
            "source-serif-4-latin-ext-wght-italic.woff2");

    private final Path root;
    private final Path out;
    private final Path revealjs;
    private final Path fonts;
    private final Edition edition;
    private final Path generated;
    private Path studentBundle;
    private boolean decksOnly;
    private String only = "";
    private String stamp = "";
    private int pages;
    private int decks;
    private int figures;

    /**
     * @param out      the folder to write (emptied first)
     * @param revealjs reveal.js's npm package, unpacked
     * @param fonts    the typeface's npm package, unpacked
     */
    public SiteBuilder(Path root, Path out, Path revealjs, Path fonts, Edition edition) {
        this.root = root.toAbsolutePath().normalize();
        this.out = out.toAbsolutePath().normalize();
        this.revealjs = revealjs.toAbsolutePath().normalize();
        this.fonts = fonts.toAbsolutePath().normalize();
        this.edition = edition;
        this.generated = this.out.resolveSibling("generated");
    }

    /** Only the decks (no notes, no index); {@code chapter} an id, or empty for all. */
    public SiteBuilder decksOnly(String chapter) {
        this.decksOnly = true;
        this.only = chapter == null ? "" : chapter;
        return this;
    }

    /**
     * The student edition's playground bundle ({@code playground/student/target/web/vramlab-playground.js},
     * built under {@code -Psite}): the page code compiled against the cores as handed out. The
     * site's pom always passes it; without it the student edition carries no playground.
     */
    public SiteBuilder studentBundle(Path bundle) {
        this.studentBundle = bundle;
        return this;
    }

    /** A stamp written into the marker file, so a test can tell this build from an older one. */
    public SiteBuilder stamp(String s) {
        this.stamp = s == null ? "" : s;
        return this;
    }

    /** The build-time main's options (the site and slides POMs pass them), parsed by picocli. */
    @CommandLine.Command(name = "site")
    static final class Options {
        @CommandLine.Option(names = "--root", required = true) Path root;
        @CommandLine.Option(names = "--target", required = true) Path target;
        @CommandLine.Option(names = "--revealjs", required = true) Path revealjs;
        @CommandLine.Option(names = "--font", required = true) Path font;
        @CommandLine.Option(names = "--edition") String edition = "student";
        @CommandLine.Option(names = "--what") String what = "site";
        // Maven may pass an empty property as no argument at all: then the option has no value.
        @CommandLine.Option(names = "--chapter", arity = "0..1", fallbackValue = "") String chapter = "";
        @CommandLine.Option(names = "--stamp", arity = "0..1", fallbackValue = "") String stamp;
        @CommandLine.Option(names = "--student-bundle") Path studentBundle;
    }

    /**
     * {@code --root R --target T --revealjs X --font F [--edition student|instructor|both]
     * [--what site|decks] [--chapter chNN-slug] [--stamp S]}: writes {@code T/site} (student) and
     * or {@code T/site-instructor}; with {@code --what decks}, {@code T/slides} (or
     * {@code T/slides-instructor}). Prints a summary per edition, then the paths it made, one a
     * line: the index, or each deck.
     */
    public static void main(String[] args) {
        Options a = new Options();
        try {
            new CommandLine(a).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println("error: site: " + e.getMessage());
            System.exit(2);
        }
        try {
            List<Edition> editions = a.edition.equals("both") ? List.of(Edition.values()) : List.of(Edition.parse(a.edition));
            boolean decks = a.what.equals("decks");
            List<Path> made = new ArrayList<>();
            for (Edition e : editions) {
                long start = System.nanoTime();
                String folder = decks ? e.folder().replace("site", "slides") : e.folder();
                SiteBuilder b = new SiteBuilder(a.root, a.target.resolve(folder), a.revealjs, a.font, e)
                        .stamp(a.stamp).studentBundle(a.studentBundle);
                if (decks) b.decksOnly(a.chapter);
                Path result = b.build();
                System.out.printf("site: %s edition: %d chapter pages, %d decks, %d figures in %.1f s%n", e.id(),
                        b.pages, b.decks, b.figures, (System.nanoTime() - start) / 1e9);
                if (decks) made.addAll(b.deckPages()); else made.add(result);
            }
            made.forEach(System.out::println);
        } catch (SiteException | IllegalArgumentException e) {
            System.err.println("error: site: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Builds everything; returns the path of {@code index.html} (for decks only: the folder). */
    public Path build() {
        List<Course.ChapterDir> chapters = Course.chapters(root).stream()
                .filter(c -> only.isEmpty() || c.id().equals(only)).toList();
        if (chapters.isEmpty()) throw new SiteException("no chapter", List.of(only.isEmpty()
                ? "no chapters/chNN-slug folder under " + root : "no chapter " + only + " under " + root + "/chapters"));
        lint(chapters);
        Map<String, Citations.Source> sources = sources();
        try {
            clean();
            Files.createDirectories(out);
            for (Course.ChapterDir c : chapters) generate(c);
            Files.createDirectories(generated);
            Files.writeString(generated.resolve("course-map.adoc"), IndexPage.courseMap(chapters));
            pages = new Renderer(root, out, generated, edition, sources).render(chapters, !decksOnly, !decksOnly);
            decks = (int) chapters.stream().filter(c -> c.slides().isPresent()).count();
            copyRevealJs();
            copyBook();
            if (!decksOnly) copyPlaygrounds(chapters);
            Files.writeString(out.resolve(MARKER), "written by vramlab.site.SiteBuilder; deleted by its next run\n"
                    + "edition=" + edition.id() + "\nstamp=" + stamp + "\n");
        } catch (IOException e) {
            throw new SiteException("cannot write the site", List.of(e));
        }
        SiteChecks.check(out, chapters, !decksOnly);
        return decksOnly ? out : out.resolve("index.html");
    }

    /** The decks this build wrote. */
    public List<Path> deckPages() {
        List<Path> out = new ArrayList<>();
        for (Course.ChapterDir c : Course.chapters(root)) {
            Path p = this.out.resolve(c.id()).resolve("slides.html");
            if (Files.isRegularFile(p)) out.add(p);
        }
        return out;
    }

    /** {@code site/src/site/sources.tsv} ({@link Citations#TABLE}): the files the notes cite, each at one commit. */
    Map<String, Citations.Source> sources() {
        try {
            return Citations.read(root);
        } catch (IOException | IllegalArgumentException e) {
            throw new SiteException("cannot read " + root.resolve(Citations.TABLE), List.of(e.getMessage()));
        }
    }

    /**
     * Deletes the last build's site, so a page whose notes are gone does not linger; only a
     * folder this builder wrote (it holds the marker file) or one inside a build's
     * {@code target/} is ever deleted.
     */
    private void clean() throws IOException {
        if (!Files.isDirectory(out)) return;
        boolean ours = Files.exists(out.resolve(MARKER)) || out.getParent().getFileName().toString().equals("target");
        if (!ours) {
            try (Stream<Path> s = Files.list(out)) {
                if (s.findAny().isPresent()) {
                    throw new SiteException("will not overwrite", List.of(out + " is not empty and was not written by "
                            + "the site build (no " + MARKER + " in it)"));
                }
            }
        }
        try (Stream<Path> s = Files.walk(out)) {
            for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) Files.delete(p);
        }
    }

    /** Every .adoc of every chapter and deck obeys NotesLint; titles and decks obey their rules. */
    private void lint(List<Course.ChapterDir> chapters) {
        List<Object> problems = new ArrayList<>();
        for (Course.ChapterDir c : chapters) {
            if (Files.isDirectory(c.docs())) {
                try (Stream<Path> s = Files.walk(c.docs())) {
                    s.filter(p -> p.toString().endsWith(".adoc")).sorted()
                            .forEach(p -> problems.addAll(NotesLint.check(p, root)));
                } catch (IOException e) {
                    throw new SiteException("cannot read " + c.docs(), List.of(e));
                }
            }
            Course.Entry entry = Course.entry(c.id()).orElse(null);
            if (entry != null) c.notes().ifPresent(n -> problems.addAll(NotesLint.title(n, entry.title())));
            if (c.notes().isPresent() && c.slides().isEmpty()) {
                problems.add(Course.deckOf(root, c.id()) + ": missing: every chapter with notes has a deck "
                        + "(see slides/README.adoc)");
            }
            if (c.slides().isPresent()) {
                problems.addAll(NotesLint.check(c.slides().get(), root));
                problems.addAll(DeckLint.check(c.slides().get(), root, entry == null ? "" : entry.title()));
            }
        }
        if (!problems.isEmpty()) throw new SiteException("the notes break the site's rules", problems);
    }

    /** Figures, worked examples and lab output for one chapter, from its code on the classpath. */
    private void generate(Course.ChapterDir c) throws IOException {
        ChapterLab lab = Chapters.all().stream().filter(l -> l.id().equals(c.id())).findFirst().orElse(null);
        if (lab == null) {
            if (c.notes().isPresent()) {
                throw new SiteException(c.id(), List.of("no ChapterLab with this id on the classpath: register it in "
                        + "META-INF/services/vramlab.kit.ChapterLab and add the chapter to cli/pom.xml"));
            }
            return;
        }
        Path g = generated.resolve(c.id());
        try {
            figures += FigureRegistry.write(lab, g, out.resolve(c.id()).resolve("figures"));
        } catch (IllegalStateException e) {
            throw new SiteException(c.id() + ": a figure or example cannot be drawn", List.of(e.getMessage()));
        }
        playground(c.id()).ifPresent(p -> write(g.resolve("playground.adoc"), playgroundBlock(p)));
    }

    /**
     * Both editions embed the playground. The student edition's runs the cores as handed out (no
     * graded step's body) and shows the reference's answers, recorded, for its preset inputs; a
     * build given no student bundle (a test's) says in a note where the playground is instead.
     */
    private String playgroundBlock(Playground p) {
        if (edition == Edition.INSTRUCTOR || studentBundle != null) {
            return "++++\n" + Pages.embed(p, "../playground/", edition == Edition.STUDENT) + "++++\n";
        }
        String ch = p.id().substring(2, 4);
        return "[NOTE]\n====\nThis chapter's live playground (" + (p.hasTrace()
                ? "a trace editor, the segment map and the OOM message, computed in the browser"
                : "the lab, run in the browser") + ") is in the instructor's edition of the site: it runs the "
                + "reference cores, whose steps you write. On your own cores, `./vramlab lab " + ch + "`"
                + (p.hasTrace() ? " and `./vramlab replay` on a trace file" : "") + " print the same.\n====\n";
    }

    /** The chapter's live lab, for {@code include::{generated}/playground.adoc[]}, if it has one. */
    static java.util.Optional<Playground> playground(String id) {
        return Playground.all().stream().filter(p -> p.id().equals(id)).findFirst();
    }

    /**
     * {@code playground/}: the browser bundle (the kit's cores compiled by TeaVM), the page's
     * script and stylesheet, and each chapter's playground on its own page. In the instructor
     * edition the bundle is the reference's, and the snapshot page comes too. In the student
     * edition it is {@link #studentBundle} (no graded step's body: the release's body check reads
     * it), beside {@link Recorded#FILE}, the reference's answers for the preset inputs computed
     * now; no snapshot page, since every replay of a snapshot needs graded steps.
     */
    private void copyPlaygrounds(List<Course.ChapterDir> chapters) throws IOException {
        List<Playground> here = chapters.stream().map(c -> playground(c.id())).flatMap(java.util.Optional::stream)
                .toList();
        boolean student = edition == Edition.STUDENT;
        if (here.isEmpty() || student && studentBundle == null) return;
        Path dir = Files.createDirectories(out.resolve("playground"));
        try {
            for (String a : Pages.ASSETS) {
                if (student && a.equals("vramlab-playground.js")) continue;
                Files.write(dir.resolve(a), Pages.asset(a));
            }
        } catch (IllegalStateException e) {
            throw new SiteException("the playgrounds' script is missing", List.of(e.getMessage()));
        }
        if (student) {
            if (!Files.isRegularFile(studentBundle)) {
                throw new SiteException("the student edition's playground bundle is missing", List.of(studentBundle
                        + " (playground/student builds it under -Psite: mvn -Psite -pl site -am package)"));
            }
            Files.copy(studentBundle, dir.resolve("vramlab-playground.js"), StandardCopyOption.REPLACE_EXISTING);
            write(dir.resolve(Recorded.FILE), Recorded.script(here));
        }
        for (Playground p : here) write(dir.resolve(p.id() + ".html"), Pages.standalone(p, "../book.css", student));
        if (!student) write(dir.resolve("snapshot.html"), Pages.snapshot("../book.css"));
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** reveal.js's own files, the part a deck loads: its dist folder and the plugins we enable. */
    private void copyRevealJs() throws IOException {
        if (!Files.isRegularFile(revealjs.resolve("dist/reveal.js"))) {
            throw new SiteException("reveal.js is missing", List.of(revealjs + "/dist/reveal.js (build with -Psite, "
                    + "which fetches it)"));
        }
        // Only the theme the decks use: other reveal.js themes @import Google Fonts.
        for (String part : List.of("dist/reveal.js", "dist/reveal.css", "dist/reset.css", "dist/theme/white.css",
                "dist/theme/fonts/source-sans-pro", "plugin/notes", "plugin/zoom", "plugin/search")) {
            copyTree(revealjs.resolve(part), out.resolve("reveal.js").resolve(part));
        }
        Files.copy(revealjs.resolve("LICENSE"), out.resolve("reveal.js/LICENSE"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(root.resolve("site/src/site/deck.css"), out.resolve("reveal.js/deck.css"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    /** book.css and the typeface it names (with its licence). */
    private void copyBook() throws IOException {
        Files.copy(root.resolve("site/src/site/book.css"), out.resolve("book.css"), StandardCopyOption.REPLACE_EXISTING);
        Path to = Files.createDirectories(out.resolve("fonts"));
        for (String f : FONT_FILES) {
            Path from = fonts.resolve("files").resolve(f);
            if (!Files.isRegularFile(from)) {
                throw new SiteException("the typeface is missing", List.of(from + " (build with -Psite, which fetches "
                        + "@fontsource-variable/source-serif-4)"));
            }
            Files.copy(from, to.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.copy(fonts.resolve("LICENSE"), to.resolve("LICENSE-source-serif-4.txt"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
