package vramlab.playground;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The student edition's note says what its page has: a lab-only page (chapters 1, 2, 6, 7: a
 * "Run the lab" button and nothing to type in) never talks of a preset trace, policies or a trace
 * of your own, which only a trace page has. Read from the page's script, where the notes are.
 */
@DisplayName("The student edition's note on a playground page")
class RecordedNoteTest {
    static String js() throws IOException {
        try (InputStream in = RecordedNoteTest.class.getResourceAsStream("/vramlab/playground/web/playground-ui.js")) {
            assertThat(in).as("playground-ui.js on the class path").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The body of the script's function {@code name}, to the next top-level function. */
    static String function(String js, String name) {
        int at = js.indexOf("  function " + name + "(");
        assertThat(at).as("function " + name).isNotNegative();
        int next = js.indexOf("\n  function ", at + 1);
        return js.substring(at, next < 0 ? js.length() : next);
    }

    /** The text of the note variable {@code name}: its string literals joined, with the variables it starts from. */
    static String note(String js, String name) {
        Matcher m = Pattern.compile("var " + name + " = ((?:\"(?:[^\"\\\\]|\\\\.)*\"|[^;\"])*);").matcher(js);
        assertThat(m.find()).as("var " + name).isTrue();
        StringBuilder sb = new StringBuilder();
        Matcher part = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"|\\b([A-Z_]+)\\b").matcher(m.group(1));
        while (part.find()) sb.append(part.group(1) != null ? part.group(1) : note(js, part.group(2)));
        return sb.toString();
    }

    @Test
    @DisplayName("a lab-only page's note names its Run the lab button, never a trace or a policy")
    void labOnlySaysWhatIsThere() throws IOException {
        String js = js();
        String labOnly = function(js, "labOnly");
        Matcher used = Pattern.compile("\"pg-recorded-note\", ([A-Z_]+) \\+").matcher(labOnly);
        assertThat(used.find()).as("labOnly's note").isTrue();
        String text = note(js, used.group(1));
        assertThat(text).contains("Run the lab", "recorded from the reference").doesNotContainIgnoringCase("trace")
                .doesNotContainIgnoringCase("policy");
        assertThat(note(js, "RECORDED_NOTE")).contains("The preset trace", "a trace of your own");
    }

    @Test
    @DisplayName("a lab-only page's title holds in the student edition too, where its lab is a recording")
    void labOnlyTitleClaimsNothingLive() {
        for (Playground p : Playground.all()) {
            if (p.hasTrace()) continue;
            assertThat(p.title()).as(p.id()).doesNotContainIgnoringCase("live").doesNotContain(" runs ")
                    .doesNotContain(" run ").contains("in your browser");
        }
    }
}
