package vramlab.driver;

/**
 * Memory a copy can read or write: a host buffer or a device allocation.
 *
 * <p>Toy simplification: a buffer's whole contents are one {@code long} tag (for example the
 * number of the batch written into it). That is enough to see which data a copy delivered,
 * and so to see corruption, without simulating bytes.
 */
public interface Buffer {
    long address();
    long size();
    long contents();
    void store(long tag);
}
