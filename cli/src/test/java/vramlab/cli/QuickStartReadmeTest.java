package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.Scenario;
import vramlab.quiz.KitPaths;

/**
 * README's quick start tells a newcomer what {@code ./vramlab lab real-oom} shows. It said "an 8
 * MiB request fails" while the lab's lines say {@code Tried to allocate 20 MiB} and never name the
 * 8 MiB of the failing request, so the reader checked the sentence against the screen and found
 * another number. The sentence now quotes the lab's own words, in backticks; each quote must be
 * in what the command prints first: the lab's fragmentation and expandable-twin scenarios, run
 * here as {@code lab} runs them (the six causes after them take seconds and are not quoted; the
 * lab's listing itself is RealOomLabTest's).
 */
@DisplayName("README's quick start quotes what ./vramlab lab real-oom prints")
class QuickStartReadmeTest {
    @Test
    void eachQuoteIsInTheLabsOutput() throws Exception {
        String readme = Files.readString(KitPaths.root().resolve("README.adoc"));
        int from = readme.indexOf("The first builds the kit");
        int to = readme.indexOf("The second runs every test");
        assertThat(from).as("README's quick start: 'The first builds the kit ...'").isPositive();
        assertThat(to).as("... up to 'The second runs every test'").isGreaterThan(from);
        String sentence = readme.substring(from, to).replaceAll("\\s+", " ");

        List<String> quotes = new ArrayList<>();
        Matcher m = Pattern.compile("`([^`]+)`").matcher(sentence);
        while (m.find()) quotes.add(m.group(1));
        assertThat(quotes).as("the sentence quotes the lab's lines: the holes, the OOM message, the twin's success")
                .anyMatch(q -> q.contains("Tried to allocate"))
                .anyMatch(q -> q.contains("free="))
                .anyMatch(q -> q.startsWith("OK"));

        var bytes = new ByteArrayOutputStream();
        Scenario.runAll(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                LabCommand.find("real-oom", "lab").scenarios().subList(0, 2));
        String lab = bytes.toString(StandardCharsets.UTF_8);
        for (String q : quotes) assertThat(lab).as("README quotes `%s`", q).contains(q);

        // the prose's sizes are the lab's: the card and the request the message is about
        Matcher tried = Pattern.compile("Tried to allocate (\\d+ MiB)").matcher(lab);
        assertThat(tried.find()).isTrue();
        assertThat(sentence).contains("Tried to allocate " + tried.group(1));
        assertThat(lab).contains("(device 40 MiB;").contains("8 MiB alloc");
        assertThat(sentence).contains("40 MiB toy card").contains("a request for 8 MiB");
    }
    /**
     * Maven prints no reason for a skipped test, only a count ({@code Skipped: 4}): a newcomer
     * whose {@code mvn test} skips the real-snapshot tests reads the lines they gave through
     * {@code .ci/skipped-tests}, and the quick start, which once said each skip printed its line,
     * names that script.
     */
    @Test
    void theSkipsLinesAreFoundWhereTheQuickStartSays() throws Exception {
        String readme = Files.readString(KitPaths.root().resolve("README.adoc"));
        int from = readme.indexOf("The second runs every test");
        int to = readme.indexOf("toc::[]", from);
        assertThat(from).as("README's quick start: 'The second runs every test ...'").isPositive();
        String sentence = readme.substring(from, to).replaceAll("\\s+", " ");
        assertThat(sentence).contains("`.ci/skipped-tests`").contains("-Dvramlab.realSnapshots.dir=DIR")
                .doesNotContain("skip, each with one line");
        assertThat(KitPaths.root().resolve(".ci/skipped-tests")).isRegularFile().isExecutable();
        assertThat(vramlab.kit.RealSnapshotsFolder.MISSING).contains("-Dvramlab.realSnapshots.dir=DIR");
    }
}
