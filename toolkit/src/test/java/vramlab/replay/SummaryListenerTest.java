package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static vramlab.units.Bytes.mib;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.driver.Gpu;
import vramlab.trace.ReadAhead;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceReader;

@DisplayName("the replay's summary")
class SummaryListenerTest {

    @ParameterizedTest(name = "handle {0}, {1}")
    @CsvSource(textBlock = """
            t1,       UTF-8
            t1,       ISO-8859-1
            größe,    UTF-8
            größe,    ISO-8859-1
            """)
    @DisplayName("prints each OOM's line exactly as println prints it, whatever its characters")
    void oomLineIsPrintlns(String handle, String charset) {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), Policies.create("toy", ""));
        a.expectOoms(true);
        a.alloc(mib(40));
        CudaOutOfMemoryError oom = catchThrowableOfType(() -> a.alloc(mib(30)), CudaOutOfMemoryError.class);
        assertThat(oom).isNotNull();
        Charset cs = Charset.forName(charset);

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        SummaryListener summary = new SummaryListener(new PrintStream(printed, true, cs));
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        PrintStream reference = new PrintStream(expected, true, cs);
        assertThat(summary.lastOom()).as("before the first OOM").isEmpty();
        long[] steps = {1, 9, 10, 99, 2000, 1_000_000_007L, Long.MAX_VALUE - 1};   // 2000: a negative line
        for (long step : steps) {
            summary.oom(step, TraceEvent.alloc(step % 1000 == 0 ? -3 : step + 1, handle, mib(30) + step % 7), oom);
            reference.println(summary.lastOom());
        }
        summary.oom(3, TraceEvent.alloc(13, handle, mib(30)), oom);
        reference.println(summary.lastOom());
        assertThat(summary.lastOom()).isEqualTo("OOM at step 3 (line 13, alloc " + handle + " 30.00 MiB): " + oom.getMessage());
        assertThat(oom.getMessage()).startsWith("CUDA out of memory.");
        assertThat(printed.toByteArray()).isEqualTo(expected.toByteArray());
        assertThat(new String(printed.toByteArray(), cs).lines()).hasSize(steps.length + 1)
                .contains("OOM at step 1000000007 (line 1000000008, alloc " + handle + " 30.00 MiB): " + oom.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"UTF-8", "ISO-8859-1"})
    @DisplayName("the fast path's OOMs (handle bytes from the cursor, no event object) print what the iterator"
            + " path prints, from a reader and a read-ahead, whatever the handles' characters")
    void fastPathPrintsAsTheIteratorPath(String charset) throws Exception {
        StringBuilder trace = new StringBuilder("alloc big 40MiB\n");
        String[] handles = {"t1", "größe", "x", "a_long_handle_name_" + "h".repeat(100), "ü", "日本"};
        java.util.Random random = new java.util.Random(38);
        for (int i = 0; i < 300; i++) {
            String h = handles[i % handles.length] + i;
            trace.append("alloc ").append(h).append(' ').append(20 + random.nextInt(20)).append("MiB\n");
            if (random.nextBoolean()) trace.append("free ").append(h).append('\n');
            if (i % 50 == 0) trace.append("free big\nalloc big ").append(30 + random.nextInt(10)).append("MiB\n");
        }
        byte[] text = trace.toString().getBytes(StandardCharsets.UTF_8);
        Charset cs = Charset.forName(charset);
        String[] paths = {"iterator", "reader", "read-ahead", "read-ahead, lines written behind"};
        byte[][] printed = new byte[paths.length][];
        String[] last = new String[paths.length];
        for (int p = 0; p < paths.length; p++) {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), Policies.create("toy", ""));
            a.expectOoms(true);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            SummaryListener summary = new SummaryListener(new PrintStream(bytes, true, cs));
            if (p == 3) summary.writeBehind();
            Replayer replayer = new Replayer(a, summary, "t", false);
            switch (p) {
                case 0 -> replayer.replay((java.util.Iterator<TraceEvent>) new TraceReader(new java.io.ByteArrayInputStream(text), "t"));
                case 1 -> replayer.replay(new TraceReader(new java.io.ByteArrayInputStream(text), "t"));
                default -> {
                    try (ReadAhead r = replayer.readAhead(new java.io.ByteArrayInputStream(text), "t")) {
                        replayer.replay(r);
                    }
                }
            }
            summary.finish(a);
            printed[p] = bytes.toByteArray();
            last[p] = summary.lastOom();
        }
        String lines = new String(printed[0], cs);
        assertThat(lines.lines().filter(l -> l.startsWith("OOM at step")).count()).as("OOMs printed").isGreaterThan(50);
        assertThat(lines).contains(", alloc größe").contains(", alloc t1");
        for (int p = 1; p < paths.length; p++) {
            assertThat(new String(printed[p], cs)).as(paths[p]).isEqualTo(lines);
            assertThat(printed[p]).as(paths[p]).isEqualTo(printed[0]);
            assertThat(last[p]).as(paths[p]).isEqualTo(last[0]).startsWith("OOM at step");
        }
    }

    @org.junit.jupiter.api.Test
    @DisplayName("prints the peak and final counters in exact bytes, each row's sizes under it as PyTorch writes a size")
    void countersInBytesAndSizes() {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), Policies.create("toy", ""));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SummaryListener summary = new SummaryListener(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        new Replayer(a, summary, "t", false).replay(new TraceReader(new java.io.ByteArrayInputStream(
                "alloc a 3MiB\nalloc b 512\nfree a\nalloc c 30MiB\n".getBytes(StandardCharsets.UTF_8)), "t"));
        summary.finish(a);
        java.util.List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        int peak = lines.indexOf("peak             31457792       31457792       54525952");
        assertThat(peak).as("the peak row, exact bytes: %s", lines).isPositive();
        assertThat(lines.get(peak - 1).trim()).isEqualTo("requested      allocated       reserved");
        assertThat(lines.get(peak + 1)).isEqualTo("                30.00 MiB      30.00 MiB      52.00 MiB");
        // final: a (3 MiB) freed; b (512 B) and c (30 MiB) live, 30 MiB + 512 B
        assertThat(lines.get(peak + 2)).isEqualTo("final            31457792       31457792       54525952");
        assertThat(lines.get(peak + 3)).isEqualTo("                30.00 MiB      30.00 MiB      52.00 MiB");
    }

    /** A trace that OOMs on every other line after the first: {@code n} OOMs in all. */
    private static byte[] oomingTrace(int n) {
        StringBuilder t = new StringBuilder("alloc big 40MiB\n");
        for (int i = 0; i < n; i++) t.append("alloc h").append(i).append(" 30MiB\nfree h").append(i).append('\n');
        return t.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The toy policy, except that its OOM message throws from the {@code failAt}-th on (0: never). */
    private static vramlab.alloc.Policy toyFailingAt(int failAt) {
        vramlab.alloc.Policy toy = Policies.create("toy", "");
        java.util.concurrent.atomic.AtomicInteger messages = new java.util.concurrent.atomic.AtomicInteger();
        return (vramlab.alloc.Policy) java.lang.reflect.Proxy.newProxyInstance(SummaryListenerTest.class.getClassLoader(),
                new Class<?>[] {vramlab.alloc.Policy.class}, (proxy, method, args) -> {
                    if (method.getName().equals("oomMessage") && failAt > 0 && messages.incrementAndGet() >= failAt) {
                        throw new IllegalStateException("no message for OOM " + messages.get());
                    }
                    try {
                        return method.invoke(toy, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Replays {@code trace} read ahead; returns what was printed, and any error in {@code error[0]}. */
    private static String replayAhead(byte[] trace, vramlab.alloc.Policy policy, boolean behind, Throwable[] error) {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), policy);
        a.expectOoms(true);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (SummaryListener summary = new SummaryListener(new PrintStream(bytes, true, StandardCharsets.UTF_8))) {
            if (behind) summary.writeBehind();
            Replayer replayer = new Replayer(a, summary, "t", false);
            try (ReadAhead r = replayer.readAhead(new java.io.ByteArrayInputStream(trace), "t")) {
                replayer.replay(r);
            }
            summary.finish(a);
        } catch (RuntimeException e) {
            error[0] = e;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0} OOMs")
    @CsvSource({"0", "1", "255", "256", "257", "1023", "1024", "3000"})
    @DisplayName("lines written behind are the lines printed at once, in order, however many OOMs fill or leave the batches")
    void writtenBehindAsPrinted(int n) {
        byte[] trace = oomingTrace(n);
        Throwable[] none = new Throwable[1];
        String atOnce = replayAhead(trace, Policies.create("toy", ""), false, none);
        String behind = replayAhead(trace, Policies.create("toy", ""), true, none);
        assertThat(none[0]).isNull();
        assertThat(behind).isEqualTo(atOnce);
        assertThat(behind.lines().filter(l -> l.startsWith("OOM at step")).count()).isEqualTo(n);
        assertThat(behind).contains("events: " + (1 + 2 * n) + ", OOMs: " + n);
    }

    @ParameterizedTest(name = "failing at OOM {0}")
    @CsvSource({"1", "5", "300", "700"})
    @DisplayName("a message that throws, written behind, fails the replay with its own error, after the lines before it")
    void errorWrittenBehind(int failAt) {
        byte[] trace = oomingTrace(800);
        Throwable[] atOnceError = new Throwable[1];
        Throwable[] behindError = new Throwable[1];
        String atOnce = replayAhead(trace, toyFailingAt(failAt), false, atOnceError);
        String behind = replayAhead(trace, toyFailingAt(failAt), true, behindError);
        assertThat(atOnceError[0]).isInstanceOf(IllegalStateException.class).hasMessage("no message for OOM " + failAt);
        assertThat(behindError[0]).isInstanceOf(IllegalStateException.class).hasMessage("no message for OOM " + failAt);
        assertThat(behind).isEqualTo(atOnce);
        assertThat(behind.lines().count()).isEqualTo(failAt - 1);
    }
}
