package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 21: JSON goes through Jackson, CSV through Commons CSV, command lines through picocli.
 * This reads the kit's main sources (not labs/, which is generated from solutions/) for the
 * marks a hand-written codec or option parser leaves. Two files are let off, each saying why
 * where {@link #mainSources} skips it.
 */
@DisplayName("no hand-written JSON, CSV or argument parser remains")
class NoHandWrittenCodecsTest {
    static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();

    static List<Path> mainSources() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> all = Files.walk(ROOT)) {
            all.filter(p -> p.toString().endsWith(".java"))
               .filter(p -> p.toString().contains("/src/main/java/"))
               .filter(p -> !ROOT.relativize(p).startsWith("labs"))
               .filter(p -> !p.toString().contains("/target/"))
               // The one exception: the browser bundle cannot carry Jackson (databind needs
               // reflection TeaVM does not give), so the playground writes its page messages by
               // hand; JsonTextTest reads them back with Jackson.
               .filter(p -> !ROOT.relativize(p).equals(Path.of("playground/src/main/java/vramlab/playground/JsonText.java")))
               // And AsciiDoc's attribute lists (an include's tags="a,b"), which no JSON, CSV or
               // option library reads: AttributeList is a port of Asciidoctor's own scanner, for
               // the release and the lints, which do not carry AsciidoctorJ's JRuby;
               // IncludeTagsAsciidoctorTest holds it to real Asciidoctor, case by case.
               .filter(p -> !ROOT.relativize(p).equals(Path.of("toolkit/src/main/java/vramlab/kit/AttributeList.java")))
               .forEach(out::add);
        }
        return out;
    }

    @Test
    @DisplayName("the kit's main sources are found at all (so the checks below read something)")
    void found() throws IOException {
        assertThat(mainSources()).hasSizeGreaterThan(100)
                .anySatisfy(p -> assertThat(p).endsWith(Path.of("cli/src/main/java/vramlab/cli/Main.java")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', quoteCharacter = '~', textBlock = """
            a CSV quote doubled by hand                # \\.replace\\("\\\\"", "\\\\"\\\\""\\)
            a JSON unicode escape formatted by hand    # \\\\\\\\u%04x
            a character-by-character quote scanner     # (charAt\\([^)]*\\)|\\bc) [!=]= '"'
            a loop over args looking for --options     # args(\\[i\\]|\\.get\\(i\\))\\.startsWith\\("--"\\)
            the old option parser                      # Args\\.parse\\(
            """)
    @DisplayName("no main source shows the mark of")
    void noMark(String what, String regex) throws IOException {
        Pattern p = Pattern.compile(regex);
        List<String> hits = new ArrayList<>();
        for (Path f : mainSources()) {
            String text = Files.readString(f, StandardCharsets.UTF_8);
            if (p.matcher(text).find()) hits.add(ROOT.relativize(f).toString());
        }
        assertThat(hits).as(what).isEmpty();
    }

    @Test
    @DisplayName("no Args class; every Json class is a front for Jackson")
    void namedFiles() throws IOException {
        for (Path f : mainSources()) {
            String name = f.getFileName().toString();
            assertThat(name).as(ROOT.relativize(f).toString()).isNotEqualTo("Args.java");
            if (name.equals("Json.java")) {
                assertThat(Files.readString(f)).as(f.toString()).contains("import com.fasterxml.jackson.");
            }
        }
    }

    @Test
    @DisplayName("every launcher command is a picocli command")
    void picocli() {
        assertThat(Main.commands().values()).allSatisfy(c ->
                assertThat(c.getClass().isAnnotationPresent(picocli.CommandLine.Command.class))
                        .as(c.getClass().getSimpleName()).isTrue());
    }
}
