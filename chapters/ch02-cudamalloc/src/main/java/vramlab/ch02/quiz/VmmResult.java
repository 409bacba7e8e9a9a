package vramlab.ch02.quiz;

import vramlab.driver.CudaException;

/**
 * What a VMM call returns, spelled as the driver API's {@code CUresult} spells it
 * ({@code CUDA_SUCCESS} or one of the {@code CUDA_ERROR_*} codes the simulator raises), so one
 * answer names success as well as failure.
 */
public enum VmmResult {
    CUDA_SUCCESS,
    CUDA_ERROR_INVALID_VALUE,
    CUDA_ERROR_INVALID_HANDLE,
    CUDA_ERROR_OUT_OF_MEMORY,
    CUDA_ERROR_NOT_PERMITTED,
    CUDA_ERROR_ALREADY_MAPPED,
    CUDA_ERROR_NOT_MAPPED;

    /** Runs {@code call} on the simulator and names what it returned. */
    static VmmResult of(Runnable call) {
        try {
            call.run();
            return CUDA_SUCCESS;
        } catch (CudaException e) {
            return valueOf(e.error().name());
        }
    }
}
