package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/** Mangled pastes never throw, and --json stays one valid JSON object. */
@DisplayName("Triage on mangled input")
class TriageFuzzTest {
    // Under PIT (-Pmutation sets vramlab.pit): a tenth of the cases, so a survivor costs seconds.
    static final boolean PIT = Boolean.getBoolean("vramlab.pit");

    private static final List<String> NOISE = List.of("\n", "\r\n", "[rank7]: ", "\\n", "\\'",
            "(Worker pid=9) ", "    ", "\u0000", "\u001b[31m", "é", "中", "\"", "GiB", "12.5", ";",
            "(GPU 0;", "Process 1 has ", "more than 1EB", "\uD83D\uDE00");

    @Test
    @DisplayName("5000 seeded mutations of the test messages (seed 77): no exception, valid JSON")
    void mutations() {
        List<String> bases = TriageMessagesTest.messages().map(Arguments::get).map(a -> (String) a[4]).toList();
        assertThat(bases).as("the test messages to mutate").hasSizeGreaterThan(10);
        Random rnd = new Random(77);
        for (int i = 0; i < (PIT ? 500 : 5000); i++) {
            StringBuilder sb = new StringBuilder(bases.get(rnd.nextInt(bases.size())));
            int edits = 1 + rnd.nextInt(6);
            for (int e = 0; e < edits && sb.length() > 0; e++) {
                int at = rnd.nextInt(sb.length());
                switch (rnd.nextInt(3)) {
                    case 0 -> sb.delete(at, Math.min(sb.length(), at + 1 + rnd.nextInt(30)));
                    case 1 -> sb.insert(at, NOISE.get(rnd.nextInt(NOISE.size())));
                    default -> sb.setCharAt(at, (char) rnd.nextInt(0x3000));
                }
            }
            String text = sb.toString();
            Diagnosis d = Triage.of(text);
            assertThat(MiniJsonReader.isValid(d.json())).as("mutation %d:%n%s", i, text).isTrue();
            assertThat(d.text()).isNotBlank();
        }
    }

    @Test
    @DisplayName("random bytes of any length (seed 78): no exception")
    void garbage() {
        Random rnd = new Random(78);
        for (int i = 0; i < (PIT ? 200 : 2000); i++) {
            char[] cs = new char[rnd.nextInt(400)];
            for (int k = 0; k < cs.length; k++) cs[k] = (char) rnd.nextInt(128);
            Diagnosis d = Triage.of(new String(cs));
            assertThat(MiniJsonReader.isValid(d.json())).isTrue();
        }
    }
}
