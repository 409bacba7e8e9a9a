package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The notes include only tagged regions that exist, so the site build cannot miss one. */
class NotesTest {
    static final Path ADOC_DIR = Path.of("src/docs/asciidoc");

    @Test
    @DisplayName("every include:: of the notes names an existing file and a tag it defines")
    void includesResolve() throws Exception {
        String adoc = Files.readString(ADOC_DIR.resolve("ch06-buddy.adoc"));
        Map<String, String> attrs = new HashMap<>();
        Matcher a = Pattern.compile("(?m)^:([\\w-]+): (.+)$").matcher(adoc);
        while (a.find()) attrs.put(a.group(1), a.group(2).trim());
        Matcher inc = Pattern.compile("include::\\{(\\w+)}/([^\\[]+)\\[tag=([\\w-]+)]").matcher(adoc);
        int count = 0;
        while (inc.find()) {
            Path file = ADOC_DIR.resolve(attrs.get(inc.group(1))).resolve(inc.group(2)).normalize();
            assertThat(file).as(inc.group()).exists();
            String src = Files.readString(file);
            assertThat(src).as(inc.group()).contains("// tag::" + inc.group(3) + "[]")
                    .contains("// end::" + inc.group(3) + "[]");
            count++;
        }
        assertThat(count).isGreaterThanOrEqualTo(20);
    }

    @Test
    @DisplayName("the notes have every section of a chapter")
    void sections() throws Exception {
        String adoc = Files.readString(ADOC_DIR.resolve("ch06-buddy.adoc"));
        for (String s : new String[] {"The 30-second version", "The picture", "The mechanism", "Run it",
                "What insiders know", "Where the toy simplifies", "Your turn", "Quiz", "Connections"}) {
            assertThat(adoc).contains("== " + s);
        }
    }
}
