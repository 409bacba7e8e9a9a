package vramlab.triage;

import java.util.Locale;
import java.util.OptionalLong;

import vramlab.units.Bytes;

/**
 * Reads a size as PyTorch's {@code format_size} prints it in an OOM message: {@code 512 bytes},
 * {@code 20.00 KiB}, {@code 3.50 MiB}, {@code 1.25 GiB}, and the front door's
 * {@code more than 1EB}. Units are binary (1 KiB = 1024 B) and a fraction is rounded to the
 * nearest byte; the arithmetic is {@link Bytes#parse}'s, this class only adds what messages
 * print and traces never do.
 */
public final class Sizes {
    /** 1 EiB: the front door refuses any request of this size or more (CCA:3413-3417). */
    public static final long ONE_EB = 1L << 60;

    private Sizes() {}

    /**
     * The bytes a printed size stands for, or empty when the text is not a size. Never throws:
     * a figure too large for a {@code long} (the async backend prints an unset limit as
     * {@code 17179869184.00 GiB}, 2^64 bytes) is empty too.
     */
    public static OptionalLong parse(String text) {
        if (text == null) return OptionalLong.empty();
        String t = text.replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
        if (t.startsWith("morethan1eb")) return OptionalLong.of(ONE_EB);
        if (t.endsWith("byte")) t = t + "s";
        try {
            return OptionalLong.of(Bytes.parse(t));
        } catch (IllegalArgumentException | ArithmeticException e) {
            return OptionalLong.empty();
        }
    }

    /** Like {@link #parse} but with -1 for "not a size". */
    public static long parseOrMinusOne(String text) { return parse(text).orElse(-1); }
}
