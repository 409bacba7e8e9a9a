package vramlab.driver;

/**
 * The error codes the simulated driver returns, spelled as CUDA spells them: the runtime API's
 * {@code cudaError*} for {@code cudaMalloc}/{@code cudaFree}, the driver API's
 * {@code CUDA_ERROR_*} for the virtual memory management calls ({@code cuMem*}).
 */
public enum CudaError {
    cudaErrorMemoryAllocation,
    cudaErrorInvalidValue,
    cudaErrorInvalidDevicePointer,
    CUDA_ERROR_OUT_OF_MEMORY,
    CUDA_ERROR_INVALID_VALUE,
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
