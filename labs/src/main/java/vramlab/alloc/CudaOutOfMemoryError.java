package vramlab.alloc;

/**
 * The caching allocator's out-of-memory error, as {@code torch.cuda.OutOfMemoryError} is raised
 * in a real process. It carries the state at the moment of failure, so a lab or a test can read
 * the numbers as well as the message.
 */
public final class CudaOutOfMemoryError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient OomReport report;

    public CudaOutOfMemoryError(String message, OomReport report) {
        super(message);
        this.report = report;
    }

    public OomReport report() { return report; }
}
