package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every chapter opens with its crux, the one question it answers, before its first section, and
 * closes with a summary of 5 to 8 points as its last section; and no chapter keeps the changelog
 * prose ("If you learned ... An earlier version") that belongs in instructor/errata.adoc.
 */
@DisplayName("Every chapter's notes open with a crux and close with a summary")
class CruxAndSummaryTest {
    private static final Pattern CRUX = Pattern.compile("(?s)\\[\\.crux]\\s*\\n\\*The crux:\\*\\s+([^\\n].*?\\?)\\s*\\n\\s*\\n");
    private static final Pattern SECTION = Pattern.compile("(?m)^== (.+)$");

    /** What keeps {@code notes} from the shape; empty when it has it. */
    static List<String> problems(String notes) {
        List<String> out = new java.util.ArrayList<>();
        Matcher first = SECTION.matcher(notes);
        int firstSection = first.find() ? first.start() : notes.length();
        Matcher crux = CRUX.matcher(notes);
        if (!crux.find() || crux.start() > firstSection) {
            out.add("no '[.crux]' paragraph '*The crux:* ...?' (one question) before the first section");
        }
        Matcher m = SECTION.matcher(notes);
        String last = null;
        int lastAt = -1;
        while (m.find()) {
            last = m.group(1).strip();
            lastAt = m.end();
        }
        if (!"Summary".equals(last)) {
            out.add("the last section is '" + last + "', not '== Summary'");
        } else {
            long points = notes.substring(lastAt).lines().filter(l -> l.startsWith("* ")).count();
            if (points < 5 || points > 8) out.add("the summary has " + points + " points, not 5 to 8");
        }
        if (notes.contains("An earlier version of this")) {
            out.add("changelog prose ('An earlier version of this ...'): it goes in instructor/errata.adoc");
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> chapters() {
        return Course.chapters(Repo.root()).stream().filter(c -> c.notes().isPresent())
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    StringBuilder all = new StringBuilder(Files.readString(c.notes().get()));
                    try (Stream<java.nio.file.Path> parts = Files.list(c.docs())) {
                        for (var p : parts.filter(p -> p.toString().endsWith(".adoc"))
                                .filter(p -> !p.equals(c.notes().get())).toList()) {
                            if (Files.readString(p).contains("An earlier version of this")) {
                                all.append("\nAn earlier version of this (in ").append(p.getFileName()).append(")");
                            }
                        }
                    }
                    assertThat(problems(all.toString())).as(c.id()).isEmpty();
                }));
    }

    @Test
    @DisplayName("the check fails a chapter without a crux, with a summary too long, with changelog prose")
    void checkCanFail() {
        String good = "= T\n\n[.crux]\n*The crux:* Why?\n\n== A\n\ntext\n\n== Summary\n\n* 1\n* 2\n* 3\n* 4\n* 5\n";
        assertThat(problems(good)).isEmpty();
        assertThat(problems(good.replace("[.crux]\n*The crux:* Why?\n\n", ""))).hasSize(1);
        assertThat(problems(good + "* 6\n* 7\n* 8\n* 9\n")).hasSize(1);
        assertThat(problems(good.replace("== Summary", "== Connections"))).hasSize(1);
        assertThat(problems(good.replace("text", "An earlier version of this chapter said so."))).hasSize(1);
    }
}
