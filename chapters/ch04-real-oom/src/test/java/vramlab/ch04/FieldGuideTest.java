package vramlab.ch04;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;
import vramlab.quiz.Question;

/**
 * Chapter 4 is one arc, ending at its summary, and the triage is a field guide after it: an
 * appendix with its own crux, quiz and summary. Its quiz names questions that stay on the
 * chapter's answer sheet under their ids, so moving the guide cost no sheet a point.
 */
@DisplayName("Chapter 4 ends at its summary; the triage is an appendix with its own crux, quiz and summary")
class FieldGuideTest {
    static final Path DOCS = KitPaths.root().resolve("chapters/ch04-real-oom/src/docs/asciidoc");

    static String read(String name) throws IOException { return Files.readString(DOCS.resolve(name)); }

    /** The text from {@code heading} (a whole line) to the next heading of the same level or higher. */
    static String section(String text, String heading) {
        int at = text.indexOf("\n" + heading + "\n");
        assertThat(at).as(heading).isNotNegative();
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        Matcher next = Pattern.compile("(?m)^={2," + (level.length() - 1) + "} ").matcher(text);
        int end = next.find(at + heading.length() + 2) ? next.start() : text.length();
        return text.substring(at, end);
    }

    @Test
    @DisplayName("the chapter includes the guide once, after its summary, and no section of its own follows")
    void chapterEndsAtItsSummary() throws IOException {
        String ch = read("ch04-real-oom.adoc");
        assertThat(ch.split("include::triage.adoc\\[]", -1)).as("included once").hasSize(2);
        String after = ch.substring(ch.indexOf("\n== Summary\n"));
        assertThat(after).contains("include::triage.adoc[]");
        assertThat(after.substring(after.indexOf("include::triage.adoc[]"))).doesNotContainPattern("(?m)^== ");
    }

    @Test
    @DisplayName("the guide is an appendix with a crux before its first subsection and a summary of 5 to 8 points last")
    void guideHasItsOwnCruxAndSummary() throws IOException {
        String g = read("triage.adoc");
        assertThat(g).containsPattern("(?m)^\\[appendix]\\n== Field guide: ");
        assertThat(g.indexOf("*The crux:*")).isPositive().isLessThan(g.indexOf("\n=== "));
        String last = g.substring(g.lastIndexOf("\n=== "));
        assertThat(last).startsWith("\n=== Summary\n");
        assertThat(last.lines().filter(l -> l.startsWith("* ")).count()).isBetween(5L, 8L);
        assertThat(g).doesNotContain("=== The 30-second version", "=== Connections");
    }

    @Test
    @DisplayName("the guide's quiz names registered chapter 4 questions, and the chapter's quiz points to them")
    void guideQuizKeepsTheIds() throws IOException {
        List<String> registered = StreamSupport.stream(ServiceLoader.load(Question.class).spliterator(), false)
                .filter(q -> q.chapter().equals("ch04")).map(Question::id).toList();
        TreeSet<String> named = new TreeSet<>();
        Matcher m = Pattern.compile("\\bq4\\.\\d+\\b").matcher(section(read("triage.adoc"), "=== Quiz"));
        while (m.find()) named.add(m.group());
        assertThat(named).containsExactly("q4.4", "q4.6");
        assertThat(registered).containsAll(named);
        String chapterQuiz = section(read("ch04-real-oom.adoc"), "== Quiz");
        for (String id : named) assertThat(chapterQuiz).contains(id);
    }
}
