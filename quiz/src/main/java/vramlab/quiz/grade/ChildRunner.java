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

import vramlab.quiz.GradedItems;
import vramlab.quiz.ScoreRow;

/**
 * The child JVM of the batch grader: runs the kit's graded tests against one submission's
 * compiled cores and writes one line per event to a results file, flushed at once, so the
 * parent knows what finished even when the submission loops, exits or crashes the JVM.
 *
 * <pre>
 * list RESULTS ROOTS            ITEM &lt;uid&gt; &lt;row&gt;  for every graded item under the test roots
 * run  RESULTS ROOTS UIDS       START &lt;uid&gt; (any descriptor), END &lt;uid&gt; &lt;row&gt; (an item's
 *                               result), FIN &lt;uid&gt; (any descriptor), ..., DONE
 * </pre>
 * ROOTS and UIDS are files with one test-classes folder or unique id per line. The child's
 * standard output and error are capped ({@value #OUTPUT_CAP} bytes in all), and it halts at
 * the end so a thread a submission left running cannot keep it alive.
 */
public final class ChildRunner {
    static final int OUTPUT_CAP = 256 * 1024;

    private ChildRunner() {}

    public static void main(String[] args) throws IOException {
        capOutput();
        int status = 0;
        try (Writer out = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8)) {
            Protocol p = new Protocol(out);
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
        List<DiscoverySelector> selectors = uids.stream().map(u -> (DiscoverySelector) selectUniqueId(u)).toList();
        launcher().execute(request(selectors), new TestExecutionListener() {
            @Override public void testPlanExecutionStarted(TestPlan plan) { items.start(plan); }

            @Override
            public void executionStarted(TestIdentifier id) {
                p.line("START\t" + id.getUniqueId());
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
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

    private static final Set<String> REPORTED = new HashSet<>();

    private static void report(GradedItems items, Protocol p, Set<String> uids) {
        items.booked().forEach((uid, row) -> {
            if (uids.contains(uid) && REPORTED.add(uid)) p.line("END\t" + uid + "\t" + row.toTsv());
        });
    }

    /** Replaces standard output and error with streams that drop what passes the cap. */
    private static void capOutput() {
        OutputStream raw = new FileOutputStream(FileDescriptor.out);
        OutputStream capped = new OutputStream() {
            private long written;

            @Override
            public synchronized void write(int b) throws IOException {
                if (written++ < OUTPUT_CAP) raw.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) throws IOException {
                long room = Math.max(0, OUTPUT_CAP - written);
                if (room > 0) raw.write(b, off, (int) Math.min(room, len));
                written += len;
            }
        };
        PrintStream ps = new PrintStream(capped, true, StandardCharsets.UTF_8);
        System.setOut(ps);
        System.setErr(ps);
    }

    /** Writes protocol lines and flushes each one. */
    static final class Protocol {
        private final Writer out;

        Protocol(Writer out) { this.out = out; }

        synchronized void line(String s) {
            try {
                out.write(s.replace('\n', ' ') + "\n");
                out.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
