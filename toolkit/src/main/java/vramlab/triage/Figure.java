package vramlab.triage;

/** The numbers an OOM message can carry, with the names {@code --json} prints them under. */
public enum Figure {
    REQUESTED("requested", "tried to allocate"),
    DEVICE("device", "device index"),
    CAPACITY("capacity", "total capacity"),
    FREE("free", "free on the device"),
    THIS_PROCESS("thisProcess", "this process, including non-PyTorch memory"),
    ALLOCATED_BY_PYTORCH("allocatedByPyTorch", "allocated by PyTorch"),
    RESERVED_BUT_UNALLOCATED("reservedButUnallocated", "reserved by PyTorch but unallocated"),
    PRIVATE_POOLS("privatePools", "in private pools (CUDA graphs)"),
    OTHER_PROCESSES("otherProcesses", "other processes"),
    RESERVED("reserved", "reserved by PyTorch in total"),
    ALLOWED("allowed", "allowed by the memory fraction");

    private final String key;
    private final String label;

    Figure(String key, String label) {
        this.key = key;
        this.label = label;
    }

    public String key() { return key; }

    public String label() { return label; }

    /** Whether the figure is a byte count (all are, except the device index). */
    public boolean isBytes() { return this != DEVICE; }
}
