package vramlab.figures;

/**
 * How wide a figure's text is, without a font on the machine: the advance widths of DejaVu
 * Sans (Book and Bold, in units of 1/1000 em, printable ASCII), the first and widest face of
 * {@link Svg#FONT}, so a label measured here fits in every font of the stack. Figures lay out
 * their legends and margins with it, and a test checks with it that no text leaves its
 * figure's viewBox. A character outside ASCII counts as one em.
 */
public final class TextMetrics {
    private static final int[] BOOK = {
        318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
        636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
        1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
        603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
        500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
        635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
    };
    private static final int[] BOLD = {
        348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
        696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
        1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
        733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
        500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
        716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
    };
    /** DejaVu Sans's ascent and descent, in em. */
    public static final double ASCENT = 0.929;
    public static final double DESCENT = 0.236;

    private TextMetrics() {}

    /** The advance width of {@code text} at {@code size} px. */
    public static double width(String text, double size, boolean bold) {
        int[] table = bold ? BOLD : BOOK;
        double units = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            units += c >= 32 && c < 127 ? table[c - 32] : 1000;
        }
        return units * size / 1000.0;
    }

    public static double width(String text, double size) { return width(text, size, false); }
}
