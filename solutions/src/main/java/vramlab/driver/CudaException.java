package vramlab.driver;

import java.util.function.Supplier;

/**
 * A CUDA runtime or driver call that failed, with the error code CUDA would return.
 *
 * <p>A refusal for want of memory made for a process that expects to run out
 * ({@link GpuProcess#expectOoms}) has no stack trace, and its message is put together when
 * first asked for: a replay with expandable segments is refused a page thousands of times,
 * catches each refusal as its answer, and reads none of the texts.
 */
public final class CudaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final CudaError error;
    private transient Supplier<String> detail;     // null once the message is written
    private String message;

    public CudaException(CudaError error, String detail) {
        super(error.name() + ": " + detail);
        this.error = error;
        this.message = super.getMessage();
    }

    /** An error whose detail {@code detail} writes when the message is first asked for. */
    CudaException(CudaError error, Supplier<String> detail, boolean stackTrace) {
        super(null, null, true, stackTrace);
        this.error = error;
        this.detail = detail;
    }

    @Override
    public synchronized String getMessage() {
        Supplier<String> d = detail;
        if (d != null) {
            message = error.name() + ": " + d.get();
            detail = null;
        }
        return message;
    }

    public CudaError error() { return error; }

    public boolean isOutOfMemory() {
        return error == CudaError.cudaErrorMemoryAllocation
                || error == CudaError.CUDA_ERROR_OUT_OF_MEMORY;
    }
}
