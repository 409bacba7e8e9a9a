package vramlab.alloc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The free-memory callbacks, PyTorch's {@code FreeCudaMemoryCallbacksRegistry}
 * (c10/cuda/CUDACachingAllocator.h): when no cached block fits, malloc runs every callback
 * and, if one freed memory, searches again (c10/cuda/CUDACachingAllocator.cpp, malloc:
 * {@code trigger_free_memory_callbacks}). PyTorch registers one, which collects CUDA memory
 * shared with other processes over IPC (torch/csrc/CudaIPCTypes.cpp); in one process it frees
 * nothing, so a new allocator has no callbacks.
 */
final class FreeMemoryCallbacks {
    private final List<BooleanSupplier> callbacks = new ArrayList<>();

    void add(BooleanSupplier callback) { callbacks.add(callback); }

    /** Runs every callback; whether one freed memory. */
    boolean trigger() {
        if (callbacks.isEmpty()) return false;     // no iterator per cache miss
        boolean freed = false;
        for (BooleanSupplier c : callbacks) freed |= c.getAsBoolean();
        return freed;
    }
}
