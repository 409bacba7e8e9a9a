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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.kit.FigureRegistry;

/**
 * The real chapters' notes, checked in plain {@code mvn test}: listings are includes of tested
 * source, every include and tag exists, every picture is a figure the chapter's code draws.
 */
@DisplayName("Every chapter's notes")
class ChapterNotesTest {
    private static final Pattern IMAGE = Pattern.compile("image::?figures/([a-z0-9-]+)\\.svg\\[");

    @TestFactory
    @DisplayName("obey the notes lint (no pasted listing, every include and tag exists)")
    Stream<DynamicTest> lint() throws IOException {
        Path root = Repo.root();
        try (Stream<Path> files = Files.walk(root.resolve("chapters"))) {
            List<Path> adocs = files.filter(p -> p.toString().replace('\\', '/').contains("/src/docs/asciidoc/"))
                    .filter(p -> p.toString().endsWith(".adoc")).sorted().toList();
            return adocs.stream().map(a -> DynamicTest.dynamicTest(root.relativize(a).toString(),
                    () -> assertThat(NotesLint.check(a, root)).as("problems in %s", a).isEmpty()));
        }
    }

    @TestFactory
    @DisplayName("say a release holds labs/STUDENT_COPY already wherever they tell a student to touch it")
    Stream<DynamicTest> studentCopyInARelease() {
        return Course.chapters(Repo.root()).stream().filter(c -> c.notes().isPresent())
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    String notes = Files.readString(c.notes().get()).replaceAll("\\s+", " ");
                    if (notes.contains("touch labs/STUDENT_COPY")) {
                        assertThat(notes).as("%s tells a student to touch labs/STUDENT_COPY, which a release"
                                + " holds already (./vramlab release writes it)", c.id())
                                .contains("release holds `labs/STUDENT_COPY` already");
                    }
                }));
    }

    @TestFactory
    @DisplayName("show at least one generated figure, and only figures the chapter draws")
    Stream<DynamicTest> figures() {
        return Course.chapters(Repo.root()).stream().filter(c -> c.notes().isPresent())
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    List<String> shown = imagesIn(c.notes().get());
                    assertThat(shown).as("%s shows no image::figures/<name>.svg[]", c.id()).isNotEmpty();
                    ChapterLab lab = Chapters.find(c.id());
                    assertThat(FigureRegistry.shownNames(lab)).as("figures drawn by %s's code", c.id())
                            .containsAll(shown);
                }));
    }

    @TestFactory
    @DisplayName("give every graded step of their chapter a worked example, drawn by the chapter's code")
    Stream<DynamicTest> workedExamples() {
        GradedSteps steps = GradedSteps.of(Repo.root());
        return steps.all().stream().map(s -> DynamicTest.dynamicTest(s.id(), () -> {
            int n = Integer.parseInt(s.id().split("\\.")[0]);
            Course.ChapterDir c = Course.chapters(Repo.root()).stream()
                    .filter(d -> d.id().startsWith(String.format("ch%02d-", n))).findFirst().orElseThrow();
            ChapterLab lab = Chapters.find(c.id());
            assertThat(FigureRegistry.examples(lab)).as("%s has a public static String example%s()", c.id(),
                    s.id().replace('.', '_')).containsKey(s.id());
            String notes;
            try (Stream<Path> files = Files.walk(c.docs())) {
                notes = String.join("\n", files.filter(p -> p.toString().endsWith(".adoc")).map(p -> {
                    try {
                        return Files.readString(p);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }).toList());
            }
            assertThat(notes).as("%s's notes include step %s's example", c.id(), s.id())
                    .contains("include::{generated}/step-" + s.id() + ".adoc[]");
        }));
    }

    @TestFactory
    @DisplayName("include only generated outputs their chapter's code prints (outputXxx() -> output-xxx.txt)")
    Stream<DynamicTest> generatedOutputs() {
        java.util.regex.Pattern inc = java.util.regex.Pattern.compile("include::\\{generated}/output-([a-z0-9-]+)\\.txt\\[");
        return Course.chapters(Repo.root()).stream().filter(c -> Files.isDirectory(c.docs()))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    ChapterLab lab = Chapters.find(c.id());
                    java.util.Set<String> printed = FigureRegistry.outputs(lab).keySet();
                    try (Stream<Path> files = Files.walk(c.docs())) {
                        for (Path p : files.filter(f -> f.toString().endsWith(".adoc")).toList()) {
                            var m = inc.matcher(Files.readString(p));
                            while (m.find()) {
                                assertThat(printed).as("%s includes output-%s.txt: a public static String output...()"
                                        + " in %s's package must print it", p.getFileName(), m.group(1), c.id())
                                        .contains(m.group(1));
                            }
                        }
                    }
                }));
    }

    @Test
    @DisplayName("are named like their module folder (chapters/chNN-slug/src/docs/asciidoc/chNN-slug.adoc)")
    void namedLikeTheirFolder() throws IOException {
        List<String> misnamed = new ArrayList<>();
        for (Course.ChapterDir c : Course.chapters(Repo.root())) {
            Path docs = c.docs();
            if (!Files.isDirectory(docs)) continue;
            try (Stream<Path> s = Files.list(docs)) {
                boolean hasAdoc = s.anyMatch(p -> p.toString().endsWith(".adoc"));
                if (hasAdoc && c.notes().isEmpty()) misnamed.add(docs + " has .adoc files but no " + c.id() + ".adoc");
            }
        }
        assertThat(misnamed).isEmpty();
    }

    static List<String> imagesIn(Path adoc) throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = IMAGE.matcher(Files.readString(adoc));
        while (m.find()) out.add(m.group(1));
        return out;
    }
}
