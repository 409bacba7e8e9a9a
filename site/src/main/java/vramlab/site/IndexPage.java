package vramlab.site;

import java.util.List;

/**
 * The course map on the index page, as an AsciiDoc table the index includes: every chapter of
 * the course in order, what it teaches, the commands that run its lab and quiz, and links to
 * its notes and deck where they exist.
 */
final class IndexPage {
    private IndexPage() {}

    static String courseMap(List<Course.ChapterDir> present) {
        StringBuilder sb = new StringBuilder();
        sb.append("[cols=\"1,5,4,1\",options=\"header\"]\n|===\n")
          .append("|Chapter |What it teaches |Try it |Read\n\n");
        for (Course.Entry e : Course.map()) {
            Course.ChapterDir dir = present.stream().filter(c -> c.id().equals(e.id())).findFirst().orElse(null);
            String title = dir == null || dir.notes().isEmpty() ? "*" + escape(e.title()) + "*"
                    : "link:" + e.id() + "/notes.html[*" + escape(e.title()) + "*]";
            sb.append(String.format("|%d%n", e.number()))
              .append('|').append(title).append(" +\n").append(escape(e.teaches())).append('\n')
              .append(dir == null ? "|_not in this kit yet_\n"
                      : "|`./vramlab lab " + e.slug() + "` +\n`./vramlab jshell " + e.slug() + "` +\n"
                        + "`./vramlab quiz " + e.slug() + "`\n")
              .append('|').append(links(e, dir)).append("\n\n");
        }
        return sb.append("|===\n").toString();
    }

    private static String links(Course.Entry e, Course.ChapterDir dir) {
        if (dir == null || dir.notes().isEmpty()) return "_notes not written yet_";
        return "link:" + e.id() + "/notes.html[notes] +\nlink:" + e.id() + "/slides.html[slides]";
    }

    /** Table cells must not open a new cell or format by accident. */
    private static String escape(String s) { return s.replace("|", "{vbar}"); }
}
