package vramlab.playground;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The HTML that puts a playground on a page: a {@code div} the page's script fills in, and the
 * three files it loads, which lie in one folder ({@code playground/} of the site).
 */
public final class Pages {
    /** The files a playground page loads, as the site copies them from this module's classpath. */
    public static final List<String> ASSETS = List.of("vramlab-playground.js", "playground-ui.js", "playground.css");

    private Pages() {}

    /** The file {@code name} of {@link #ASSETS}, or an error that says how to build it. */
    public static byte[] asset(String name) {
        try (InputStream in = Pages.class.getResourceAsStream("web/" + name)) {
            if (in == null) {
                throw new IllegalStateException("vramlab/playground/web/" + name + " is not on the classpath: "
                        + "the browser bundle is built under -Psite (mvn -Psite -pl site -am package)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The playground in a page whose assets are at {@code assets} ({@code ../playground/} from a
     * chapter's notes), with a link to its own page.
     */
    public static String embed(Playground p, String assets) { return embed(p, assets, false); }

    /**
     * The same; {@code student}: the student edition's page, whose bundle leaves the graded steps
     * out and which loads {@link Recorded#FILE} for its preset inputs.
     */
    public static String embed(Playground p, String assets, boolean student) {
        return "<link rel=\"stylesheet\" href=\"" + assets + "playground.css\">\n"
                + "<div class=\"vramlab-playground\" data-chapter=\"" + p.id() + "\">"
                + "<noscript>The playground needs JavaScript; the same replay runs as "
                + "<code>./vramlab replay</code>.</noscript></div>\n"
                + "<p class=\"pg-own-page\"><a href=\"" + assets + p.id() + ".html\">Open the playground "
                + "on its own page</a> (the page's address then holds the trace, policy and card).</p>\n"
                + scripts(assets, student);
    }

    /** The playground alone: {@code playground/chNN-slug.html}, beside its assets. */
    public static String standalone(Playground p, String bookCss) { return standalone(p, bookCss, false); }

    /** The same; {@code student}: as in {@link #embed(Playground, String, boolean)}, and no link to the snapshot page. */
    public static String standalone(Playground p, String bookCss, boolean student) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + escape(p.title()) + "</title>\n"
                + (bookCss.isEmpty() ? "" : "<link rel=\"stylesheet\" href=\"" + bookCss + "\">\n")
                + "<link rel=\"stylesheet\" href=\"playground.css\">\n</head>\n<body class=\"pg-page\">\n"
                + "<main style=\"max-width: 72rem; margin: 1em auto; padding: 0 1em;\">\n"
                + "<div class=\"vramlab-playground\" data-standalone data-chapter=\"" + p.id() + "\"></div>\n"
                + "<p><a href=\"../" + p.id() + "/notes.html\">The chapter's notes</a>"
                + (student ? "" : " · <a href=\"snapshot.html\">Replay a PyTorch snapshot</a>") + "</p>\n</main>\n"
                + scripts("", student) + "</body>\n</html>\n";
    }

    /** {@code playground/snapshot.html}: a dropped snapshot replayed on the page. */
    public static String snapshot(String bookCss) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>Replay a PyTorch memory snapshot</title>\n"
                + (bookCss.isEmpty() ? "" : "<link rel=\"stylesheet\" href=\"" + bookCss + "\">\n")
                + "<link rel=\"stylesheet\" href=\"playground.css\">\n</head>\n<body class=\"pg-page\">\n"
                + "<main style=\"max-width: 72rem; margin: 1em auto; padding: 0 1em;\">\n"
                + "<div class=\"vramlab-playground vramlab-snapshot\"></div>\n"
                + "<p><a href=\"../index.html\">The course</a></p>\n</main>\n"
                + scripts("", false) + "</body>\n</html>\n";
    }

    private static String scripts(String assets, boolean student) {
        return "<script src=\"" + assets + "vramlab-playground.js\"></script>\n"
                + (student ? "<script src=\"" + assets + Recorded.FILE + "\"></script>\n" : "")
                + "<script src=\"" + assets + "playground-ui.js\"></script>\n";
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
