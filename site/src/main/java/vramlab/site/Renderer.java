package vramlab.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Attributes;
import org.asciidoctor.AttributesBuilder;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import org.asciidoctor.log.LogRecord;
import org.asciidoctor.log.Severity;

import vramlab.site.SiteBuilder.SiteException;

/**
 * Asciidoctor's part of the site: every chapter's notes (html5) and deck (reveal.js), and the
 * index, in one JRuby instance. Code is highlighted by Rouge at build time; the stylesheet is
 * embedded; web fonts, font icons and data URIs are off. Every log record of WARN or worse is
 * collected, and any at all fails the build.
 */
final class Renderer {
    private final Path root;
    private final Path out;
    private final Path generated;
    private final List<String> warnings = new ArrayList<>();

    Renderer(Path root, Path out, Path generated) {
        this.root = root;
        this.out = out;
        this.generated = generated;
    }

    /** Renders everything; returns how many chapter pages it wrote. */
    int render(List<Course.ChapterDir> chapters) {
        int pages = 0;
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
        return pages;
    }

    private void convert(Asciidoctor asciidoctor, Path source, Path target, String backend, Path gen) {
        AttributesBuilder attrs = Attributes.builder()
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
}
