package vramlab.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;
import vramlab.snapshot.SnapshotInput;
import vramlab.units.Bytes;

/**
 * {@code --max-input SIZE}, for the commands that read a whole snapshot into memory (replay,
 * advise, triage): the most the file may hold, unzipped ({@link SnapshotInput}).
 */
final class InputLimitOption {
    @Option(names = "--max-input", paramLabel = "SIZE", converter = Converter.class, description = """
            the most a snapshot may hold, unzipped, before it is refused unread (default 256MiB, \
            at most 1GiB; a gzip file is counted before it is unzipped into memory)""")
    Long maxInput;

    /** The limit to read with: the option's, else the default. */
    long limit() {
        return maxInput == null ? SnapshotInput.DEFAULT_LIMIT : maxInput;
    }

    /** A size ({@link SizeConverter}'s words) no larger than {@link SnapshotInput#MAX_INPUT}. */
    static final class Converter implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            long n = new SizeConverter().convert(text);
            if (n > SnapshotInput.MAX_INPUT) {
                throw new TypeConversionException("expected a size up to " + Bytes.readable(SnapshotInput.MAX_INPUT)
                        + ", the most the kit reads from one file");
            }
            return n;
        }
    }
}
