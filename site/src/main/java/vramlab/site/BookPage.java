package vramlab.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.site.SiteBuilder.SiteException;

/**
 * Dresses Asciidoctor's pages as a course book, after rendering: the site's stylesheet and
 * typeface ({@code book.css}), a bar with the way home, the deck and the edition, the chapter's
 * number above its title, the course's chapters at the top of the sidebar (above this chapter's
 * sections), and previous/next links at the foot of the page. A deck's title slide gets its
 * chapter number. Nothing here loads anything: every link is a local page.
 */
final class BookPage {
    private static final Pattern TAGS = Pattern.compile("<[^>]+>");
    /** The sidebar Asciidoctor writes for a page with sections ({@code :toc: left}). */
    private static final String TOC = "<div id=\"toc\" class=\"toc2\">";
    private static final Pattern ENTITY = Pattern.compile("&#(\\d+);|&#x([0-9a-fA-F]+);");

    private BookPage() {}

    static void notes(Path page, Course.Entry entry, List<Course.ChapterDir> present, Edition edition) {
        String html = read(page);
        List<Course.Entry> withNotes = withNotes(present);
        int at = withNotes.indexOf(entry);
        Optional<Course.Entry> prev = at > 0 ? Optional.of(withNotes.get(at - 1)) : Optional.empty();
        Optional<Course.Entry> next = at >= 0 && at + 1 < withNotes.size() ? Optional.of(withNotes.get(at + 1))
                : Optional.empty();
        html = head(html, "../", entry.heading() + " \u00b7 vramlab");
        html = insertAfter(html, "<body", ">", bar("../", edition, entry.label() + " of " + Course.map().size()
                + " \u00b7 <a href=\"slides.html\">slides</a>"));
        html = insertAfter(html, "<div id=\"header\">", "", "\n<p class=\"vl-kicker\">" + entry.label() + "</p>");
        if (html.contains(TOC)) html = insertAfter(html, TOC, "", chapters("../", entry, present));
        StringBuilder pager = new StringBuilder("\n<nav class=\"vl-pager\" aria-label=\"Previous and next chapter\">");
        prev.ifPresentOrElse(p -> pager.append(pagerLink("prev", p, "\u2190 ")),
                () -> pager.append("<a rel=\"prev\" href=\"../index.html\"><small>\u2190 back to</small>"
                        + "<span>the course map</span></a>"));
        next.ifPresentOrElse(n -> pager.append(pagerLink("next", n, "")),
                () -> pager.append("<a rel=\"next\" href=\"../index.html\"><small>end of the course</small>"
                        + "<span>the course map</span></a>"));
        pager.append("</nav>\n");
        html = insertBefore(html, "</body>", pager.toString());
        write(page, html);
    }

    private static String pagerLink(String rel, Course.Entry e, String arrow) {
        return "<a rel=\"" + rel + "\" href=\"../" + e.id() + "/notes.html\"><small>" + arrow
                + (rel.equals("prev") ? "previous" : "next") + (rel.equals("next") ? " \u2192" : "")
                + "</small><span>" + escape(e.heading()) + "</span></a>";
    }

    static void index(Path page, Edition edition, List<Course.ChapterDir> present) {
        String html = head(read(page), "", "vramlab: how GPU memory is really managed");
        html = insertAfter(html, "<body", ">", bar("", edition, "the course map").replace("\u2190 vramlab", "vramlab"));
        if (html.contains(TOC)) html = insertAfter(html, TOC, "", chapters("", null, present));
        write(page, html);
    }

    /** The course's chapters as the sidebar lists them, this one marked. */
    private static String chapters(String up, Course.Entry here, List<Course.ChapterDir> present) {
        StringBuilder book = new StringBuilder("\n<nav class=\"vl-book\" aria-label=\"Chapters\">"
                + "<a class=\"vl-home\" href=\"" + up + "index.html\">vramlab</a><ol>");
        for (Course.Entry e : withNotes(present)) {
            book.append(e.equals(here) ? "<li class=\"vl-here\" aria-current=\"page\">" : "<li>")
                .append("<a href=\"").append(up).append(e.id()).append("/notes.html\"><span class=\"vl-n\">")
                .append(e.number()).append("</span> ").append(escape(e.shortTitle())).append("</a></li>");
        }
        return book.append("</ol></nav>").toString();
    }

    private static List<Course.Entry> withNotes(List<Course.ChapterDir> present) {
        return Course.map().stream()
                .filter(e -> present.stream().anyMatch(c -> c.id().equals(e.id()) && c.notes().isPresent())).toList();
    }

    /** A deck: its chapter's number above the title slide's heading, the page's title. */
    static void deck(Path page, Course.Entry entry, Edition edition) {
        String html = read(page);
        html = html.replaceFirst("<title>[^<]*</title>",
                Matcher.quoteReplacement("<title>" + escape(entry.heading()) + " \u00b7 slides</title>"));
        int title = html.indexOf("<section class=\"title\"");
        if (title < 0) throw new SiteException(page + ": no title slide", List.of("start the deck with '= Title'"));
        int h1 = html.indexOf("<h1>", title);
        String kicker = "<p class=\"vl-kicker\">" + entry.label()
                + (edition == Edition.INSTRUCTOR ? " \u00b7 instructor edition" : "") + "</p>";
        html = html.substring(0, h1) + kicker + html.substring(h1);
        write(page, html);
    }

    private static String head(String html, String up, String title) {
        html = html.replaceFirst("<title>[^<]*</title>", Matcher.quoteReplacement("<title>" + escape(title) + "</title>"));
        return insertBefore(html, "</head>", "<link rel=\"stylesheet\" href=\"" + up + "book.css\">\n");
    }

    private static String bar(String up, Edition edition, String where) {
        String ed = edition == Edition.INSTRUCTOR
                ? "<span class=\"vl-edition vl-instructor\">instructor edition: shows the reference solutions</span>"
                : "<span class=\"vl-edition\">student edition</span>";
        return "\n<header class=\"vl-bar\"><a href=\"" + up + "index.html\">\u2190 vramlab</a> \u00b7 " + where
                + " " + ed + "</header>";
    }

    private static String insertAfter(String html, String marker, String closeAfter, String what) {
        int at = html.indexOf(marker);
        if (at < 0) throw new SiteException("cannot dress the page", List.of("no " + marker + " in it"));
        at += marker.length();
        if (!closeAfter.isEmpty()) at = html.indexOf(closeAfter, at) + closeAfter.length();
        return html.substring(0, at) + what + html.substring(at);
    }

    private static String insertBefore(String html, String marker, String what) {
        int at = html.lastIndexOf(marker);
        if (at < 0) throw new SiteException("cannot dress the page", List.of("no " + marker + " in it"));
        return html.substring(0, at) + what + html.substring(at);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** A page's text: scripts, styles and tags removed, entities decoded. */
    static String plainText(String html) {
        String s = html.replaceAll("(?s)<script\\b.*?</script>", " ").replaceAll("(?s)<style\\b.*?</style>", " ");
        s = TAGS.matcher(s).replaceAll("");
        return decode(s);
    }

    static String decode(String s) {
        Matcher m = ENTITY.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            int cp = m.group(1) != null ? Integer.parseInt(m.group(1)) : Integer.parseInt(m.group(2), 16);
            m.appendReplacement(sb, Matcher.quoteReplacement(new String(Character.toChars(cp))));
        }
        m.appendTail(sb);
        return sb.toString().replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&apos;", "'").replace("&nbsp;", "\u00a0").replace("&amp;", "&");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new SiteException("cannot read " + p, List.of(e));
        }
    }

    private static void write(Path p, String html) {
        try {
            Files.writeString(p, html);
        } catch (IOException e) {
            throw new SiteException("cannot write " + p, List.of(e));
        }
    }
}
