package vramlab.replay;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import vramlab.alloc.CachingAllocator;
import vramlab.trace.TraceEvent;

/**
 * {@code --csv}: one row per event and nothing else (CONTRACTS.md):
 * {@code step,op,handle,bytes,result,requested,allocated,reserved}. Written by Commons CSV as
 * RFC 4180 has it (a handle with a comma or a quote is quoted), one record a line.
 */
public final class CsvListener implements Replayer.Listener {
    public static final String HEADER = "step,op,handle,bytes,result,requested,allocated,reserved";

    /** RFC 4180 with {@code \n} between records, as the rest of the output's lines end. */
    static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();

    private final CSVPrinter out;

    public CsvListener(PrintStream out) {
        try {
            this.out = new CSVPrinter(out, FORMAT);
            this.out.printRecord((Object[]) HEADER.split(","));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void event(long step, TraceEvent e, Replayer.Result result, long bytes, CachingAllocator a) {
        try {
            out.printRecord(step, e.op().word(), e.handle(), bytes, result.word(), a.requested(),
                    a.allocated(), a.reserved());
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }
}
