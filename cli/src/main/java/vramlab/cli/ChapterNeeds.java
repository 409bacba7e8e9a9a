package vramlab.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.labgen.LabGenerator;
import vramlab.quiz.build.CoreBuild;

/**
 * Which earlier chapters' steps a chapter runs on: its lab, JShell session and graded tests run
 * the cores it declares ({@link ChapterCores#of}, from {@link ChapterLab#cores()}), and those
 * cores hold steps of earlier chapters (chapter 5's {@code alloc} holds chapter 3's and 4's, its
 * {@code driver} chapter 2's, its {@code gmmu} chapter 1's). A step of those not written yet
 * stops every scenario of the chapter's lab that reaches it, so a student starting at a later
 * chapter writes those first. Derived from the declared cores and the steps' files, never listed
 * by hand; the release's README shows it where the student starts ({@link #text}).
 */
final class ChapterNeeds {
    private ChapterNeeds() {}

    /** The numbers of the chapters before {@code c} whose steps are in a core {@code c} runs, in order. */
    static Set<Integer> of(ChapterLab c, List<LabGenerator.Step> steps) {
        Set<String> cores = Set.copyOf(ChapterCores.of(c));
        Set<Integer> out = new TreeSet<>();
        for (LabGenerator.Step s : steps) {
            int chapter = Integer.parseInt(s.id().substring(0, s.id().indexOf('.')));
            if (chapter < c.number() && cores.contains(CoreBuild.coreOfFile(s.file()).name())) out.add(chapter);
        }
        return out;
    }

    /** The README's table, one row a chapter, for the kit at {@code root} (its {@code solutions/} says where each step is). */
    static String text(Path root) {
        List<LabGenerator.Step> steps = LabGenerator.steps(root.resolve("solutions"));
        StringBuilder sb = new StringBuilder("""
                The chapters build on each other: a chapter's lab, JShell session and graded tests run your
                cores, and those hold steps of earlier chapters. A step of those you have not written stops
                every scenario of `./vramlab lab <chapter>` that reaches it (with the step's `Todo`) and makes
                `check` say `WAIT`. Starting at a later chapter, write first the steps of the chapters it
                needs. (A lab may also reach a step of a later chapter, as chapter 2's does when it compares
                `cudaMalloc` with chapter 3's caching allocator: that scenario stops there and says so, and
                the chapter's `check` does not need it.)

                [cols="2,3"]
                |===
                |Chapter |Needs the steps of chapters

                """);
        for (ChapterLab c : Chapters.all()) {
            Set<Integer> needs = of(c, steps);
            sb.append('|').append(c.number()).append(' ').append(c.title()).append(" |")
              .append(needs.isEmpty() ? "none (start here)" : needs.stream().map(String::valueOf).collect(Collectors.joining(", ")))
              .append('\n');
        }
        return sb.append("|===\n\n").toString();
    }

    /**
     * Which chapters' notes carry a playground, as the README says it ({@code chapters 1 to 7's
     * notes each have a playground, chapter 8's has none}): those whose notes include the
     * playground the site generates ({@code include::{generated}/playground.adoc[]}), the one place
     * a chapter's page gets one.
     */
    static String playgrounds(Path root) {
        List<Integer> with = new java.util.ArrayList<>(), without = new java.util.ArrayList<>();
        for (ChapterLab c : Chapters.all()) {
            Path notes = root.resolve("chapters").resolve(c.id()).resolve("src/docs/asciidoc").resolve(c.id() + ".adoc");
            (hasPlayground(notes) ? with : without).add(c.number());
        }
        String out = "chapters " + numbers(with) + "'s notes each have a playground";
        return without.isEmpty() ? out : out + ", chapter" + (without.size() == 1 ? " " : "s ") + numbers(without)
                + (without.size() == 1 ? "'s has" : "'s have") + " none";
    }

    private static boolean hasPlayground(Path notes) {
        try {
            return java.nio.file.Files.readString(notes).contains("{generated}/playground.adoc[");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code 1 to 7} for a run of consecutive numbers, else {@code 1, 3 and 5}. */
    static String numbers(List<Integer> ns) {
        if (ns.size() > 2 && ns.get(ns.size() - 1) - ns.get(0) == ns.size() - 1) return ns.get(0) + " to " + ns.get(ns.size() - 1);
        if (ns.size() <= 1) return ns.stream().map(String::valueOf).collect(Collectors.joining());
        return ns.subList(0, ns.size() - 1).stream().map(String::valueOf).collect(Collectors.joining(", "))
                + " and " + ns.get(ns.size() - 1);
    }
}
