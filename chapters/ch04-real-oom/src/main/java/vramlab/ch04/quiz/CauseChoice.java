package vramlab.ch04.quiz;

import java.util.Map;

import vramlab.quiz.Blank;
import vramlab.quiz.Blanks;
import vramlab.triage.Cause;

/**
 * The answer "which cause": one of triage's causes ({@link Cause}), the kit's one model of them,
 * so that the quiz and {@code ./vramlab triage} name a cause alike. The quiz once had an enum of
 * its own, whose {@code DRIVER_RESERVE} is triage's {@code FULL_OR_DRIVER_RESERVE} (its other
 * names are triage's too); a sheet written with the old names scores as it did.
 */
final class CauseChoice {
    private CauseChoice() {}

    /** The quiz's old names that triage spells differently, to triage's constant. */
    static final Map<String, Cause> OLD_NAMES = Map.of("DRIVER_RESERVE", Cause.FULL_OR_DRIVER_RESERVE);

    /** The blank {@code key}: one of triage's causes, the key kept with the reference cores. */
    static Blank of(String key) { return Blanks.choice(key, Cause.class, OLD_NAMES); }
}
