package vramlab.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;
import vramlab.snapshot.SnapshotReader;
import vramlab.units.Bytes;

/**
 * A size option ({@code --device 80GiB}) read by the kit's own size parser, {@link Bytes#parse}:
 * more than 0, with a unit. A trace's sizes may be bare bytes ({@code alloc a 4096}); an option's
 * may not: every size option is a card or a file limit, where {@code --device 24} is a unit
 * forgotten, not a card of 24 bytes ({@code 24B} says that, if meant).
 */
class SizeConverter implements ITypeConverter<Long> {
    static final String EXPECTED = "expected a size such as 40MiB or 80GiB";

    @Override
    public Long convert(String text) {
        if (!text.trim().chars().allMatch(c -> Character.isDigit(c) || c == '.')) {
            try {
                long n = Bytes.parse(text);
                if (n > 0) return n;
            } catch (IllegalArgumentException | ArithmeticException e) {
                // said below, in the words every size option uses
            }
        }
        throw new TypeConversionException(EXPECTED);
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
