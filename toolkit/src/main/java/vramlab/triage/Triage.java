package vramlab.triage;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code Triage.of(paste)}: reads every OOM message in a paste, picks the one with the most
 * figures (the first on a tie), and climbs the ladder with it. Never throws on bad input.
 */
public final class Triage {
    private Triage() {}

    public static Diagnosis of(String paste) {
        List<Reading> readings = MessageParser.parse(paste);
        Reading best = readings.get(0);
        for (Reading r : readings) if (r.figures().size() > best.figures().size()) best = r;
        List<String> preface = new ArrayList<>();
        if (readings.size() > 1) {
            Set<String> from = new LinkedHashSet<>();
            for (Reading r : readings) if (!r.source().isEmpty()) from.add(r.source());
            preface.add("The paste holds " + readings.size() + " out-of-memory messages"
                    + (from.isEmpty() ? "" : " (from " + String.join(", ", from) + ")")
                    + "; this reads the one with the most figures"
                    + (best.source().isEmpty() ? "." : ", from " + best.source() + "."));
        }
        return Ladder.climb(best, preface);
    }
}
