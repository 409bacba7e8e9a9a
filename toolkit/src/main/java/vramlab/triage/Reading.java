package vramlab.triage;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the parser read from one message: its family, the figures it found (bytes), the other
 * processes it lists, the clues around it, and what a complete message of its family would have
 * had but this one did not.
 *
 * @param family     the message's shape
 * @param backend    the device word it uses ({@code CUDA}, {@code HIP}, ...), or the look-alike's
 *                   name ({@code TensorFlow}, ...), or empty
 * @param source     the process that printed it ({@code rank 3}), or empty
 * @param figures    the figures found; a missing one is absent
 * @param processes  pid to bytes for each "Process P has X memory in use", in order
 * @param clues      the clues found anywhere in the paste
 * @param missing    the figures its family prints but this message lacked (truncated or mangled)
 * @param notes      facts worth saying about the text itself (version spelling, hints, counts)
 */
public record Reading(Family family, String backend, String source, Map<Figure, Long> figures,
                      Map<Integer, Long> processes, Set<Clue> clues, List<String> missing,
                      List<String> notes) {

    public Reading {
        figures = Collections.unmodifiableMap(figures.isEmpty()
                ? new EnumMap<>(Figure.class) : new EnumMap<>(figures));
        processes = Collections.unmodifiableMap(processes);
        clues = Collections.unmodifiableSet(clues);
        missing = List.copyOf(missing);
        notes = List.copyOf(notes);
    }

    /** The figure, or -1 when the message did not carry it. */
    public long get(Figure f) { return figures.getOrDefault(f, -1L); }

    public boolean has(Figure f) { return figures.containsKey(f); }

    public boolean has(Clue c) { return clues.contains(c); }
}
