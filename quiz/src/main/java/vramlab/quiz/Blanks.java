package vramlab.quiz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
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
        return new Blank(key, SIZE_FORM, new SizeIs(expected, parse), Long.toString(expected));
    }

    /** A whole number. */
    public static Blank number(String key, long expected) {
        return new Blank(key, "a whole number", new NumberIs(expected), Long.toString(expected));
    }

    /**
     * A size the simulator tries for this variant: right when {@code works} says so. {@code accepted}
     * lists, on demand, every size {@code works} accepts as spans of bytes (see {@link #scan}), so a
     * student release can check the practice answer without the simulator ({@link PracticeKey}).
     */
    public static Blank sizeThat(String key, String what, ToLongFunction<String> parse, LongPredicate works,
                                 long example, Supplier<List<Span>> accepted) {
        if (!works.test(example)) throw new IllegalArgumentException(key + ": the example " + example + " is not " + what);
        return new Blank(key, "a size (" + what + ")", new SizeWhere(what, parse, works, accepted), Long.toString(example));
    }

    /** Exactly one of an enum's constants. */
    public static <E extends Enum<E>> Blank choice(String key, E expected) {
        Class<E> type = expected.getDeclaringClass();
        return new Blank(key, "one of: " + options(type), new OneOf<>(type, expected), expected.name());
    }

    /**
     * Exactly one of an enum's constants, the key kept with the reference cores
     * ({@link ReferenceKeys}): for a choice that is the same for every student, so that no source
     * a student release hands out holds it.
     */
    public static <E extends Enum<E>> Blank choice(String key, Class<E> type) {
        return choice(key, ReferenceKeys.choice(key, type));
    }

    /**
     * As {@link #choice(String, Class)}, where an answer may also name a constant by a name it had
     * before a rename ({@code aliases}: the old name to the constant), so that a sheet written
     * before the rename scores as it did. The form lists today's names only.
     */
    public static <E extends Enum<E>> Blank choice(String key, Class<E> type, Map<String, E> aliases) {
        E expected = ReferenceKeys.choice(key, type);
        return new Blank(key, "one of: " + options(type), new OneOf<>(type, expected, Map.copyOf(aliases)), expected.name());
    }

    /** A set of an enum's constants, the key kept with the reference cores ({@link ReferenceKeys}). */
    public static <E extends Enum<E>> Blank choices(String key, Class<E> type) {
        return choices(key, ReferenceKeys.choices(key, type), type);
    }

    /** A set of an enum's constants, written with commas: exactly the expected ones. */
    public static <E extends Enum<E>> Blank choices(String key, Set<E> expected, Class<E> type) {
        EnumSet<E> want = expected.isEmpty() ? EnumSet.noneOf(type) : EnumSet.copyOf(expected);
        return new Blank(key, "any of, separated by commas: " + options(type), new SetOf<>(type, want), names(want));
    }

    static final String SIZE_FORM = "a size: bytes (2097152) or with a unit (2MiB, 512KiB)";

    /** Sizes from {@code lo} to {@code hi} bytes, both included. */
    public record Span(long lo, long hi) {
        public Span {
            if (lo > hi) throw new IllegalArgumentException("span " + lo + ".." + hi);
        }

        public boolean contains(long n) { return n >= lo && n <= hi; }
    }

    /**
     * The sizes from 1 to {@code max} that {@code works} accepts, as spans, for a predicate that
     * answers alike for every size in a cell of {@code unit} bytes ({@code ((k-1)*unit, k*unit]}:
     * an allocator that rounds every request up to a multiple of {@code unit}, with bounds that
     * are multiples of it). Tries every 64th cell and bisects where two tries differ, so a run
     * of accepted (or refused) cells shorter than 64 between two tries that agree would be
     * missed; the questions' tests compare the spans with the predicate around every bound.
     */
    public static List<Span> scan(LongPredicate works, long unit, long max) {
        long cells = max / unit;
        List<Span> out = new ArrayList<>();
        long runStart = -1;
        boolean prev = works.test(unit);
        if (prev) runStart = 1;
        long k = 1;
        while (k < cells) {
            long next = Math.min(cells, k + 64);
            boolean at = works.test(next * unit);
            if (at == prev) {
                k = next;
                continue;
            }
            long lo = k, hi = next;                       // works(lo) == prev, works(hi) != prev
            while (hi - lo > 1) {
                long mid = lo + (hi - lo) / 2;
                if (works.test(mid * unit) == prev) lo = mid;
                else hi = mid;
            }
            if (prev) out.add(new Span(runStart == 1 ? 1 : (runStart - 1) * unit + 1, lo * unit));
            else runStart = hi;
            prev = !prev;
            k = hi;
        }
        if (prev) out.add(new Span(runStart == 1 ? 1 : (runStart - 1) * unit + 1, cells * unit));
        return List.copyOf(out);
    }

    /** The check of {@link #size}. */
    public record SizeIs(long expected, ToLongFunction<String> parse) implements Blank.Check {
        @Override
        public String wrong(String a) {
            Long v = readSize(parse, a);
            if (v == null) return cannotRead(parse, a);
            return v == expected ? null : notTheSize(a);
        }
    }

    /** The check of {@link #number}. */
    public record NumberIs(long expected) implements Blank.Check {
        @Override
        public String wrong(String a) {
            Long v = readNumber(a);
            if (v == null) return "could not read '" + a + "' as a whole number";
            return v == expected ? null : NOT_THE_NUMBER;
        }
    }

    /** The check of {@link #sizeThat}. */
    public record SizeWhere(String what, ToLongFunction<String> parse, LongPredicate works,
                            Supplier<List<Span>> accepted) implements Blank.Check {
        @Override
        public String wrong(String a) {
            Long v = readSize(parse, a);
            if (v == null) return cannotRead(parse, a);
            if (v <= 0) return "a request must be at least 1 byte";
            return works.test(v) ? null : notWhat(a, what);
        }
    }

    /** The check of {@link #choice}; {@code aliases} maps older names to today's constants. */
    public record OneOf<E extends Enum<E>>(Class<E> type, E expected, Map<String, E> aliases) implements Blank.Check {
        public OneOf(Class<E> type, E expected) { this(type, expected, Map.of()); }

        /** The aliases as names, old to today's, as a release keeps them ({@link PracticeKey}). */
        public Map<String, String> aliasNames() {
            Map<String, String> out = new java.util.TreeMap<>();
            aliases.forEach((old, e) -> out.put(old, e.name()));
            return out;
        }

        @Override
        public String wrong(String a) {
            E v = read(type, a, aliasNames());
            if (v == null) return notOneOf(a, names(type));
            return v == expected ? null : NOT_THE_CHOICE;
        }
    }

    /** The check of {@link #choices}. */
    public record SetOf<E extends Enum<E>>(Class<E> type, EnumSet<E> want) implements Blank.Check {
        @Override
        public String wrong(String a) {
            EnumSet<E> got = EnumSet.noneOf(type);
            for (String part : a.split("[,;]")) {
                if (part.isBlank()) continue;
                E v = read(type, part);
                if (v == null) return notOneOf(part.strip(), names(type));
                got.add(v);
            }
            if (got.equals(want)) return null;
            int missing = (int) want.stream().filter(e -> !got.contains(e)).count();
            int extra = (int) got.stream().filter(e -> !want.contains(e)).count();
            return missingExtra(missing, extra);
        }
    }

    // The reasons, shared with PracticeKey so that a release marks with the same words.
    static final String NOT_THE_SIZE = "not the size the simulator computes for your variant";
    /**
     * {@link #NOT_THE_SIZE}, and for an answer written in KB, MB, GB or TB (or K, M, G, T) a note
     * that the kit reads those as KiB, MiB, GiB and TiB: a question that says "100 GB (100000000000 B)"
     * means powers of 1000, and an answer of {@code 100GB} is 100 GiB. Says nothing of the key.
     */
    static String notTheSize(String answer) {
        String t = answer.trim();
        int i = 0;
        while (i < t.length() && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.')) i++;
        String unit = t.substring(i).trim();
        String u = unit.toUpperCase(Locale.ROOT);
        if (!List.of("K", "KB", "M", "MB", "G", "GB", "T", "TB").contains(u)) return NOT_THE_SIZE;
        String binary = u.charAt(0) + "iB";
        return NOT_THE_SIZE + " (" + unit + " reads as " + binary + " here, powers of 1024; a size in powers of 1000"
                + " goes in bytes: 100 GB is 100000000000)";
    }

    static final String NOT_THE_NUMBER = "not the number the simulator computes for your variant";
    static final String NOT_THE_CHOICE = "not the right choice";

    static Long readSize(ToLongFunction<String> parse, String a) {
        try {
            return parse.applyAsLong(a);
        } catch (RuntimeException e) {
            return null;
        }
    }

    static String cannotRead(ToLongFunction<String> parse, String a) {
        try {
            parse.applyAsLong(a);
            return null;
        } catch (RuntimeException e) {
            return "could not read '" + a + "' as a size (" + e.getMessage() + ")";
        }
    }

    static Long readNumber(String a) {
        try {
            return Long.parseLong(a.replace("_", "").replace(",", ""));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String notWhat(String a, String what) { return "the simulator says " + a + " is not " + what; }

    static String notOneOf(String a, List<String> names) { return "'" + a + "' is not one of: " + String.join(" | ", names); }

    static String missingExtra(int missing, int extra) { return missing + " missing, " + extra + " that do not belong"; }

    static <E extends Enum<E>> List<String> names(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enum::name).toList();
    }

    /** The constant of {@code names} that {@code answer} names, as {@link #read} reads it, or null. */
    static String readName(List<String> names, String answer) {
        String norm = answer.strip().replaceAll("[\\s-]+", "_");
        for (String n : names) if (n.equalsIgnoreCase(norm)) return n;
        return null;
    }

    /**
     * The constant of {@code names} that {@code answer} names, read as {@link #readName} reads,
     * where an old name of {@code aliases} (old to today's) stands for today's; or null.
     */
    static String readName(List<String> names, Map<String, String> aliases, String answer) {
        String name = readName(names, answer);
        if (name != null || aliases == null || aliases.isEmpty()) return name;
        String old = readName(List.copyOf(aliases.keySet()), answer);
        return old == null ? null : aliases.get(old);
    }

    static <E extends Enum<E>> E read(Class<E> type, String answer) { return read(type, answer, Map.of()); }

    static <E extends Enum<E>> E read(Class<E> type, String answer, Map<String, String> aliases) {
        // Case-insensitive, with spaces and dashes read as underscores: "out of memory" matches
        // OUT_OF_MEMORY, and CUDA's mixed-case names (cudaErrorMemoryAllocation) match too.
        String name = readName(names(type), aliases, answer);
        return name == null ? null : Enum.valueOf(type, name);
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
