package vramlab.ch04.exercises;

import java.util.List;
import java.util.Random;

import vramlab.ch04.causes.Causes;
import vramlab.ch04.causes.Outcome;
import vramlab.ch04.causes.Scenario;
import vramlab.kit.Exercise;
import vramlab.triage.Diagnosis;
import vramlab.triage.Triage;

/**
 * Exercise: one of the six causes, staged on the simulator from a seed, ends in the paste a
 * user would bring (the message and the lines around it). Name the cause, the evidence and
 * the first fix. The answer is the cause the scenario was built to show, with the triage's
 * reading of the same paste.
 */
public final class ReadTheMessage implements Exercise {
    @Override public String title() { return "Read the message: which of the six causes?"; }

    /** The scenario a seed draws, in the ladder's list. */
    static Scenario scenario(long seed) {
        List<Scenario> all = Causes.all();
        return all.get(new Random(seed).nextInt(all.size()));
    }

    static Outcome outcome(long seed) { return scenario(seed).run(Causes.defaultPolicy(), seed); }

    @Override
    public String prompt(long seed) {
        return "A colleague pastes this from a failed run:\n\n" + outcome(seed).pasted()
                + "\n(a) Which of the six causes is it? (b) Which figure or line says so? Do the arithmetic:\n"
                + "    what the request lacked, and what each cause would give back.\n"
                + "(c) What is the first rung of its fix ladder?";
    }

    @Override
    public String answer(long seed) {
        Scenario s = scenario(seed);
        Outcome o = outcome(seed);
        Diagnosis d = Triage.of(o.pasted());
        StringBuilder sb = new StringBuilder("Built to show: ").append(s.cause()).append(" (scenario ")
                .append(s.name()).append(")\nWhat happened:\n");
        o.story().forEach(l -> sb.append("  ").append(l).append('\n'));
        return sb.append("What ./vramlab triage reads from the paste:\n").append(d.text()).toString();
    }
}
