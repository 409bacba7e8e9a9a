package vramlab.site;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Attributes;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import org.asciidoctor.log.LogRecord;
import org.asciidoctor.log.Severity;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;

/**
 * Renders the course site: for every chapter module, its figures (drawn by the simulator now),
 * its lab's real output, its notes as one HTML page and its deck as a reveal.js page; then the
 * index with the course map. Everything a page loads lies beside it: the stylesheet is
 * embedded, code is highlighted by Rouge at build time, reveal.js is copied in.
 *
 * <p>Any Asciidoctor warning (a missing include, tag or attribute) fails the build, and so does
 * a page that loads from the network or shows an image that is not there.
 *
 * <pre>
 * out/index.html
 * out/chNN-slug/notes.html        the notes
 * out/chNN-slug/slides.html       the deck
 * out/chNN-slug/figures/NAME.svg  one per figure method of the chapter (also as chNN-NAME.svg)
 * out/reveal.js/...               reveal.js, shared by every deck, and deck.css (the decks' theme)
 * out/../generated/chNN-slug/lab-output.txt   include::{generated}/lab-output.txt[] in the notes
 * out/../generated/chNN-slug/chNN-slug.txt    the same, as include::{labout}/chNN-slug.txt[]
 * </pre>
 */
public final class SiteBuilder {
    /** The failures of one build, reported together. */
    public static final class SiteException extends RuntimeException {
        public SiteException(String what, List<?> problems) {
            super(what + ":\n  " + String.join("\n  ", problems.stream().map(Object::toString).toList()));
        }
    }

    private static final Pattern IMG = Pattern.compile("<img\\b[^>]*?\\bsrc=\"([^\"]+)\"");
    private static final Pattern LOCAL = Pattern.compile(
            "<(?:img|script|link)\\b[^>]*?\\b(?:src|href)=\"(?!https?:|//|data:|#)([^\"#?]+)");

    private final Path root;
    private final Path out;
    private final Path revealjs;
    private final Path generated;
    private final List<String> warnings = new ArrayList<>();
    private int pages;
    private int figures;

    public SiteBuilder(Path root, Path out, Path revealjs) {
        this.root = root.toAbsolutePath().normalize();
        this.out = out.toAbsolutePath().normalize();
        this.revealjs = revealjs.toAbsolutePath().normalize();
        this.generated = this.out.resolveSibling("generated");
    }

    public static void main(String[] args) {
        Map<String, String> a = Args.parse(args, "--root", "--out", "--revealjs");
        try {
            long start = System.nanoTime();
            SiteBuilder b = new SiteBuilder(Path.of(a.get("--root")), Path.of(a.get("--out")), Path.of(a.get("--revealjs")));
            Path index = b.build();
            System.out.printf("site: %d chapter pages, %d decks, %d figures in %.1f s -> %s%n", b.pages, b.pages,
                    b.figures, (System.nanoTime() - start) / 1e9, index);
        } catch (SiteException e) {
            System.err.println("error: site: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Builds everything; returns the path of {@code index.html}. */
    public Path build() {
        List<Course.ChapterDir> chapters = Course.chapters(root);
        lint(chapters);
        try {
            Files.createDirectories(out);
            for (Course.ChapterDir c : chapters) generate(c);
            Files.createDirectories(generated);
            Files.writeString(generated.resolve("course-map.adoc"), IndexPage.courseMap(chapters));
            render(chapters);
            copyRevealJs();
        } catch (IOException e) {
            throw new SiteException("cannot write the site", List.of(e));
        }
        check(chapters);
        return out.resolve("index.html");
    }

    /** Every .adoc of every chapter (notes, deck, partials they include) obeys NotesLint. */
    private void lint(List<Course.ChapterDir> chapters) {
        List<NotesLint.Problem> problems = new ArrayList<>();
        for (Course.ChapterDir c : chapters) {
            if (!Files.isDirectory(c.docs())) continue;
            try (Stream<Path> s = Files.walk(c.docs())) {
                s.filter(p -> p.toString().endsWith(".adoc")).sorted()
                        .forEach(p -> problems.addAll(NotesLint.check(p, root)));
            } catch (IOException e) {
                throw new SiteException("cannot read " + c.docs(), List.of(e));
            }
        }
        if (!problems.isEmpty()) throw new SiteException("the notes break the site's rules", problems);
    }

    /** Figures and lab output for one chapter, from its code on the classpath. */
    private void generate(Course.ChapterDir c) throws IOException {
        ChapterLab lab = Chapters.all().stream().filter(l -> l.id().equals(c.id())).findFirst().orElse(null);
        if (lab == null) {
            if (c.notes().isPresent()) {
                throw new SiteException(c.id(), List.of("no ChapterLab with this id on the classpath: register it in "
                        + "META-INF/services/vramlab.kit.ChapterLab and add the chapter to cli/pom.xml"));
            }
            return;
        }
        Path dir = out.resolve(c.id()).resolve("figures");
        Files.createDirectories(dir);
        try {
            for (FigureRegistry.Figure f : FigureRegistry.figures(lab).values()) {
                String svg = f.draw();
                Files.writeString(dir.resolve(f.name() + ".svg"), svg);
                Files.writeString(dir.resolve(FigureRegistry.prefixed(c.id(), f.name()) + ".svg"), svg);
                figures++;
            }
        } catch (IllegalStateException e) {
            throw new SiteException(c.id() + ": a figure cannot be drawn", List.of(e.getMessage()));
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            lab.run(ps);
        }
        Path g = generated.resolve(c.id());
        Files.createDirectories(g);
        // Two names for one output: {generated}/lab-output.txt and {labout}/chNN-slug.txt.
        Files.writeString(g.resolve("lab-output.txt"), buf.toString(StandardCharsets.UTF_8));
        Files.writeString(g.resolve(c.id() + ".txt"), buf.toString(StandardCharsets.UTF_8));
    }

    private void render(List<Course.ChapterDir> chapters) {
        try (Asciidoctor asciidoctor = Asciidoctor.Factory.create()) {
            asciidoctor.registerLogHandler(this::log);
            asciidoctor.requireLibrary("asciidoctor-revealjs");
            for (Course.ChapterDir c : chapters) {
                if (c.notes().isEmpty()) continue;
                Path dir = out.resolve(c.id());
                convert(asciidoctor, c.notes().get(), dir.resolve("notes.html"), "html5", generated.resolve(c.id()));
                addNavigation(dir.resolve("notes.html"));
                pages++;
                convert(asciidoctor, c.slides().get(), dir.resolve("slides.html"), "revealjs",
                        generated.resolve(c.id()));
            }
            Path index = root.resolve("site/src/site/index.adoc");
            convert(asciidoctor, index, out.resolve("index.html"), "html5", generated);
        }
        if (!warnings.isEmpty()) throw new SiteException("Asciidoctor warned (a warning fails the site build)", warnings);
    }

    private void convert(Asciidoctor asciidoctor, Path source, Path target, String backend, Path gen) {
        org.asciidoctor.AttributesBuilder attrs = Attributes.builder()
                .attribute("source-highlighter", "rouge")
                .attribute("rouge-style", "github")
                .attribute("webfonts!", "")
                .attribute("icons!", "")
                .attribute("linkcss!", "")
                .attribute("data-uri!", "")
                .attribute("reproducible", "")
                .attribute("attribute-missing", "warn")
                .attribute("generated", gen.toString())
                .attribute("labout", gen.toString())
                .attribute("lab-output", gen.toString());
        if (backend.equals("revealjs")) {
            attrs.attribute("revealjsdir", "../reveal.js")
                 .attribute("revealjs_customtheme", "../reveal.js/deck.css")
                 .attribute("revealjs_width", "1280")
                 .attribute("revealjs_height", "800")
                 .attribute("revealjs_center", "false")
                 .attribute("revealjs_hash", "true")
                 .attribute("revealjs_slideNumber", "true");
        }
        Options options = Options.builder()
                .backend(backend)
                // UNSAFE: includes reach ../../main/java and solutions/; NotesLint keeps them in the repository.
                .safe(SafeMode.UNSAFE)
                .toFile(target.toFile())
                .mkDirs(true)
                .standalone(true)
                .attributes(attrs.build())
                .build();
        asciidoctor.convertFile(source.toFile(), options);
    }

    private void log(LogRecord r) {
        if (r.getSeverity().ordinal() < Severity.WARN.ordinal()) return;
        String where = r.getCursor() == null ? "" : r.getCursor().getFile() + ":" + r.getCursor().getLineNumber() + ": ";
        warnings.add(r.getSeverity() + " " + where + r.getMessage());
    }

    /** A line above a chapter's notes: back to the course map, over to the deck. */
    static void addNavigation(Path notes) {
        try {
            String html = Files.readString(notes);
            int body = html.indexOf("<body");
            int at = body < 0 ? -1 : html.indexOf('>', body) + 1;
            if (at <= 0) throw new SiteException("no <body> in " + notes, List.of());
            String nav = "\n<nav class=\"vramlab-nav\" style=\"max-width:62.5em;margin:0 auto;padding:.5em .9375em 0\">"
                    + "<small><a href=\"../index.html\">&#8592; course map</a> &#183; "
                    + "<a href=\"slides.html\">slides</a></small></nav>";
            Files.writeString(notes, html.substring(0, at) + nav + html.substring(at));
        } catch (IOException e) {
            throw new SiteException("cannot write " + notes, List.of(e));
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

    /** After rendering: nothing remote, every image there, every chapter page with a figure. */
    private void check(List<Course.ChapterDir> chapters) {
        List<Object> problems = new ArrayList<>(OfflineCheck.scanTree(out));
        try (Stream<Path> s = Files.walk(out)) {
            for (Path html : (Iterable<Path>) s.filter(p -> p.toString().endsWith(".html"))::iterator) {
                problems.addAll(missingFiles(html));
            }
        } catch (IOException e) {
            throw new SiteException("cannot read the site", List.of(e));
        }
        for (Course.ChapterDir c : chapters) {
            if (c.notes().isEmpty()) continue;
            Path page = out.resolve(c.id()).resolve("notes.html");
            if (figuresShown(page) == 0) {
                problems.add(page + ": shows no generated figure (add image::figures/<name>.svg[] for a figure"
                        + " method of the chapter)");
            }
        }
        if (!problems.isEmpty()) throw new SiteException("the rendered site is broken", problems);
    }

    /** Every image, script and stylesheet a page names by a local path must be in the site. */
    static List<String> missingFiles(Path html) throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = LOCAL.matcher(Files.readString(html));
        while (m.find()) {
            String src = m.group(1);
            if (!Files.isRegularFile(html.getParent().resolve(src).normalize())) {
                out.add(html + ": not found: " + src + (src.startsWith("figures/") ? " (no public static String "
                        + figureMethod(src) + "() in the chapter's package)" : ""));
            }
        }
        return out;
    }

    /** {@code figures/split-merge.svg} -> {@code figureSplitMerge}, the method that would draw it. */
    static String figureMethod(String src) {
        String name = src.substring("figures/".length()).replaceAll("\\.svg$", "");
        StringBuilder sb = new StringBuilder("figure");
        for (String part : name.split("-")) {
            if (!part.isEmpty()) sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return sb.toString();
    }

    static long figuresShown(Path html) {
        try {
            Matcher m = IMG.matcher(Files.readString(html));
            return m.results().filter(r -> r.group(1).matches("figures/[a-z0-9-]+\\.svg")).count();
        } catch (IOException e) {
            return 0;
        }
    }
}
