package vramlab.figures;

/**
 * The colours of PyTorch's memory visualizer ({@code torch/utils/viz/MemoryViz.js}, pytorch
 * commit 00067369), so a student who later opens a real snapshot at pytorch.org/memory_viz
 * sees the same picture:
 * <ul>
 *   <li>a segment is a white rectangle with a black outline, so its free bytes stay white;</li>
 *   <li>a live block covers its <em>requested</em> bytes in one of d3's Tableau10 colours,
 *       picked by a hash of the block's address ({@code hashCode(addr) % 10});</li>
 *   <li>the bytes between requested and rounded size ("free space lost due to rounding") are
 *       red, and so is a block freed but waiting on {@code record_stream};</li>
 *   <li>in the active-memory timeline, allocation number {@code i} gets colour {@code i % 10}.</li>
 * </ul>
 */
public final class MemoryVizColors {
    /** d3's schemeTableau10, as MemoryViz.js lists it. */
    public static final String[] TABLEAU10 = {
        "#4e79a7", "#f28e2c", "#e15759", "#76b7b2", "#59a14f",
        "#edc949", "#af7aa1", "#ff9da7", "#9c755f", "#bab0ab",
    };
    public static final String FREE = "white";
    public static final String SEGMENT_OUTLINE = "black";
    public static final String ROUNDING_LOSS = "red";

    private MemoryVizColors() {}

    /**
     * A live block's colour. MemoryViz.js hashes the address's decimal string with the
     * {@code (h << 5) - h + c} rule on 32-bit integers, which is exactly Java's
     * {@link String#hashCode()}; {@code Math.abs} there works on doubles, hence the widening.
     */
    public static String blockColor(long address) {
        long h = Long.toString(address).hashCode();
        return TABLEAU10[(int) (Math.abs(h) % TABLEAU10.length)];
    }

    /** The timeline's colour for the {@code i}-th allocation (MemoryViz.js: {@code color = elem}). */
    public static String timelineColor(int i) { return TABLEAU10[i % TABLEAU10.length]; }
}
