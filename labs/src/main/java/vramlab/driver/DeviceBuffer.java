package vramlab.driver;

/**
 * A device allocation as a copy target: an address, a size and a contents tag. The allocator
 * that owns the address is elsewhere (vramlab.alloc); this only carries data for copies.
 */
public final class DeviceBuffer implements Buffer {
    private final String name;
    private final long address;
    private final long size;
    private long contents;

    public DeviceBuffer(String name, long address, long size) {
        if (size <= 0) throw new IllegalArgumentException("DeviceBuffer " + name + ": size " + size);
        this.name = name;
        this.address = address;
        this.size = size;
    }

    public String name() { return name; }
    @Override public long address() { return address; }
    @Override public long size() { return size; }
    @Override public long contents() { return contents; }
    @Override public void store(long tag) { contents = tag; }
    @Override public String toString() { return name + "@0x" + Long.toHexString(address); }
}
