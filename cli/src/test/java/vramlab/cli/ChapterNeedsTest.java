package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;
import vramlab.quiz.build.CoreBuild;

/**
 * A self-paced student starting at chapter 5 found every scenario of {@code lab 5} stopped at
 * chapter 3's steps: the release's README says, where the student starts, which earlier chapters'
 * steps each chapter needs, derived from the cores each chapter declares.
 */
class ChapterNeedsTest {
    static final List<LabGenerator.Step> STEPS = LabGenerator.steps(KitPaths.root().resolve("solutions"));

    @Test
    @DisplayName("each chapter needs exactly the earlier chapters with a step in one of the cores it runs")
    void derivedFromTheCores() {
        for (ChapterLab c : Chapters.all()) {
            List<String> cores = ChapterCores.of(c);
            java.util.Set<Integer> expected = new java.util.TreeSet<>();
            for (LabGenerator.Step s : STEPS) {
                int chapter = Integer.parseInt(s.id().split("\\.")[0]);
                if (chapter < c.number() && cores.contains(CoreBuild.coreOfFile(s.file()).name())) expected.add(chapter);
            }
            assertThat(ChapterNeeds.of(c, STEPS)).as(c.id()).containsExactlyElementsOf(expected);
        }
        assertThat(ChapterNeeds.of(Chapters.find("1"), STEPS)).isEmpty();
        assertThat(ChapterNeeds.of(Chapters.find("5"), STEPS)).as("alloc holds 3 and 4, driver 2, gmmu 1").containsExactly(1, 2, 3, 4);
    }

    @Test
    @DisplayName("the release's README says it in its Start section, before the first thing to do, as a table a row a chapter")
    void readmeSaysItWhereTheStudentStarts() {
        String readme = ReleaseCommand.readme(true, "Reread: ch03 \"Rule 2: pools never mix\" (x).");
        int start = readme.indexOf("== Start");
        int table = readme.indexOf("|Chapter |Needs the steps of chapters");
        assertThat(start).isPositive();
        assertThat(table).isGreaterThan(start).isLessThan(readme.indexOf(". Read a chapter's notes"));
        assertThat(readme).contains("\n|5 " + Chapters.find("5").title() + " |1, 2, 3, 4\n")
                .contains("\n|1 " + Chapters.find("1").title() + " |none (start here)\n")
                .contains("|===\n\n. Read")
                .contains("A lab may also reach a step of a later chapter");
        for (ChapterLab c : Chapters.all()) assertThat(readme).contains("\n|" + c.number() + " " + c.title() + " |");
    }

    @Test
    @DisplayName("the README's docs/ says which chapters have a playground (chapter 8 has none), not each chapter's")
    void playgroundsAsThereAre() {
        String readme = ReleaseCommand.readme(true, "x").replaceAll("\\s+", " ");
        assertThat(readme).doesNotContain("each chapter's playground").doesNotContain("slides and playground")
                .contains("|`docs/` |the notes and slides, rendered; chapters 1 to 7's notes each have a playground, chapter 8's"
                        + " has none (`docs/playground/`): a playground runs")
                .contains("(rendered, with each chapter's slides; chapters 1 to 7's notes each have a playground, chapter 8's has none)");
        assertThat(ChapterNeeds.numbers(List.of(1, 2, 3))).isEqualTo("1 to 3");
        assertThat(ChapterNeeds.numbers(List.of(1, 3, 5))).isEqualTo("1, 3 and 5");
        assertThat(ChapterNeeds.numbers(List.of(8))).isEqualTo("8");
    }
}
