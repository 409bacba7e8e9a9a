package vramlab.ch04.quiz;

import java.util.List;
import java.util.Locale;

import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/**
 * Reserved grows after a CUDA graph capture and neither deleting the captured
 * tensors nor empty_cache() gives it back. Conceptual; the variant only changes the amount.
 */
public final class GraphPoolMemory implements Question {
    /** Who holds the memory. */
    public enum Owner { THE_GRAPHS_PRIVATE_POOL, THE_GENERAL_CACHE, THE_DRIVER, ANOTHER_PROCESS }

    /** What gives it back. */
    public enum Release { DELETE_THE_GRAPH_THEN_EMPTY_CACHE, EMPTY_CACHE_ALONE, DELETE_THE_TENSORS_AGAIN, NOTHING_BUT_EXIT }

    static double gib(Variant v) { return v.isSeed() ? 1.4 : v.between("gib", 5, 30) / 10.0; }

    @Override public String id() { return "q4.6"; }
    @Override public String notesSection() { return "The mechanism: one rule per step, then arithmetic"; }
    @Override public String title() { return "Where the graph's memory went"; }

    @Override
    public String prompt(Variant v) {
        return String.format(Locale.ROOT, """
                After capturing a CUDA graph, memory_summary shows reserved up by %.1f GiB. Deleting every
                tensor created during the capture and calling empty_cache() barely moves it.
                (a) the cause, as ./vramlab triage names it; (b) who holds the memory; (c) what gives it back.""", gib(v));
    }

    @Override
    public List<Part> parts(Variant v) {
        return List.of(
                Part.of("a", 1, CauseChoice.of("q4.6.a.cause")),
                Part.of("b", 1, Blanks.choice("q4.6.b.owner", Owner.class)),
                Part.of("c", 1, Blanks.choice("q4.6.c.release", Release.class)));
    }
}
