package vramlab.driver;

/**
 * A range of host memory: pageable ({@code malloc}), pinned by {@code cudaHostAlloc}, or
 * pageable and then pinned in place by {@code cudaHostRegister}.
 */
public final class HostBuffer implements Buffer {
    /** How the pages got (or did not get) locked. */
    public enum Kind { PAGEABLE, HOST_ALLOC, REGISTERED }

    private final long address;
    private final long size;
    Kind kind;
    boolean live = true;
    private long contents;

    HostBuffer(long address, long size, Kind kind) {
        this.address = address;
        this.size = size;
        this.kind = kind;
    }

    @Override public long address() { return address; }
    @Override public long size() { return size; }
    @Override public long contents() { return contents; }

    /** The host writes into the buffer (fills a batch, say). */
    @Override public void store(long tag) {
        if (!live) throw new IllegalStateException("write to freed host buffer " + this);
        contents = tag;
    }

    public Kind kind() { return kind; }
    public boolean pinned() { return kind != Kind.PAGEABLE; }
    public boolean live() { return live; }

    @Override public String toString() {
        return "host@0x" + Long.toHexString(address) + "(" + vramlab.units.Bytes.formatSize(size)
                + ", " + kind.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
}
