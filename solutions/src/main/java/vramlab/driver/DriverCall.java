package vramlab.driver;

/** The driver calls a process makes, as the cost model counts them. */
public enum DriverCall {
    CUDA_MALLOC("cudaMalloc", false),
    CUDA_FREE("cudaFree", true),
    CU_MEM_ADDRESS_RESERVE("cuMemAddressReserve", false),
    CU_MEM_CREATE("cuMemCreate", false),
    CU_MEM_MAP("cuMemMap", false),
    CU_MEM_SET_ACCESS("cuMemSetAccess", false),
    CU_MEM_UNMAP("cuMemUnmap", true),
    CU_MEM_RELEASE("cuMemRelease", false),
    CU_MEM_ADDRESS_FREE("cuMemAddressFree", false);

    private final String cudaName;
    private final boolean synchronizes;

    DriverCall(String cudaName, boolean synchronizes) {
        this.cudaName = cudaName;
        this.synchronizes = synchronizes;
    }

    public String cudaName() { return cudaName; }

    /**
     * Whether the model charges a wait for the device. The driver API's cuMemFree (what cudaFree
     * calls) "may perform implicit synchronization" for pointers not from the stream-ordered
     * allocator (CUDA driver API reference, cuMemFree_v2), and cuMemUnmap carries the note
     * "This function exhibits synchronous behavior for most use cases" (CUDA driver API, Virtual
     * Memory Management; {@code \note_sync} in cuda.h, CUDA 12.x). The simulator charges the
     * wait to every cudaFree and every cuMemUnmap, and to no other call.
     */
    public boolean synchronizes() { return synchronizes; }

    /** Calls whose cost grows with the pages they map or unmap. */
    public boolean touchesPages() {
        return this != CU_MEM_ADDRESS_RESERVE && this != CU_MEM_ADDRESS_FREE && this != CU_MEM_RELEASE;
    }
}
