package vramlab.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Attributes;
import org.asciidoctor.AttributesBuilder;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import org.asciidoctor.log.LogRecord;
import org.asciidoctor.log.Severity;

import vramlab.kit.NotesSource;
import vramlab.kit.Citations;
import vramlab.site.SiteBuilder.SiteException;

/**
 * Asciidoctor's part of the site, for one edition: every chapter's notes (html5) and deck
 * (reveal.js), and the index, in one JRuby instance. Every document first goes through
 * {@link NotesSource} (literal code spans, linked citations); includes go through
 * {@link ListingIncludes} (listings per edition). Code is highlighted by Rouge at build time;
 * Asciidoctor's stylesheet is embedded and the site's {@code book.css} linked; web fonts, font
 * icons and data URIs are off. Every log record of WARN or worse is collected, and any at all
 * fails the build. The pages are then dressed as a book by {@link BookPage}.
 */
final class Renderer {
    private final Path root;
    private final Path out;
    private final Path generated;
    private final Edition edition;
    private final GradedSteps steps;
    private final Map<String, Citations.Source> sources;
    private final List<String> warnings = new ArrayList<>();
    private String current = "";

    Renderer(Path root, Path out, Path generated, Edition edition, Map<String, Citations.Source> sources) {
        this.root = root;
        this.out = out;
        this.generated = generated;
        this.edition = edition;
        this.steps = GradedSteps.of(root);
        this.sources = sources;
    }

    /** Renders notes, decks and index; returns how many chapter pages it wrote. */
    int render(List<Course.ChapterDir> chapters, boolean notes, boolean index) {
        int pages = 0;
        try (Asciidoctor asciidoctor = Asciidoctor.Factory.create()) {
            asciidoctor.registerLogHandler(this::log);
            asciidoctor.requireLibrary("asciidoctor-revealjs");
            asciidoctor.javaExtensionRegistry().includeProcessor(new ListingIncludes(edition, steps, sources, warnings));
            for (Course.ChapterDir c : chapters) {
                Course.Entry entry = Course.entry(c.id()).orElseThrow(
                        () -> new SiteException(c.id(), List.of("not on the course map (course.tsv)")));
                Path dir = out.resolve(c.id());
                if (notes && c.notes().isPresent()) {
                    Path page = dir.resolve("notes.html");
                    convert(asciidoctor, c.notes().get(), page, "html5", generated.resolve(c.id()), "../");
                    BookPage.notes(page, entry, chapters, edition);
                    pages++;
                }
                if (c.slides().isPresent()) {
                    Path deck = dir.resolve("slides.html");
                    convert(asciidoctor, c.slides().get(), deck, "revealjs", generated.resolve(c.id()), "../");
                    BookPage.deck(deck, entry, edition);
                }
            }
            if (index) {
                Path page = out.resolve("index.html");
                convert(asciidoctor, root.resolve("site/src/site/index.adoc"), page, "html5", generated, "");
                BookPage.index(page, edition, chapters);
            }
        }
        if (!warnings.isEmpty()) throw new SiteException("Asciidoctor warned (a warning fails the site build)", warnings);
        return pages;
    }

    private void convert(Asciidoctor asciidoctor, Path source, Path target, String backend, Path gen, String up) {
        current = root.relativize(source).toString();
        AttributesBuilder attrs = Attributes.builder()
                .attribute("source-highlighter", "rouge")
                .attribute("rouge-style", "github")
                .attribute("source-language", "java")
                .attribute("webfonts!", "")
                .attribute("icons!", "")
                .attribute("linkcss!", "")
                .attribute("data-uri!", "")
                .attribute("reproducible", "")
                .attribute("nofooter", "")
                .attribute("table-caption!", "")
                .attribute("attribute-missing", "warn")
                .attribute("vramlab-edition", edition.id())
                .attribute("generated", gen.toString())
                .attribute("labout", gen.toString())
                .attribute("lab-output", gen.toString());
        for (Course.Entry e : Course.map()) {
            // {link-ch04}: "Chapter 4", linked to its notes, its title in the link's tooltip.
            attrs.attribute(String.format("link-ch%02d", e.number()), "link:" + up + e.id() + "/notes.html["
                    + e.label() + ",title=\"" + e.heading().replace("\"", "'") + "\"]");
        }
        if (backend.equals("revealjs")) {
            attrs.attribute("revealjsdir", "../reveal.js")
                 .attribute("revealjs_customtheme", "../reveal.js/deck.css")
                 .attribute("revealjs_width", "1280")
                 .attribute("revealjs_height", "720")
                 .attribute("revealjs_margin", "0.04")
                 .attribute("revealjs_center", "true")          // a short slide sits mid-frame, not at the top
                 .attribute("revealjs_hash", "true")
                 .attribute("revealjs_slideNumber", "c/t")
                 .attribute("revealjs_transition", "none")
                 .attribute("revealjs_plugin_search", "enabled")
                 .attribute("revealjs_plugin_zoom", "enabled")
                 .attribute("revealjs_plugin_notes", "enabled")
                 .attribute("source-highlighter", "rouge");
        } else {
            attrs.attribute("toc", "left")
                 .attribute("toclevels", "2")
                 .attribute("toc-title", source.getFileName().toString().equals("index.adoc") ? "On this page"
                         : "In this chapter")
                 .attribute("sectanchors", "");
        }
        String text;
        try {
            text = NotesSource.prepare(Files.readString(source), sources, source.toString());
        } catch (IOException | IllegalArgumentException e) {
            throw new SiteException("cannot read " + source, List.of(e.getMessage()));
        }
        Options options = Options.builder()
                .backend(backend)
                // UNSAFE: includes reach ../../main/java and solutions/; NotesLint keeps them in the repository.
                .safe(SafeMode.UNSAFE)
                .baseDir(source.getParent().toFile())
                .toFile(target.toFile())
                .mkDirs(true)
                .standalone(true)
                .attributes(attrs.build())
                .build();
        asciidoctor.convert(text, options);
    }

    private void log(LogRecord r) {
        if (r.getSeverity().ordinal() < Severity.WARN.ordinal()) return;
        String file = r.getCursor() == null || r.getCursor().getFile() == null ? current : r.getCursor().getFile();
        String where = r.getCursor() == null ? current + ": " : file + ":" + r.getCursor().getLineNumber() + ": ";
        warnings.add(r.getSeverity() + " " + where + r.getMessage());
    }

    /** The text of a rendered page, for tests: tags stripped, entities decoded. */
    static String text(Path page) throws IOException {
        return BookPage.plainText(Files.readString(page));
    }
}
