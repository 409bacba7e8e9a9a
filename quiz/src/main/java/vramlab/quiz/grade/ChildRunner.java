package vramlab.quiz.grade;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.lang.reflect.Method;

import org.junit.platform.engine.support.descriptor.MethodSource;

import vramlab.quiz.Graded;
import vramlab.quiz.GradedItems;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.feedback.StepOrder;
import vramlab.quiz.feedback.StepPlaces;

/**
 * The child JVM of the batch grader: runs the kit's graded tests against one submission's
 * compiled cores and writes one line per event to a results file, flushed at once, so the
 * parent knows what finished even when the submission loops, exits or crashes the JVM.
 *
 * <pre>
 * list RESULTS ROOTS - CAP      ITEM &lt;uid&gt; &lt;row&gt;  for every graded item under the test roots
 * run  RESULTS ROOTS UIDS CAP   START &lt;uid&gt; (any descriptor), END &lt;uid&gt; &lt;row&gt; (an item's
 *                               result), FIN &lt;uid&gt; (any descriptor), WHERE &lt;uid&gt; &lt;where&gt;
 *                               (a test running long: the method it is in), ..., DONE
 * </pre>
 * ROOTS and UIDS are files with one test-classes folder or unique id per line. Every line ends
 * with a MAC: HMAC-SHA256 of its text under a key the parent writes to this JVM's standard input
 * (a new key for every child). The key is read before any test class (any student code) is
 * loaded, so a submission that writes lines into the results file writes lines the parent
 * rejects; the file is written in append mode, a whole line at a time, so such lines cannot
 * overwrite the runner's. The
 * child's standard output and error keep their first CAP bytes in all (the rest is dropped),
 * and it halts at the end so a thread a submission left running cannot keep it alive.
 */
public final class ChildRunner {
    private ChildRunner() {}

    public static void main(String[] args) throws IOException {
        byte[] key = readKey();
        capOutput(Long.parseLong(args[4]));
        int status = 0;
        try (Writer out = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND)) {
            Protocol p = new Protocol(out, key);
            List<Path> roots = Files.readAllLines(Path.of(args[2])).stream().filter(s -> !s.isBlank())
                    .map(Path::of).collect(Collectors.toList());
            if (args[0].equals("list")) {
                list(roots, p);
            } else {
                Set<String> uids = new HashSet<>(Files.readAllLines(Path.of(args[3])));
                uids.removeIf(String::isBlank);
                run(uids, p);
            }
            p.line("DONE");
        } catch (Throwable t) {
            status = 3;
        }
        Runtime.getRuntime().halt(status);
    }

    private static Launcher launcher() {
        return LauncherFactory.create(LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build());
    }

    private static LauncherDiscoveryRequest request(List<? extends DiscoverySelector> selectors) {
        return LauncherDiscoveryRequestBuilder.request().selectors(selectors)
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false")
                .build();
    }

    static void list(List<Path> roots, Protocol p) throws IOException {
        TestPlan plan = launcher().discover(request(selectClasspathRoots(new HashSet<>(roots))));
        GradedItems items = new GradedItems(r -> { });
        items.start(plan);
        for (GradedItems.Item i : items.items()) {
            p.line("ITEM\t" + i.uniqueId() + "\t"
                    + ScoreRow.zero(i.graded().step(), i.name(), i.graded().points(), "FAILED", "not run").toTsv());
        }
    }

    static void run(Set<String> uids, Protocol p) {
        GradedItems items = new GradedItems(row -> { });
        Where where = new Where(p);
        List<DiscoverySelector> selectors = uids.stream().map(u -> (DiscoverySelector) selectUniqueId(u)).toList();
        launcher().execute(request(selectors), new TestExecutionListener() {
            @Override public void testPlanExecutionStarted(TestPlan plan) { items.start(plan); }

            @Override
            public void executionStarted(TestIdentifier id) {
                p.line("START\t" + id.getUniqueId());
                where.started(id);
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                where.finished(id);
                items.finished(id, result);
                report(items, p, uids);
                p.line("FIN\t" + id.getUniqueId());
            }

            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                items.skipped(id, reason);
                report(items, p, uids);
            }

            @Override public void testPlanExecutionFinished(TestPlan plan) { items.finish(); report(items, p, uids); }
        });
    }

    /**
     * Tells the parent where a graded test that runs long is, so a time-out can name the method
     * it was stuck in: every {@link #PERIOD}, once a test has run {@link #FIRST_SAMPLE}, {@code WHERE <uid>
     * <where> [TAB <section>]} ({@link StepOrder#running}, and the section of the notes that
     * states the step's rule) when that changed. The parent does not count these lines as progress.
     */
    static final class Where {
        /**
         * When a running test is first sampled, and how often after: a test stopped at the shortest
         * bound a grade gives ({@link Grader.Options#SHORTEST_AFTER_TIMEOUT}, after a submission's
         * first time-out) has been sampled a few times by then, so its time-out can name the method.
         */
        static final java.time.Duration FIRST_SAMPLE = java.time.Duration.ofMillis(200);
        static final java.time.Duration PERIOD = java.time.Duration.ofMillis(100);

        private final Protocol p;
        private volatile Running now;
        private String said;

        private record Running(String uid, Thread thread, Method test, long since) {}

        Where(Protocol p) {
            this.p = p;
            Thread t = new Thread(this::watch, "vramlab-where");
            t.setDaemon(true);
            t.start();
        }

        void started(TestIdentifier id) {
            if (id.getSource().orElse(null) instanceof MethodSource m) {
                try {
                    now = new Running(id.getUniqueId(), Thread.currentThread(), m.getJavaMethod(), System.nanoTime());
                } catch (RuntimeException e) {
                    // a method that cannot be loaded is not watched
                }
            }
        }

        void finished(TestIdentifier id) {
            Running r = now;
            if (r != null && r.uid().equals(id.getUniqueId())) now = null;
        }

        private void watch() {
            while (true) {
                try {
                    Thread.sleep(PERIOD.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
                Running r = now;
                if (r == null || System.nanoTime() - r.since() < FIRST_SAMPLE.toNanos()) continue;
                Graded g = r.test().getAnnotation(Graded.class);
                Class<?> test = r.test().getDeclaringClass();
                String w = StepOrder.running(g == null ? null : g.step(), test, r.test().getName(),
                        r.thread().getStackTrace()) + (g == null ? "" : StepPlaces.of(g.step(), test)
                        .map(place -> "\t" + place.section()).orElse(""));
                if (!w.equals(said) && now == r) {
                    p.line("WHERE\t" + r.uid() + "\t" + w);
                    said = w;
                }
            }
        }
    }

    private static final Set<String> REPORTED = new HashSet<>();

    private static void report(GradedItems items, Protocol p, Set<String> uids) {
        items.booked().forEach((uid, row) -> {
            if (uids.contains(uid) && REPORTED.add(uid)) p.line("END\t" + uid + "\t" + row.toTsv());
        });
    }

    /**
     * The MAC key: one line of hex on standard input, which is then closed to the tests. The rest
     * of that input is the grader's lifeline: its end means the grader is gone ({@link Lifeline}).
     */
    private static byte[] readKey() throws IOException {
        java.io.BufferedReader in = new java.io.BufferedReader(
                new java.io.InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line = in.readLine();
        System.setIn(new java.io.ByteArrayInputStream(new byte[0]));
        if (line == null || line.isBlank()) throw new IOException("no key on standard input");
        Lifeline.watch(in);
        return java.util.HexFormat.of().parseHex(line.strip());
    }

    /** Replaces standard output and error with streams that drop what passes the cap. */
    private static void capOutput(long cap) {
        OutputStream raw = new FileOutputStream(FileDescriptor.out);
        OutputStream capped = new OutputStream() {
            private long written;

            @Override
            public synchronized void write(int b) throws IOException {
                if (written++ < cap) raw.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) throws IOException {
                long room = Math.max(0, cap - written);
                if (room > 0) raw.write(b, off, (int) Math.min(room, len));
                written += len;
            }
        };
        PrintStream ps = new PrintStream(capped, true, StandardCharsets.UTF_8);
        System.setOut(ps);
        System.setErr(ps);
    }

    /** Writes protocol lines, each with its MAC, and flushes each one. */
    static final class Protocol {
        private final Writer out;
        private final Signer signer;

        Protocol(Writer out, byte[] key) {
            this.out = out;
            this.signer = new Signer(key);
        }

        synchronized void line(String s) {
            try {
                out.write(signer.sign(s.replace('\n', ' ')) + "\n");
                out.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /**
     * Signs and checks protocol lines: a line is {@code text TAB mac}, where mac is the first 16
     * bytes, in hex, of HMAC-SHA256(key, text). A line of another child (another key), or whose
     * text was changed, does not check. (Repeating one of this child's own lines changes nothing:
     * the first report of an item is the one booked.)
     */
    static final class Signer {
        private final javax.crypto.Mac mac;

        Signer(byte[] key) {
            try {
                mac = javax.crypto.Mac.getInstance("HmacSHA256");
                mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
            }
        }

        synchronized String sign(String text) { return text + "\t" + mac(text); }

        /** The text of {@code line} when its MAC checks; null otherwise. */
        synchronized String check(String line) {
            int tab = line.lastIndexOf('\t');
            if (tab < 0) return null;
            String text = line.substring(0, tab);
            boolean ok = java.security.MessageDigest.isEqual(mac(text).getBytes(StandardCharsets.US_ASCII),
                    line.substring(tab + 1).getBytes(StandardCharsets.US_ASCII));
            return ok ? text : null;
        }

        private String mac(String text) {
            byte[] d = mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d, 0, 16);
        }
    }
}
