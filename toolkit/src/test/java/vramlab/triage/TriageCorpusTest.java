package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The triage on real messages that users pasted into public issue trackers
 * ({@code src/test/resources/triage-corpus}, see its README): each labelled by hand, with the
 * thread's conclusion winning over the arithmetic where the thread gives one. Every id that is
 * a multiple of 5 was set aside as held out when the corpus was collected, before any rule was
 * tuned; its numbers are reported apart.
 */
@DisplayName("The triage on the corpus of real pasted messages")
class TriageCorpusTest {
    /** The issue's bars: share of messages whose label the triage gives. */
    private static final double SETTLED_BAR = 0.90, ALL_BAR = 0.75;

    record Entry(int id, String file, boolean heldOut, boolean lookAlike, Cause label,
                 boolean settled, String url, String text) {}

    record Result(Entry entry, Diagnosis diagnosis) {
        boolean right() { return diagnosis.cause() == entry.label(); }
    }

    static List<Result> results;

    @BeforeAll
    static void triageAll() throws IOException {
        results = new ArrayList<>();
        for (Entry e : corpus()) results.add(new Result(e, Triage.of(e.text())));
    }

    static List<Entry> corpus() throws IOException {
        List<Entry> out = new ArrayList<>();
        for (String line : resource("index.tsv").split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] c = line.split("\t", -1);
            assertThat(c).as("columns of: " + line).hasSize(11);
            out.add(new Entry(Integer.parseInt(c[0]), c[1], c[2].equals("held-out"),
                    c[3].equals("look-alike"), Cause.valueOf(c[4]), c[5].equals("yes"), c[8],
                    resource(c[1])));
        }
        return out;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = TriageCorpusTest.class.getResourceAsStream("/triage-corpus/" + name)) {
            assertThat(in).as("triage-corpus/" + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Share of the selected real messages (look-alikes excluded) whose label the triage gives. */
    static double accuracy(Predicate<Entry> which) {
        long n = 0, right = 0;
        for (Result r : results) {
            if (r.entry().lookAlike() || !which.test(r.entry())) continue;
            n++;
            if (r.right()) right++;
        }
        return n == 0 ? Double.NaN : (double) right / n;
    }

    static String misses(Predicate<Entry> which) {
        StringBuilder sb = new StringBuilder();
        for (Result r : results) {
            if (!which.test(r.entry()) || r.right()) continue;
            sb.append(String.format("%n  %03d %-28s label %s, triage %s", r.entry().id(), r.entry().file(),
                    r.entry().label(), r.diagnosis().cause()));
        }
        return sb.toString();
    }

    private static String count(Predicate<Entry> which) {
        long n = results.stream().filter(r -> !r.entry().lookAlike() && which.test(r.entry())).count();
        long right = results.stream().filter(r -> !r.entry().lookAlike() && which.test(r.entry()) && r.right())
                .count();
        return right + "/" + n;
    }

    @Nested
    @DisplayName("the corpus itself")
    class Corpus {
        @Test
        @DisplayName("has at least 60 messages, unique ids, a file each, and look-alikes of every kind")
        void wellFormed() {
            assertThat(results).hasSizeGreaterThanOrEqualTo(60);
            Set<Integer> ids = new HashSet<>();
            for (Result r : results) {
                assertThat(ids.add(r.entry().id())).as("id %d twice", r.entry().id()).isTrue();
                assertThat(r.entry().file()).startsWith(String.format("%03d-", r.entry().id()));
                assertThat(r.entry().text()).isNotBlank();
                assertThat(r.entry().url()).startsWith("https://github.com/");
                assertThat(r.entry().lookAlike()).isEqualTo(r.entry().label() == Cause.NOT_PYTORCH_OOM);
            }
            String lookAlikes = results.stream().filter(r -> r.entry().lookAlike())
                    .map(r -> r.entry().text()).reduce("", String::concat);
            assertThat(lookAlikes).contains("ResourceExhaustedError", "RESOURCE_EXHAUSTED", "HIP_ERROR_OutOfMemory",
                    "MPS backend out of memory", "DefaultCPUAllocator", "CUBLAS_STATUS_ALLOC_FAILED");
        }

        @Test
        @DisplayName("holds out exactly the ids that are multiples of 5 (fixed when it was collected)")
        void heldOutRule() {
            for (Result r : results) assertThat(r.entry().heldOut()).isEqualTo(r.entry().id() % 5 == 0);
        }
    }

    @Nested
    @DisplayName("the triage")
    class Accuracy {
        @Test
        @DisplayName("gives the thread's cause for at least 90% of the messages whose thread settles it")
        void settled() {
            double a = accuracy(Entry::settled);
            System.out.println("corpus, thread-settled: " + count(Entry::settled) + " = " + pct(a));
            assertThat(a).as("misses:" + misses(e -> e.settled() && !e.lookAlike())).isGreaterThanOrEqualTo(SETTLED_BAR);
        }

        @Test
        @DisplayName("gives the label for at least 75% of all the real messages")
        void all() {
            double a = accuracy(e -> true);
            System.out.println("corpus, all real messages: " + count(e -> true) + " = " + pct(a));
            assertThat(a).as("misses:" + misses(e -> !e.lookAlike())).isGreaterThanOrEqualTo(ALL_BAR);
        }

        @Test
        @DisplayName("reports the held-out part apart: its numbers were not looked at while tuning")
        void heldOut() {
            double a = accuracy(Entry::heldOut);
            System.out.println("corpus, held out: " + count(Entry::heldOut) + " = " + pct(a)
                    + "; settled among them: " + count(e -> e.heldOut() && e.settled())
                    + "; misses:" + misses(e -> e.heldOut() && !e.lookAlike()));
            System.out.println("corpus, tuned on: " + count(e -> !e.heldOut()) + " = "
                    + pct(accuracy(e -> !e.heldOut())));
            assertThat(results.stream().filter(r -> r.entry().heldOut())).isNotEmpty();
        }

        @Test
        @DisplayName("rejects every look-alike (TensorFlow, JAX, TensorFlow on ROCm, MPS, the CPU allocator, cuBLAS)")
        void lookAlikes() {
            long n = 0;
            for (Result r : results) {
                if (!r.entry().lookAlike()) continue;
                n++;
                assertThat(r.diagnosis().cause()).as("%03d %s:%n%s", r.entry().id(), r.entry().file(),
                        r.diagnosis().text()).isEqualTo(Cause.NOT_PYTORCH_OOM);
            }
            System.out.println("corpus, look-alikes rejected: " + n + "/" + n);
        }

        @Test
        @DisplayName("reads every real message as a PyTorch CUDA (or ROCm) OOM, and every output parses")
        void parseable() {
            for (Result r : results) {
                Diagnosis d = r.diagnosis();
                assertThat(MiniJsonReader.isValid(d.json())).as(r.entry().file()).isTrue();
                assertThat(d.text()).isNotBlank();
                if (!r.entry().lookAlike()) {
                    assertThat(d.reading().family().isPyTorchCuda()).as(r.entry().file() + "\n" + d.text()).isTrue();
                    assertThat(d.ranked()).as(r.entry().file()).isNotEmpty();
                    assertThat(d.ranked().get(0).cause()).isEqualTo(d.cause());
                }
            }
        }

        @Test
        @DisplayName("names the cause of every written case (TriageMessagesTest's rows)")
        void writtenCases() {
            List<Arguments> rows = TriageMessagesTest.messages().toList();
            long right = rows.stream().filter(a -> Triage.of((String) a.get()[4]).cause() == a.get()[1]).count();
            System.out.println("written cases: " + right + "/" + rows.size());
            assertThat(right).isEqualTo(rows.size());
        }
    }

    private static String pct(double a) { return String.format("%.1f%%", a * 100); }
}
