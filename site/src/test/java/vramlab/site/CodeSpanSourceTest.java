package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Code spans that Asciidoctor (2.0.23, and GitHub's, which renders the READMEs) does not render
 * as written, found in the source of every AsciiDoc file of the kit: READMEs and HACKING as well
 * as the notes and decks, which {@code RenderedSiteTest} checks once rendered under
 * {@code -Psite}. A constrained span (one backtick) closes only before a character that is not a
 * letter or digit, and {@code `'} is read as a curved apostrophe, so {@code `replay`'s} and
 * {@code `TODO`s} leave the span open until the next backtick of the paragraph; a span may not
 * begin or end with a space; and inside one, an apostrophe between letters ({@code can't}) is
 * curved too. Write {@code ``replay``'s}, {@code `++= ++`} or {@code `+can't+`} instead.
 */
@DisplayName("code spans in the kit's AsciiDoc render as written")
class CodeSpanSourceTest {
    private static final Pattern CURL = Pattern.compile("\\w'\\w");
    private static final Pattern DELIMITER = Pattern.compile("^(----|\\.\\.\\.\\.|\\+\\+\\+\\+|////|```)\\s*$");

    @Test
    @DisplayName("every tracked .adoc: no span left open by `X`'s or `X`s, none ending in a space, no curled apostrophe inside")
    void spansAsWritten() throws IOException {
        Path root = Repo.root();
        List<String> problems = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".adoc"))
                    .filter(p -> {
                        String rel = root.relativize(p).toString().replace('\\', '/');
                        return !rel.startsWith(".") && !rel.contains("/target/") && !rel.startsWith("target/")
                                && !rel.contains("/node_modules/");
                    })
                    .sorted().toList();
        }
        assertThat(files).as("the kit's AsciiDoc files").extracting(p -> root.relativize(p).toString().replace('\\', '/'))
                .contains("README.adoc", "HACKING.adoc");
        for (Path f : files) problems.addAll(problems(root.relativize(f).toString(), Files.readAllLines(f)));
        assertThat(problems).isEmpty();
    }

    @Test
    @DisplayName("the check finds each pitfall, and passes the ways around it")
    void findsEachPitfall() {
        assertThat(problems("a.adoc", List.of("as `replay`'s `--x` does"))).hasSize(1).first().asString()
                .startsWith("a.adoc:1: ").contains("`replay`'");
        assertThat(problems("a.adoc", List.of("its `TODO`s are"))).hasSize(1);
        assertThat(problems("a.adoc", List.of("first line is `= ` and"))).hasSize(1);
        assertThat(problems("a.adoc", List.of("`DefaultCPUAllocator: can't allocate", "  memory` (host RAM)"))).hasSize(1);
        assertThat(problems("a.adoc", List.of(
                "as ``replay``'s `--x` does, its ``TODO``s, `++= ++` and `+can't+`, `a`, `b`.",
                "`'a'` and `x.y()`.",
                "----", "echo `date`'s", "----"))).isEmpty();
    }

    /** Problems in {@code lines} of {@code file}, outside delimited blocks, paragraph by paragraph. */
    static List<String> problems(String file, List<String> lines) {
        List<String> out = new ArrayList<>();
        String open = null;
        StringBuilder para = new StringBuilder();
        int start = 0;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : "";
            Matcher d = DELIMITER.matcher(line);
            if (open != null) {
                if (d.matches() && d.group(1).equals(open)) open = null;
                continue;
            }
            if (d.matches() || line.isBlank() || line.startsWith("//")) {
                check(file, start, para.toString(), out);
                para.setLength(0);
                if (d.matches()) open = d.group(1);
                continue;
            }
            if (para.length() == 0) start = i + 1;
            para.append(line).append('\n');
        }
        return out;
    }

    /**
     * Pairs the paragraph's backticks as a writer means them, left to right (a {@code ``...``}
     * span whole, an escaped backtick skipped), and checks each one-backtick span.
     */
    private static void check(String file, int firstLine, String para, List<String> out) {
        int i = 0;
        while (i < para.length()) {
            if (para.startsWith("``", i)) {                          // unconstrained: closes anywhere
                int close = para.indexOf("``", i + 2);
                i = close < 0 ? para.length() : close + 2;
                continue;
            }
            if (para.charAt(i) != '`' || i > 0 && para.charAt(i - 1) == '\\') {
                i++;
                continue;
            }
            int close = para.indexOf('`', i + 1);
            if (close < 0) break;
            String span = para.substring(i + 1, close);
            char after = close + 1 < para.length() ? para.charAt(close + 1) : ' ';
            String what = null;
            if (Character.isLetterOrDigit(after) || after == '\'') {
                what = "a code span followed by a letter or ' is not closed there (write ``X``'s)";
            } else if (!span.isEmpty() && (Character.isWhitespace(span.charAt(0)) || Character.isWhitespace(span.charAt(span.length() - 1)))) {
                what = "a code span may not begin or end with a space (write `++X ++`)";
            } else if (!span.startsWith("+") && CURL.matcher(span).find()) {
                what = "an apostrophe between letters in a code span is curled (write `+X+`)";
            }
            if (what != null) {
                int line = firstLine + (int) para.substring(0, i).chars().filter(c -> c == '\n').count();
                out.add(file + ":" + line + ": " + para.substring(i, Math.min(para.length(), close + 3)).replace('\n', ' ')
                        + ": " + what);
            }
            i = close + 1;
        }
    }
}
