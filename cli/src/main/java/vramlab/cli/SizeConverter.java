package vramlab.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;
import vramlab.units.Bytes;

/** A size option ({@code --device 80GiB}) read by the kit's own size parser, {@link Bytes#parse}. */
final class SizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
        try {
            long n = Bytes.parse(text);
            if (n > 0) return n;
        } catch (IllegalArgumentException | ArithmeticException e) {
            // said below, in the words every size option uses
        }
        throw new TypeConversionException("expected a size such as 40MiB or 80GiB");
    }
}
