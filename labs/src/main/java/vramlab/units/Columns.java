package vramlab.units;

/**
 * Text padded to a column's width, as printf's {@code %Ns} (right-aligned) and {@code %-Ns}
 * (left-aligned) pad it, and as {@code %Nd} and {@code %-Nd} print a {@code long} under
 * {@code Locale.ROOT}: no grouping, a minus sign for a negative number, and text longer than
 * the width left whole.
 *
 * <p>The replay's summary tables use these instead of {@code String.format}: a
 * {@code java.util.Formatter}'s first {@code %d} loads the locale's number symbols, about 10 ms
 * of a replay that takes a tenth of a second in all.
 */
public final class Columns {
    private Columns() {}

    /** {@code %Ns}: {@code text} after spaces, {@code width} characters at least. */
    public static String right(String text, int width) {
        int pad = width - text.length();
        return pad <= 0 ? text : " ".repeat(pad) + text;
    }

    /** {@code %-Ns}: {@code text} then spaces, {@code width} characters at least. */
    public static String left(String text, int width) {
        int pad = width - text.length();
        return pad <= 0 ? text : text + " ".repeat(pad);
    }

    /** {@code %Nd}. */
    public static String right(long value, int width) { return right(Long.toString(value), width); }

    /** {@code %-Nd}. */
    public static String left(long value, int width) { return left(Long.toString(value), width); }
}
