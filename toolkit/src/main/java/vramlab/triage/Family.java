package vramlab.triage;

/** The shapes of message the parser knows, oldest first, then the look-alikes. */
public enum Family {
    THC_LEGACY("PyTorch before 0.4: THCudaCheck ... out of memory (no numbers)"),
    CACHED("PyTorch 0.4 to 1.3: '(GPU d; T total capacity; A already allocated; F free; C cached)'"),
    RESERVED_IN_TOTAL("PyTorch 1.4 to 2.0: '... R reserved in total by PyTorch)'"),
    SENTENCE("PyTorch 2.1 and later: 'GPU d has a total capacity of T of which F is free. ...'"),
    MALLOC_ASYNC("PyTorch's cudaMallocAsync backend: 'Allocation on device d would exceed "
            + "allowed memory'"),
    ONE_EB("PyTorch's front door: 'Tried to allocate more than 1EB memory'"),
    CUDA_ERROR("a raw CUDA call failed: 'CUDA error: out of memory' (no allocator numbers)"),
    NCCL_ERROR("NCCL failed to allocate: 'Cuda failure 'out of memory'' inside an NCCL error"),
    CUDNN_ERROR("cuDNN found no algorithm whose workspace it could allocate: 'Unable to find a "
            + "valid cuDNN algorithm to run convolution' (no allocator numbers)"),
    WRAPPED("a framework re-raised a CUDA out-of-memory error without PyTorch's figures"),
    SNAPSHOT("a PyTorch memory snapshot: its recorded 'oom' entry and the segments at that moment"),
    LOOK_ALIKE("an out-of-memory error, but not from PyTorch's CUDA caching allocator"),
    UNRECOGNIZED("no out-of-memory message recognized");

    private final String description;

    Family(String description) { this.description = description; }

    public String description() { return description; }

    /**
     * Whether the family comes from PyTorch on a CUDA device (or a ROCm one: the same allocator,
     * hipified, whose reading says "HIP" as its backend).
     */
    public boolean isPyTorchCuda() { return this != LOOK_ALIKE && this != UNRECOGNIZED; }
}
