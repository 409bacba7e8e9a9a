package vramlab.site;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The pages this build rendered, for the tests that read them. Those tests run under
 * {@code -Psite} only (plain {@code mvn test} skips each with a message: rendering takes JRuby),
 * and there they never read an older render: the site build writes its stamp into the marker
 * file and Maven hands the same stamp to the tests; a folder without this build's stamp fails
 * the test, it is not skipped.
 */
final class Rendered {
    private Rendered() {}

    /** The folder of one edition's site, rendered by this build; skips outside -Psite. */
    static Path site(Edition edition) {
        assumeTrue(Boolean.getBoolean("vramlab.site.render"),
                "skipped: the rendered site is checked under -Psite (mvn -Psite -pl site -am verify)");
        String stamp = System.getProperty("vramlab.site.stamp", "");
        String editions = System.getProperty("vramlab.site.edition", "both");
        if (!editions.equals("both") && !editions.equals(edition.id())) {
            fail("this build rendered only the " + editions + " edition (-Dvramlab.site.edition=" + editions
                    + "); the " + edition.id() + " edition's checks need -Dvramlab.site.edition=both");
        }
        Path dir = Repo.root().resolve("site/target").resolve(edition.folder());
        Path marker = dir.resolve(SiteBuilder.MARKER);
        String text;
        try {
            text = Files.readString(marker);
        } catch (IOException e) {
            fail("no rendered " + edition.id() + " edition at " + dir + " (" + e + ")");
            return dir;
        }
        if (stamp.isEmpty() || !text.contains("stamp=" + stamp + "\n")) {
            fail(dir + " was not rendered by this build (its marker says " + text.replace("\n", " ").trim()
                    + "; this build's stamp is " + stamp + ")");
        }
        return dir;
    }

    /** Every page of a rendered site: notes, decks, index. */
    static List<Path> pages(Path site) throws IOException {
        try (Stream<Path> s = Files.walk(site)) {
            return s.filter(p -> p.toString().endsWith(".html")).filter(p -> !p.toString().contains("/reveal.js/"))
                    .sorted().toList();
        }
    }

    /** The text of every {@code <pre>} of a page (listings), tags stripped, entities decoded. */
    static String listings(String html) {
        StringBuilder sb = new StringBuilder();
        var m = java.util.regex.Pattern.compile("(?s)<pre\\b[^>]*>(.*?)</pre>").matcher(html);
        while (m.find()) sb.append(BookPage.plainText(m.group(1))).append('\n');
        return sb.toString();
    }
}
