package vramlab.gmmu;

/**
 * What a mapping lets the device do, with the values of the driver API's
 * {@code CUmemAccess_flags}: {@code CU_MEM_ACCESS_FLAGS_PROT_NONE = 0x0},
 * {@code PROT_READ = 0x1}, {@code PROT_READWRITE = 0x3}.
 *
 * <p>{@code cuMemMap} maps with {@link #NONE}: the translation exists in the driver's books but
 * the hardware PTE is not valid until {@code cuMemSetAccess} grants access.
 */
public enum Access {
    NONE(0x0), READ(0x1), READWRITE(0x3);

    private final int cudaFlags;

    Access(int cudaFlags) { this.cudaFlags = cudaFlags; }

    public int cudaFlags() { return cudaFlags; }

    @Override public String toString() {
        return switch (this) {
            case NONE -> "--";
            case READ -> "R-";
            case READWRITE -> "RW";
        };
    }
}
