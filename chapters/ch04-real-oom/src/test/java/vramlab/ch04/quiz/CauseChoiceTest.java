package vramlab.ch04.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Blank;
import vramlab.quiz.Blanks;
import vramlab.quiz.Mark;
import vramlab.quiz.Part;
import vramlab.quiz.PracticeKey;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.triage.Cause;
import vramlab.units.Bytes;

/**
 * The quiz names causes as triage does ({@link Cause}, the one model), and a sheet written with
 * the names of the quiz's former enum of its own scores exactly as one written with triage's.
 */
@DisplayName("The quiz's cause blanks take triage's causes, and the old names score the same")
class CauseChoiceTest {
    /** The constants of the quiz's former enum, in its order, and the triage cause each is now. */
    static final Map<String, Cause> FORMER = new LinkedHashMap<>();
    static {
        FORMER.put("FRAGMENTATION", Cause.FRAGMENTATION);
        FORMER.put("OTHER_PROCESSES", Cause.OTHER_PROCESSES);
        FORMER.put("NCCL_BUFFERS", Cause.NCCL_BUFFERS);
        FORMER.put("CUDA_GRAPH_POOLS", Cause.CUDA_GRAPH_POOLS);
        FORMER.put("CUDNN_WORKSPACE", Cause.CUDNN_WORKSPACE);
        FORMER.put("DRIVER_RESERVE", Cause.FULL_OR_DRIVER_RESERVE);
    }

    static List<Variant> variants() {
        List<Variant> vs = new ArrayList<>(List.of(Variant.seed("ch04")));
        for (int i = 0; i < 12; i++) vs.add(Ch04QuestionsTest.student(i));
        return vs;
    }

    /** The key's sheet of {@code q} for {@code v}, every cause blank answered {@code cause}. */
    static AnswerSheet sheet(Question q, Variant v, String cause) {
        StringBuilder sb = new StringBuilder();
        for (Part p : q.parts(v)) {
            for (Blank b : p.blanks()) {
                sb.append(b.key()).append(" = ").append(b.key().endsWith(".cause") ? cause : b.solution()).append('\n');
            }
        }
        return AnswerSheet.parse(sb.toString(), "test");
    }

    static List<Question> withCauseBlanks() {
        List<Question> out = new ArrayList<>();
        for (Question q : Ch04QuestionsTest.QUESTIONS) {
            boolean has = q.parts(Variant.seed("ch04")).stream().flatMap(p -> p.blanks().stream())
                    .anyMatch(b -> b.key().endsWith(".cause"));
            if (has) out.add(q);
        }
        return out;
    }

    @Test
    @DisplayName("four questions ask for a cause, and their form lists triage's causes")
    void theBlanksAreTriagesCauses() {
        assertThat(withCauseBlanks()).extracting(Question::id).containsExactly("q4.3", "q4.4", "q4.5", "q4.6");
        String all = String.join(" | ", java.util.Arrays.stream(Cause.values()).map(Enum::name).toList());
        for (Question q : withCauseBlanks()) {
            for (Part p : q.parts(Variant.seed("ch04"))) {
                for (Blank b : p.blanks()) {
                    if (b.key().endsWith(".cause")) {
                        assertThat(b.form()).as(b.key()).isEqualTo("one of: " + all);
                        assertThat(Cause.valueOf(b.solution()).step()).as(b.key() + ": a rung of the ladder").isPositive();
                    }
                }
            }
        }
    }

    @Test
    @DisplayName("marked on the reference: every former name scores what triage's name for it scores, for every variant")
    void formerNamesScoreTheSame() {
        int right = 0;
        for (Question q : withCauseBlanks()) {
            for (Variant v : variants()) {
                for (Map.Entry<String, Cause> e : FORMER.entrySet()) {
                    Mark old = Mark.of(q, v, sheet(q, v, e.getKey()));
                    Mark now = Mark.of(q, v, sheet(q, v, e.getValue().name()));
                    assertThat(old.earned()).as(q.id() + " " + v + " " + e.getKey()).isEqualTo(now.earned());
                    assertThat(old.problems()).as("the same reasons").isEqualTo(now.problems());
                    if (now.full()) right++;
                }
                // in any spelling the kit reads: case, spaces and dashes
                Mark lower = Mark.of(q, v, sheet(q, v, "driver reserve"));
                assertThat(lower.earned()).isEqualTo(Mark.of(q, v, sheet(q, v, "FULL_OR_DRIVER_RESERVE")).earned());
            }
        }
        assertThat(right).as("each question and variant has exactly one right cause").isEqualTo(4 * variants().size());
    }

    @Test
    @DisplayName("where the key were the full card, its former name is right and every other cause wrong")
    void formerNameOfTheFullCardIsRight() {
        Blanks.OneOf<Cause> check = new Blanks.OneOf<>(Cause.class, Cause.FULL_OR_DRIVER_RESERVE, CauseChoice.OLD_NAMES);
        assertThat(check.wrong("DRIVER_RESERVE")).isNull();
        assertThat(check.wrong("driver-reserve")).isNull();
        assertThat(check.wrong("FULL_OR_DRIVER_RESERVE")).isNull();
        for (String other : FORMER.keySet()) if (!other.equals("DRIVER_RESERVE")) assertThat(check.wrong(other)).isNotNull();
        Blanks.OneOf<Cause> frag = new Blanks.OneOf<>(Cause.class, Cause.FRAGMENTATION, CauseChoice.OLD_NAMES);
        assertThat(frag.wrong("DRIVER_RESERVE")).isEqualTo(frag.wrong("FULL_OR_DRIVER_RESERVE")).isNotNull();
    }

    @Test
    @DisplayName("a wrong cause loses the part, in an old name, a new one, or one that is neither")
    void wrongCausesLose() {
        Variant v = Variant.seed("ch04");
        for (Question q : withCauseBlanks()) {
            int full = Mark.of(q, v, sheet(q, v, solutionCause(q, v))).earned();
            assertThat(Mark.of(q, v, sheet(q, v, "DRIVER_RESERVE")).earned()).as(q.id()).isEqualTo(full - 1);
            assertThat(Mark.of(q, v, sheet(q, v, "CANNOT_TELL")).earned()).as(q.id()).isEqualTo(full - 1);
            Mark unread = Mark.of(q, v, sheet(q, v, "RESERVE"));
            assertThat(unread.earned()).isEqualTo(full - 1);
            assertThat(unread.summary()).contains("'RESERVE' is not one of: FRAGMENTATION");
        }
    }

    @Test
    @DisplayName("marked by a student release's practice key: the former names score the same there too")
    void formerNamesScoreTheSameInARelease() {
        Variant v = Variant.seed("ch04");
        List<Question> released = PracticeKey.read(PracticeKey.write("ch04", withCauseBlanks()), Bytes::parse);
        for (int i = 0; i < released.size(); i++) {
            Question ref = withCauseBlanks().get(i), rel = released.get(i);
            for (Map.Entry<String, Cause> e : FORMER.entrySet()) {
                int refOld = Mark.of(ref, v, sheet(ref, v, e.getKey())).earned();
                assertThat(Mark.of(rel, v, sheet(ref, v, e.getKey())).earned()).as(rel.id() + " " + e.getKey()).isEqualTo(refOld);
                assertThat(Mark.of(rel, v, sheet(ref, v, e.getValue().name())).earned()).isEqualTo(refOld);
            }
        }
    }

    static String solutionCause(Question q, Variant v) {
        for (Part p : q.parts(v)) for (Blank b : p.blanks()) if (b.key().endsWith(".cause")) return b.solution();
        throw new AssertionError(q.id());
    }
}
