package vramlab.contest;

import java.util.HashMap;
import java.util.Map;

import vramlab.alloc.AllocConf;
import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.GpuProcess;

/**
 * The kit's caching allocator (chapters 3 to 5) as a contest entry: PyTorch's native allocator
 * with a {@code PYTORCH_CUDA_ALLOC_CONF} ({@code ""}: the default policy;
 * {@code "expandable_segments:True"}: expandable segments). Every call goes straight to
 * {@link CachingAllocator}, as {@code ./vramlab replay} does, so the two agree on any trace.
 */
public final class CachingEntry implements DeviceAllocator {
    private final String name;
    private final CachingAllocator allocator;
    private final Map<Long, Block> live = new HashMap<>();

    public CachingEntry(String name, GpuProcess process, Policy policy) {
        this.name = name;
        this.allocator = new CachingAllocator(process, policy);
    }

    /** PyTorch's native allocator with {@code allocConf}. */
    public static CachingEntry pytorch(String name, GpuProcess process, String allocConf) {
        return new CachingEntry(name, process, new PyTorchPolicy(AllocConf.parse(allocConf)));
    }

    public CachingAllocator allocator() { return allocator; }

    @Override public String name() { return name; }

    @Override
    public long alloc(long size, int stream) {
        Block b = allocator.alloc(size, stream);
        live.put(b.address(), b);
        return b.address();
    }

    @Override
    public void free(long address) {
        Block b = live.remove(address);
        if (b == null) throw new IllegalArgumentException(name + ": free of 0x" + Long.toHexString(address) + ", no live block");
        allocator.free(b);
    }

    @Override
    public long blockSize(long address) {
        Block b = live.get(address);
        return b == null ? -1 : b.size();
    }

    @Override public long emptyCache() { return allocator.emptyCache(); }
}
