package vramlab.replay;

import java.io.PrintStream;

import vramlab.alloc.CachingAllocator;
import vramlab.trace.TraceEvent;

/**
 * {@code --csv}: one row per event and nothing else (CONTRACTS.md):
 * {@code step,op,handle,bytes,result,requested,allocated,reserved}.
 */
public final class CsvListener implements Replayer.Listener {
    public static final String HEADER = "step,op,handle,bytes,result,requested,allocated,reserved";

    private final PrintStream out;

    public CsvListener(PrintStream out) {
        this.out = out;
        out.println(HEADER);
    }

    @Override
    public void event(long step, TraceEvent e, Replayer.Result result, long bytes, CachingAllocator a) {
        StringBuilder sb = new StringBuilder(96);
        sb.append(step).append(',').append(e.op().word()).append(',').append(csv(e.handle())).append(',')
          .append(bytes).append(',').append(result.word()).append(',').append(a.requested()).append(',')
          .append(a.allocated()).append(',').append(a.reserved());
        out.println(sb);
    }

    /** Quotes a handle that holds a comma or a quote, as RFC 4180 does. */
    static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
