package vramlab.ch05.quiz;

import vramlab.alloc.AllocConf;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;

/** The allocators the chapter's questions replay: PyTorch's real policy, with and without the option. */
final class Expandable {
    /** {@code PYTORCH_CUDA_ALLOC_CONF} as the prompts write it. */
    static final String CONF = "expandable_segments:True";

    private Expandable() {}

    /** A fresh process on a card of {@code device} bytes, {@code expandable_segments:True}. */
    static CachingAllocator on(long device) { return allocator(device, AllocConf.parse(CONF)); }

    /** A fresh process on a card of {@code device} bytes, PyTorch's defaults. */
    static CachingAllocator defaults(long device) { return allocator(device, AllocConf.defaults()); }

    private static CachingAllocator allocator(long device, AllocConf conf) {
        return new CachingAllocator(new Gpu(device).openToyProcess(), new PyTorchPolicy(conf));
    }
}
