package vramlab.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;
import vramlab.snapshot.SnapshotReader;
import vramlab.units.Bytes;

/**
 * A size option ({@code --device 80GiB}) read by the kit's own size parser, {@link
 * Bytes#parseWithUnit}: more than 0, with a unit. Every size option is a card or a file limit,
 * where {@code --device 24} is a unit forgotten, not a card of 24 bytes.
 */
class SizeConverter implements ITypeConverter<Long> {
    static final String EXPECTED = "expected a size such as 40MiB or 80GiB";

    @Override
    public Long convert(String text) {
        long n = Bytes.parseWithUnit(text);
        if (n < 0) throw new TypeConversionException(why(text.trim()));
        return n;
    }

    /**
     * What was wrong, where it can be told: a bare number is a unit forgotten ("24B if bytes are
     * meant", as README says; a bare fraction, {@code 1.5}, is no number of bytes, so "1.5B" is
     * never suggested: the parser refuses it), and 0 or a minus sign is no size at all; else
     * {@link #EXPECTED}.
     */
    static String why(String t) {
        boolean bare = !t.isEmpty() && t.chars().allMatch(c -> Character.isDigit(c) || c == '.');
        boolean zero = t.chars().filter(Character::isDigit).allMatch(c -> c == '0');
        if (t.startsWith("-") || (zero && t.chars().anyMatch(Character::isDigit))) {
            return "expected a size more than 0, such as 40MiB or 80GiB";
        }
        if (bare) {
            return "a number without a unit: " + EXPECTED + " (" + (t.contains(".")
                    ? t + " is no whole number of bytes" : t + "B if bytes are meant") + ")";
        }
        return EXPECTED;
    }

    /**
     * A card's memory ({@code replay --device}): a size up to the largest card the kit simulates,
     * 4 TiB ({@link SnapshotReader#MAX_CARD}), refused here so that the error names the option,
     * not the file being replayed on it.
     */
    static final class Card extends SizeConverter {
        @Override
        public Long convert(String text) {
            long n = super.convert(text);
            if (n > SnapshotReader.MAX_CARD) {
                throw new TypeConversionException("expected a card of at most " + Bytes.readable(SnapshotReader.MAX_CARD)
                        + ", the largest the kit simulates");
            }
            return n;
        }
    }
}
