package vramlab.figures;

import java.util.List;

/**
 * The one palette of every figure in the course, so a colour means the same thing in every
 * chapter and every legend matches what it names. Each role is a CSS class that the figure's own
 * stylesheet ({@link #STYLE}) colours, once for light pages and once for dark ones
 * ({@code prefers-color-scheme}): a figure shown in an {@code <img>} follows the reader's setting.
 *
 * <ul>
 *   <li>{@link #LIVE}: a live block or tensor (the bytes it asked for);</li>
 *   <li>{@link #FREE}: cached or free memory, mapped and ready: the page's background, outlined;</li>
 *   <li>{@link #ROUNDING}: bytes lost to rounding (allocated but not asked for);</li>
 *   <li>{@link #UNMAPPED}: address space with no memory under it: dashed outline, no fill;</li>
 *   <li>{@link #OTHER}: memory held by other processes, contexts or the driver;</li>
 *   <li>{@link #STRUCTURE}: bookkeeping (a split buddy node, a page table, a page offset);</li>
 *   <li>{@link #SLOW}: a slow driver call (pinning, unpinning), {@link #COPY} a copy,
 *       {@link #WORK} host work, {@link #COMPUTE} other compute, for timelines;</li>
 *   <li>{@link #SERIES}: the lines of a chart, one per contender, each with its own dash, so
 *       two that coincide both show.</li>
 * </ul>
 * PyTorch's memory visualizer colours each block by a hash of its address; the course does not,
 * so that one colour always means one thing (see {@link MemoryVizColors} for the viewer's own).
 */
public final class Palette {
    public static final String LIVE = ".live";
    public static final String FREE = ".free";
    public static final String ROUNDING = ".rounding";
    public static final String UNMAPPED = ".unmapped";
    public static final String OTHER = ".other";
    public static final String STRUCTURE = ".structure";
    public static final String SLOW = ".slow";
    public static final String COPY = ".copy";
    public static final String WORK = ".work";
    /** Compute that is not the subject of the figure (a training step's kernels). */
    public static final String COMPUTE = ".compute";
    /** A thin line in the background's colour, between two touching shapes of one colour. */
    public static final String GAP = ".gap";
    /** Accent for the one entry a figure points at (the PTE a walk ends in). */
    public static final String ACCENT = ".accent";

    /** Chart series: stroke colour classes, in order. */
    public static final List<String> SERIES = List.of(".s0", ".s1", ".s2", ".s3", ".s4", ".s5");
    /** Each series' dash pattern (null: solid), so coinciding lines stay distinguishable. */
    public static final List<String> DASHES = List.of("", "7 4", "2 3", "10 3 2 3", "4 4", "1 2");

    /**
     * Series {@code i}'s legend role, {@code .sI}: its colour is {@link #SERIES}'s {@code i} modulo
     * their number, and {@link Svg#legend} draws its swatch with {@link #dash}{@code (i)}.
     */
    public static String series(int i) { return ".s" + i; }

    /**
     * Series {@code i}'s dash. Past the sixth series the colours start again, and the dashes with
     * them: advise's chart of 8 settings drew its 7th and 8th (roundup_power2_divisions:4 and
     * garbage_collection_threshold) in the 1st's and 2nd's colour and dash, legend too (walk of a
     * fresh clone, issue 52). Each round of colours shifts the dashes by one, so the first 36
     * series are 36 different pairs; the first six are as before.
     */
    public static String dash(int i) {
        return DASHES.get((i + i / SERIES.size()) % DASHES.size());
    }

    /** The stylesheet every figure carries: light first, then the dark variant. */
    public static final String STYLE = String.join("\n",
            ".bg{fill:#ffffff}",
            ".ink{fill:#1f2328}",
            ".muted{fill:#5b6168}",
            ".on-colour{fill:#ffffff}",
            ".line{stroke:#1f2328}",
            ".faint{stroke:#9a9fa6}",
            ".live{fill:#4e79a7}",
            ".free{fill:#ffffff;stroke:#1f2328}",
            ".rounding{fill:#e15759}",
            ".unmapped{fill:none;stroke:#5b6168;stroke-dasharray:4 3}",
            ".other{fill:#b07aa1}",
            ".structure{fill:#d9d9d9}",
            ".slow{fill:#e15759}",
            ".copy{fill:#76b7b2}",
            ".compute{fill:#bab0ab}",
            ".gap{stroke:#ffffff}",
            ".work{fill:#59a14f}",
            ".accent{fill:#f28e2b}",
            ".s0{stroke:#4e79a7}.s1{stroke:#e15759}.s2{stroke:#59a14f}.s3{stroke:#b07aa1}.s4{stroke:#f28e2b}"
                    + ".s5{stroke:#9c755f}",
            "@media (prefers-color-scheme: dark){",
            ".bg{fill:#17181a}",
            ".ink{fill:#e3e1dc}",
            ".muted{fill:#a3a09a}",
            ".line{stroke:#d8d6d1}",
            ".faint{stroke:#6b6f75}",
            ".live{fill:#6f9bd1}",
            ".free{fill:#17181a;stroke:#d8d6d1}",
            ".unmapped{stroke:#a3a09a}",
            ".structure{fill:#3d3f44}",
            ".gap{stroke:#17181a}",
            ".compute{fill:#7d7873}",
            ".s0{stroke:#7fa8d9}",
            "}");

    private Palette() {}

    /** The role's CSS class name, without the dot. */
    public static String cls(String role) { return role.startsWith(".") ? role.substring(1) : role; }
}
