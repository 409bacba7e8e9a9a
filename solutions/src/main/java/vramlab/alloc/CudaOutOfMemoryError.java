package vramlab.alloc;

import java.util.function.Function;

/**
 * The caching allocator's out-of-memory error, as {@code torch.cuda.OutOfMemoryError} is raised
 * in a real process. It carries the state at the moment of failure, so a lab or a test can read
 * the numbers as well as the message.
 *
 * <p>The allocator's own errors write their message when it is first asked for, from the report
 * (the same text, since the report is the state at the failure): a replay that counts thousands
 * of OOMs without reading each message does not build them. An error made for a caller that
 * expects OOMs ({@link CachingAllocator#expectOoms}) has no stack trace.
 */
public final class CudaOutOfMemoryError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient OomReport report;
    private transient Function<OomReport, String> writer;   // null once the message is written
    private String message;

    public CudaOutOfMemoryError(String message, OomReport report) {
        super(message);
        this.report = report;
        this.message = message;
    }

    /** An error whose message {@code writer} writes from {@code report} when first asked for. */
    CudaOutOfMemoryError(OomReport report, Function<OomReport, String> writer, boolean stackTrace) {
        super(null, null, true, stackTrace);
        this.report = report;
        this.writer = writer;
    }

    @Override
    public synchronized String getMessage() {
        Function<OomReport, String> w = writer;
        if (w != null) {
            message = w.apply(report);
            writer = null;
        }
        return message;
    }

    public OomReport report() { return report; }
}
