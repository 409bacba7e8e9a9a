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
import vramlab.trace.TraceEvent;

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
}
