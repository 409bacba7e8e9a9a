package vramlab.driver;

/**
 * The error codes the simulated driver returns, spelled as CUDA spells them: the runtime API's
 * {@code cudaError*} for {@code cudaMalloc}/{@code cudaFree}, the driver API's
 * {@code CUDA_ERROR_*} for the virtual memory management calls ({@code cuMem*}).
 */
public enum CudaError {
    cudaErrorMemoryAllocation,
    /** A bad size, or a cudaFree of a pointer that is not an allocation (CUDA Runtime API, cudaFree). */
    cudaErrorInvalidValue,
    CUDA_ERROR_OUT_OF_MEMORY,
    CUDA_ERROR_INVALID_VALUE,
    /**
     * The kit's choice for cuMemMap or cuMemRelease of a handle that is not live: CUDA calls an
     * invalid handle undefined behaviour (cuMemRelease: "If handle is not a valid handle the
     * behavior is undefined") and names no code for it.
     */
    CUDA_ERROR_INVALID_HANDLE,
    CUDA_ERROR_NOT_PERMITTED,
    CUDA_ERROR_ALREADY_MAPPED,
    CUDA_ERROR_NOT_MAPPED,
    /** cudaDeviceEnablePeerAccess with the current device itself, or a device of another process. */
    cudaErrorInvalidDevice,
    /** cudaDeviceEnablePeerAccess a second time for the same pair. */
    cudaErrorPeerAccessAlreadyEnabled,
    /** More peers than the hardware's eight peer slots. */
    cudaErrorTooManyPeers
}
