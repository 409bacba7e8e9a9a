package vramlab.pinned;

import vramlab.alloc.Sim;
import vramlab.driver.Buffer;
import vramlab.driver.Clock;
import vramlab.driver.CopyEngine;
import vramlab.driver.CudaGraph;
import vramlab.driver.DeviceBuffer;
import vramlab.driver.HostBuffer;
import vramlab.driver.HostCostModel;
import vramlab.driver.HostMemory;
import vramlab.driver.Stream;
import vramlab.units.Bytes;

/**
 * The JShell facade for chapter 7: one process with a clock, host memory, PyTorch's pinned
 * allocator, one stream (the current stream, id 0) and a device allocator. Method names follow
 * the Python the notes write: {@code pin} is {@code torch.empty(n, pin_memory=True)},
 * {@code del} drops the last reference, {@code copyToDevice} is
 * {@code gpu.copy_(cpu, non_blocking=True)}.
 */
public final class PinnedSim {
    private final Clock clock = new Clock();
    private final HostMemory host;
    private final CachingHostAllocator pinned;
    private final Stream stream;
    private Sim device;                   // chapter 3's device allocator, made on first use
    private long nextDeviceAddress = 0x7e00_0000_0000L;
    private int nextTensor;

    public PinnedSim() { this(PinnedConfig.DEFAULT); }

    /** A process whose {@code PYTORCH_ALLOC_CONF} holds {@code conf}'s pinned keys. */
    public PinnedSim(String conf) { this(PinnedConfig.parse(conf)); }

    public PinnedSim(PinnedConfig config) {
        host = new HostMemory(clock, HostCostModel.DEFAULT);
        pinned = new CachingHostAllocator(host, config);
        stream = new Stream(0, "stream 0", clock, CopyEngine.PCIE4);
    }

    public Clock clock() { return clock; }
    public HostMemory host() { return host; }
    public CachingHostAllocator allocator() { return pinned; }
    public Stream stream() { return stream; }
    /** The device caching allocator (chapter 3's toy policy on an 80 GiB card). */
    public Sim device() {
        if (device == null) device = new Sim(Bytes.gib(80));
        return device;
    }

    /** {@code torch.empty(size, dtype=torch.uint8, pin_memory=True)}. */
    public HostBlock pin(long size) { return pinned.allocate(size); }

    /** {@code del t}: the last reference to a pinned tensor drops. */
    public void del(HostBlock t) { pinned.free(t); }

    /**
     * {@code torch.empty(size, device="cuda")} as a copy target. Toy simplification: only an
     * address and contents; device memory accounting is chapter 3's ({@link #device()}), kept
     * apart so that this chapter's steps do not depend on that chapter's.
     */
    public DeviceBuffer cuda(long size) {
        DeviceBuffer d = new DeviceBuffer("cuda" + nextTensor++, nextDeviceAddress, size);
        nextDeviceAddress = Bytes.alignUp(nextDeviceAddress + size, 512);
        return d;
    }

    // tag::copy[]
    /** {@code dst.copy_(src, non_blocking=True)}, host to device; records the event (Copy.cu). */
    public void copyToDevice(DeviceBuffer dst, HostBlock src) {
        stream.memcpyAsync(dst, src, dst.size());       // the tensor's bytes, not the block's
        pinned.recordEvent(src, stream);
    }
    // end::copy[]

    /** {@code dst.copy_(src, non_blocking=True)}, device to host; records the event too. */
    public void copyToHost(HostBlock dst, DeviceBuffer src) {
        stream.memcpyAsync(dst, src, src.size());
        pinned.recordEvent(dst, stream);
    }

    /** An async copy from memory the caching allocator does not own: no event is recorded. */
    public void copyToDevice(DeviceBuffer dst, Buffer src) { stream.memcpyAsync(dst, src); }

    /** A kernel that keeps the stream busy for {@code nanos}. */
    public void kernel(String label, long nanos) { stream.kernel(label, nanos); }

    /** {@code torch.cuda.synchronize()}: the host waits for all GPU work. */
    public void synchronize() { clock.drain(); }

    /** {@code torch.cuda.host_memory_stats()}. */
    public HostStats hostMemoryStats() { return pinned.stats(); }

    /**
     * {@code torch.accelerator.empty_host_cache()} (2.12+: pytorch/pytorch#171270, landed between the
     * 2.11 and 2.12 branch cuts), {@code torch._C._host_emptyCache()} (2.5+: pytorch/pytorch#134919).
     */
    public long emptyHostCache() { return pinned.emptyCache(); }

    /** {@code torch.cuda.empty_cache()}: the DEVICE allocator only; pinned memory stays. */
    public long cudaEmptyCache() { return device().emptyCache(); }

    /** The walkthrough's {@code report(label)} line: owned, checked out, cudaFreeHost calls. */
    public String report(String label) { return pinned.stats().line(label); }

    /** vLLM's {@code pin_tensor}: malloc, then cudaHostRegister, exact size, no cache. */
    public HostBuffer pinTensor(long size) {
        HostBuffer b = host.malloc(size);
        host.cudaHostRegister(b);
        return b;
    }

    /** The explicit end of a registered buffer's life: unregister, then free. */
    public void unpinTensor(HostBuffer b) {
        host.cudaHostUnregister(b);
        host.free(b);
    }

    /**
     * Captures {@code body}'s stream work into a graph. The pinned blocks it allocates belong to
     * the graph's private pool; one a copy used is kept forever.
     */
    public CudaGraph capture(Runnable body) {
        stream.beginCapture();
        pinned.beginCapture();
        try {
            body.run();
        } finally {
            pinned.endCapture();
        }
        return stream.endCapture();
    }

    /** {@code graph.replay()} on the current stream. */
    public long replay(CudaGraph g) { return g.replay(stream); }

    public void checkInvariants() {
        pinned.checkInvariants();
        host.checkInvariants();
        clock.checkInvariants();
    }

    @Override public String toString() { return pinned.map(); }
}
