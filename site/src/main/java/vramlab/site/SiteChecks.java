package vramlab.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import vramlab.site.SiteBuilder.SiteException;

/** What must hold of the rendered site before the build calls it done. */
final class SiteChecks {
    private static final Pattern IMG = Pattern.compile("<img\\b[^>]*?\\bsrc=\"([^\"]+)\"");
    private static final Pattern LOCAL = Pattern.compile(
            "<(?:img|script|link)\\b[^>]*?\\b(?:src|href)=\"(?!https?:|//|data:|#)([^\"#?]+)");

    private SiteChecks() {}

    /**
     * After rendering: nothing remote, every image there, every chapter page with a figure, every
     * quiz question's reread anchor an id of its chapter's page ({@link QuizAnchors}).
     */
    static void check(Path out, List<Course.ChapterDir> chapters, boolean notes) {
        List<Object> problems = new ArrayList<>(OfflineCheck.scanTree(out));
        try (Stream<Path> s = Files.walk(out)) {
            for (Path html : (Iterable<Path>) s.filter(p -> p.toString().endsWith(".html"))::iterator) {
                problems.addAll(missingFiles(html));
            }
        } catch (IOException e) {
            throw new SiteException("cannot read the site", List.of(e));
        }
        if (notes) {
            try {
                problems.addAll(QuizAnchors.missing(out, chapters));
            } catch (IOException e) {
                throw new SiteException("cannot read the site", List.of(e));
            }
        }
        for (Course.ChapterDir c : chapters) {
            if (!notes || c.notes().isEmpty()) continue;
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
