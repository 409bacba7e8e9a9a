package vramlab.quiz;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * The answer forms the kit's questions use: sizes and whole numbers (checked against the
 * simulator), one choice from an enum, a set of choices (the terms of a sum), and a size the
 * simulator tries out ("a request that would succeed now").
 */
public final class Blanks {
    private Blanks() {}

    /** A size in bytes; {@code parse} reads units (pass the kit's {@code Bytes::parse}). */
    public static Blank size(String key, long expected, ToLongFunction<String> parse) {
        return new Blank(key, "a size: bytes (2097152) or with a unit (2MiB, 512KiB)", a -> {
            long v;
            try {
                v = parse.applyAsLong(a);
            } catch (RuntimeException e) {
                return "could not read '" + a + "' as a size (" + e.getMessage() + ")";
            }
            return v == expected ? null : "not the size the simulator computes for your variant";
        }, Long.toString(expected));
    }

    /** A whole number. */
    public static Blank number(String key, long expected) {
        return new Blank(key, "a whole number", a -> {
            long v;
            try {
                v = Long.parseLong(a.replace("_", "").replace(",", ""));
            } catch (NumberFormatException e) {
                return "could not read '" + a + "' as a whole number";
            }
            return v == expected ? null : "not the number the simulator computes for your variant";
        }, Long.toString(expected));
    }

    /** A size the simulator tries for this variant: right when {@code works} says so. */
    public static Blank sizeThat(String key, String what, ToLongFunction<String> parse, LongPredicate works,
                                 long example) {
        if (!works.test(example)) throw new IllegalArgumentException(key + ": the example " + example + " is not " + what);
        return new Blank(key, "a size (" + what + ")", a -> {
            long v;
            try {
                v = parse.applyAsLong(a);
            } catch (RuntimeException e) {
                return "could not read '" + a + "' as a size (" + e.getMessage() + ")";
            }
            if (v <= 0) return "a request must be at least 1 byte";
            return works.test(v) ? null : "the simulator says " + a + " is not " + what;
        }, Long.toString(example));
    }

    /** Exactly one of an enum's constants. */
    public static <E extends Enum<E>> Blank choice(String key, E expected) {
        Class<E> type = expected.getDeclaringClass();
        return new Blank(key, "one of: " + options(type), a -> {
            E v = read(type, a);
            if (v == null) return "'" + a + "' is not one of: " + options(type);
            return v == expected ? null : "not the right choice";
        }, expected.name());
    }

    /** A set of an enum's constants, written with commas: exactly the expected ones. */
    public static <E extends Enum<E>> Blank choices(String key, Set<E> expected, Class<E> type) {
        EnumSet<E> want = expected.isEmpty() ? EnumSet.noneOf(type) : EnumSet.copyOf(expected);
        return new Blank(key, "any of, separated by commas: " + options(type), a -> {
            EnumSet<E> got = EnumSet.noneOf(type);
            for (String part : a.split("[,;]")) {
                if (part.isBlank()) continue;
                E v = read(type, part);
                if (v == null) return "'" + part.strip() + "' is not one of: " + options(type);
                got.add(v);
            }
            if (got.equals(want)) return null;
            int missing = (int) want.stream().filter(e -> !got.contains(e)).count();
            int extra = (int) got.stream().filter(e -> !want.contains(e)).count();
            return missing + " missing, " + extra + " that do not belong";
        }, names(want));
    }

    static <E extends Enum<E>> E read(Class<E> type, String answer) {
        // Case-insensitive, with spaces and dashes read as underscores: "out of memory" matches
        // OUT_OF_MEMORY, and CUDA's mixed-case names (cudaErrorMemoryAllocation) match too.
        String norm = answer.strip().replaceAll("[\\s-]+", "_");
        for (E e : type.getEnumConstants()) if (e.name().equalsIgnoreCase(norm)) return e;
        return null;
    }

    static <E extends Enum<E>> String options(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(" | "));
    }

    /** The names of {@code set}, sorted, for a test that fills a sheet from a key. */
    public static <E extends Enum<E>> String names(Set<E> set) {
        return set.stream().map(Enum::name).collect(Collectors.toCollection(TreeSet::new)).stream()
                .collect(Collectors.joining(", "));
    }
}
