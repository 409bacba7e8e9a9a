package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;

/**
 * Each chapter's JShell help() lists what to try, the chapter's steps with how to check them,
 * and every lab scenario's snippet file; and the snippet files replay, one after another in the
 * same session, on the reference, with no compile error and no exception but those their lines
 * announce ({@code // throws: ...}).
 */
@DisplayName("JShell: help() and the scenario files")
class JshellHelpAndSnippetsTest {

    static List<Path> files(int chapter) throws IOException {
        Path dir;
        try (Stream<Path> s = Files.list(KitPaths.root().resolve("chapters"))) {
            dir = s.filter(p -> p.getFileName().toString().startsWith(String.format("ch%02d-", chapter)))
                    .findFirst().orElseThrow().resolve("src/main/jshell/snippets");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".jsh")).sorted().toList();
        }
    }

    @ParameterizedTest(name = "chapter {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    @DisplayName("help() names every step, how to check it and each scenario file; each file replays with /open")
    void helpAndSnippets(int chapter) throws IOException {
        List<Path> files = files(chapter);
        assertThat(files).isNotEmpty();
        StringBuilder input = new StringBuilder("help()\n");
        long announced = 0;
        for (Path f : files) {
            String text = Files.readString(f);
            assertThat(text).as(f.getFileName() + " opens with a // line saying what it shows").startsWith("// ");
            announced += text.lines().filter(l -> l.contains("// throws")).count();
            input.append("/open ").append(f).append('\n');
        }
        CliRun r = CliRun.withInput(input.toString(), "jshell", Integer.toString(chapter), "--reference");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        String help = r.out().substring(0, r.out().indexOf("The lab's scenarios") + 1);
        for (LabGenerator.Step s : LabGenerator.steps(KitPaths.root().resolve("solutions"))) {
            if (s.id().startsWith(chapter + ".")) assertThat(help).as("help()").contains(s.id() + " " + s.title());
        }
        assertThat(help).contains("./vramlab check " + chapter + ".1").containsPattern("\\./vramlab check " + chapter + "\\s");
        // the quiz as the README and the notes have a student check it: the sheet in labs/answers/, --check
        assertThat(help).as("help() says how to check the quiz").containsPattern(
                "\\./vramlab quiz \\S+ --check labs/answers/ch0" + chapter + "\\.txt");
        for (Path f : files) assertThat(r.out()).contains("/open ").contains(f.getFileName().toString());
        long thrown = r.out().lines().filter(l -> l.startsWith("|  Exception")).count();
        assertThat(thrown).as("exceptions, against the // throws lines:\n" + r.out()).isEqualTo(announced);
        assertThat(r.out()).doesNotContain("Todo").doesNotContainPattern("[A-Za-z]@[0-9a-f]{6,}\\b")
                .doesNotContainPattern(NoSeedTest.BANNED);
    }
}
