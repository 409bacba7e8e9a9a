package vramlab.driver;

/** A CUDA runtime or driver call that failed, with the error code CUDA would return. */
public final class CudaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final CudaError error;

    public CudaException(CudaError error, String detail) {
        super(error.name() + ": " + detail);
        this.error = error;
    }

    public CudaError error() { return error; }

    public boolean isOutOfMemory() {
        return error == CudaError.cudaErrorMemoryAllocation
                || error == CudaError.CUDA_ERROR_OUT_OF_MEMORY;
    }
}
