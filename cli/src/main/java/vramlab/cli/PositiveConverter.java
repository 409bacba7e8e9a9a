package vramlab.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A count or a number of seconds: a whole number, at least 1. */
final class PositiveConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
        try {
            long n = Long.parseLong(text);
            if (n >= 1) return n;
        } catch (NumberFormatException e) {
            // said below
        }
        throw new TypeConversionException("expected a whole number, at least 1");
    }
}
