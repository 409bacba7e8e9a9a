package vramlab.alloc;

import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vramlab.units.Bytes;

/**
 * The options of {@code PYTORCH_CUDA_ALLOC_CONF} (also {@code PYTORCH_ALLOC_CONF} from 2.10, whose
 * CUDA allocator reads its keys through c10/core/AllocatorConfig.cpp: PR #165135; 2.9 warns that
 * the older name is deprecated but reads CUDA's keys only from it, pytorch/pytorch#183387), parsed as PyTorch up to 2.9 parses them: c10/cuda/CUDAAllocatorConfig.cpp, the
 * last version with its own parser (the one with {@code pinned_reserve_segment_size_mb} and
 * {@code graph_capture_record_stream_reuse}; lexer {@code lexArgs}, then {@code parseArgs}): {@code key:value,key:[k:v,...]}, spaces dropped. An unknown key or a bad
 * value is an {@link IllegalArgumentException} that names it. Where newer releases parse
 * differently (c10/core/AllocatorConfig.cpp, from the 2025 refactor on) the message or the
 * method says so, and {@link #parse(String, Rules)} reads a string by those rules instead.
 *
 * <p>Which keys a release accepts, and the words it refuses others with, is
 * {@link AllocConfKeys}'s: 2.9's parser has thirteen, 2.10's adds
 * {@code pinned_reserve_segment_size_mb} (PR #164501) and {@code per_process_memory_fraction}
 * (PR #161035: the config key for what {@code torch.cuda.set_per_process_memory_fraction} sets). Keys with an effect here:
 * {@code expandable_segments}, {@code max_split_size_mb}, {@code max_non_split_rounding_mb},
 * {@code roundup_power2_divisions}, {@code garbage_collection_threshold} and, from 2.10,
 * {@code per_process_memory_fraction}. Accepted and checked but without effect on the device
 * allocator: {@code backend:native}, {@code release_lock_on_cudamalloc} (and its
 * {@code release_lock_on_hipmalloc} spelling), {@code graph_capture_record_stream_reuse} (graph
 * capture is not simulated here) and the {@code pinned_*} keys, which are chapter 7's host
 * allocator's ({@code vramlab.pinned.PinnedConfig} reads them from the same string, and 2.13's
 * {@code pinned_max_cached_size_mb} and {@code pinned_max_round_threshold_mb} beside them, which
 * no modelled release accepts). Refused by both releases: {@code expandable_segments_page_size}
 * (no PyTorch parser has it) and {@code large_segment_size_mb} (a key newer than 2.10,
 * pytorch/pytorch#172056, that changes the large pool's 20 MiB segments).
 *
 * @param roundupPower2Divisions 16 entries, one per power-of-two interval from 1 MiB up
 */
public record AllocConf(boolean expandableSegments, long maxSplitSize, long maxNonSplitRounding,
                        long[] roundupPower2Divisions, double garbageCollectionThreshold,
                        double memoryFraction) {
    /** {@code kRoundUpPowerOfTwoIntervals} (CFG:34-51). */
    public static final int INTERVALS = 16;

    /** The defaults (CFG:13-31): nothing set. */
    public static AllocConf defaults() {
        return new AllocConf(false, Long.MAX_VALUE, 20 * MiB, new long[INTERVALS], 0, -1);
    }

    /** The divisions for a size: interval {@code floor(log2(size)) - 20}, clamped to 0..15. */
    public long divisionsFor(long size) {
        int log = 63 - Long.numberOfLeadingZeros(size);
        int index = Math.min(Math.max(log - 20, 0), INTERVALS - 1);
        return roundupPower2Divisions[index];
    }

    /**
     * The same options under a memory fraction: what {@code torch.cuda.set_per_process_memory_fraction}
     * sets when the code calls it before its first allocation, and what 2.10's
     * {@code per_process_memory_fraction} key sets (PR #161035, its config key for that call), for a
     * release whose parser has no such key.
     */
    public AllocConf withMemoryFraction(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("invalid fraction:" + fraction + ". Please set within [0, 1].");
        }
        return new AllocConf(expandableSegments, maxSplitSize, maxNonSplitRounding, roundupPower2Divisions.clone(),
                garbageCollectionThreshold, fraction);
    }

    /** The call that sets {@code fraction} from code, as the kit's reports name it: {@code set_per_process_memory_fraction(0.99)}. */
    public static String fractionCall(double fraction) { return "set_per_process_memory_fraction(" + fraction + ")"; }

    /**
     * The string's {@code key -> value} pairs as the lexer cuts them, a list value as written
     * ({@code [64:8,>:2]}), for readers of other keys (the pinned allocator's). No checks: call
     * {@link #parse} for those.
     */
    public static Map<String, String> entries(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> t = lex(text);
        for (int i = 0; i < t.size(); ) {
            String key = t.get(i++);
            if (i < t.size() && t.get(i).equals(":")) i++;
            StringBuilder value = new StringBuilder();
            int depth = 0;
            while (i < t.size() && (depth > 0 || !t.get(i).equals(","))) {
                if (t.get(i).equals("[")) depth++;
                if (t.get(i).equals("]")) depth--;
                value.append(t.get(i++));
            }
            if (i < t.size()) i++;                       // the comma
            out.put(key, value.toString());
        }
        return out;
    }

    /**
     * Where PyTorch's own parsers disagree on one string, whose rules to read it by. Each names the
     * source it was read from, at the commit the kit could read; {@link PyTorchRelease} says which
     * release follows which (2.9 the first, 2.10 the last; the middle one is main's state between
     * two October 2025 pull requests, in no release the kit models). The two rules that differ:
     * the least {@code max_split_size_mb} and {@code max_non_split_rounding_mb} ({@code > 20} or
     * {@code >= 20}), and where a {@code >} entry of {@code roundup_power2_divisions} starts
     * filling (at the last listed interval, overwriting it, or after it).
     */
    public enum Rules {
        /**
         * c10/cuda/CUDAAllocatorConfig.cpp with its own parser (the version that already has
         * {@code pinned_reserve_segment_size_mb} and {@code graph_capture_record_stream_reuse}):
         * {@code parseMaxSplitSize} and {@code parseMaxNonSplitRoundingSize} check
         * {@code val1 > kLargeBuffer / mb}; {@code parseRoundUpPower2Divisions} fills from
         * {@code last_index}. PyTorch 2.9's ({@link PyTorchRelease#V2_9}), the kit's default.
         */
        CUDA_ALLOCATOR_CONFIG(false, false),
        /**
         * c10/core/AllocatorConfig.cpp @065861fba759 (the shared parser after the 2025 refactor):
         * {@code val_env >= min_allowed_split_size_mb}, and still fills from {@code last_index}.
         * CUDA reads its config through this parser from PR #165135 (October 2025) and PR
         * #165304 changed the fill on 2025-10-19, both after 2.9.0 and before 2.10: no release
         * the kit models parses CUDA's config by these rules.
         */
        ACCELERATOR_CONFIG_065861F(true, false),
        /**
         * c10/core/AllocatorConfig.cpp @0ac716637f32: {@code >= 20}, and {@code >} fills from
         * {@code last_index + 1}; the rules c10/test/core/AllocatorConfig_test.cpp @13e144e13b3b
         * expects ({@code 1024:4} keeps 4 beside {@code >:1}; {@code max_split_size_mb:20} accepted).
         * PyTorch 2.10's ({@link PyTorchRelease#V2_10}).
         */
        ACCELERATOR_CONFIG_0AC7166(true, true);

        final boolean twentyAccepted;
        final boolean fillAfterLast;

        Rules(boolean twentyAccepted, boolean fillAfterLast) {
            this.twentyAccepted = twentyAccepted;
            this.fillAfterLast = fillAfterLast;
        }

        /** The keys this parser accepts ({@link AllocConfKeys}). */
        public Set<String> keys() { return AllocConfKeys.of(this); }
    }

    /**
     * Parses a {@code PYTORCH_CUDA_ALLOC_CONF} string by the kit's default rules
     * ({@link Rules#CUDA_ALLOCATOR_CONFIG}); blank means the defaults.
     *
     * @throws IllegalArgumentException naming the key and value that are wrong
     */
    public static AllocConf parse(String text) { return parse(text, Rules.CUDA_ALLOCATOR_CONFIG); }

    /** Parses {@code text} by {@code rules} where PyTorch's parsers differ ({@link Rules}). */
    public static AllocConf parse(String text, Rules rules) {
        return parse(text, rules, Set.of());
    }

    /**
     * The same, also accepting {@code laterKeys}, keys of a release newer than those the kit
     * models, each a non-negative integer: chapter 7's host allocator
     * ({@code vramlab.pinned.PinnedConfig}) reads 2.13's two pinned limits beside the keys of the
     * newest modelled release.
     */
    public static AllocConf parse(String text, Rules rules, Set<String> laterKeys) {
        Parser p = new Parser(lex(text), rules, laterKeys);
        return p.parse();
    }

    /** CFG's lexer: {@code , : [ ]} are tokens of their own; spaces are dropped. */
    static List<String> lex(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == ',' || c == ':' || c == '[' || c == ']') {
                if (word.length() > 0) out.add(word.toString());
                word.setLength(0);
                out.add(String.valueOf(c));
            } else if (c != ' ') {
                word.append(c);
            }
        }
        if (word.length() > 0) out.add(word.toString());
        return out;
    }

    private static final class Parser {
        private final List<String> t;
        private final Rules rules;
        private final Set<String> laterKeys;
        private int i;
        private boolean expandable;
        private long maxSplit = Long.MAX_VALUE;
        private long maxNonSplit = 20 * MiB;
        private final long[] divisions = new long[INTERVALS];
        private double gc;
        private double fraction = -1;

        Parser(List<String> tokens, Rules rules, Set<String> laterKeys) {
            this.t = tokens;
            this.rules = rules;
            this.laterKeys = laterKeys;
        }

        AllocConf parse() {
            while (i < t.size()) {
                String key = t.get(i++);
                if (!laterKeys.contains(key)) AllocConfKeys.check(key, rules);
                expect(":", key);
                switch (key) {
                    case "expandable_segments" -> expandable = bool(key);
                    case "max_split_size_mb" -> maxSplit = megabytes(key);
                    case "max_non_split_rounding_mb" -> maxNonSplit = megabytes(key);
                    case "roundup_power2_divisions" -> divisions(key);
                    case "garbage_collection_threshold" -> gc = fraction(key, false);
                    case "per_process_memory_fraction" -> fraction = fraction(key, true);
                    case "backend" -> backend(key);
                    case "release_lock_on_cudamalloc", "release_lock_on_hipmalloc", "pinned_use_cuda_host_register",
                         "pinned_use_hip_host_register", "pinned_use_background_threads",
                         "graph_capture_record_stream_reuse" -> bool(key);
                    case "pinned_num_register_threads" -> registerThreads(key);
                    case "pinned_reserve_segment_size_mb" -> positive(key);
                    default -> {
                        if (!laterKeys.contains(key)) throw new IllegalStateException(key + " is in " + rules + "'s keys but not read");
                        integer(key, value(key));
                    }
                }
                if (i < t.size()) expect(",", key);
            }
            return new AllocConf(expandable, maxSplit, maxNonSplit, divisions, gc, fraction);
        }

        private String value(String key) {
            if (i >= t.size() || isPunct(t.get(i))) throw bad(key, i < t.size() ? t.get(i) : "", "a value");
            return t.get(i++);
        }

        private void expect(String token, String key) {
            if (i >= t.size() || !t.get(i).equals(token)) {
                throw new IllegalArgumentException("allocator config: expected '" + token + "' after '" + key
                        + "'" + (i < t.size() ? ", found '" + t.get(i) + "'" : ""));
            }
            i++;
        }

        /** CFG:335-345: exactly {@code True} or {@code False}. */
        private boolean bool(String key) {
            String v = value(key);
            if (v.equals("True")) return true;
            if (v.equals("False")) return false;
            throw bad(key, v, "True or False (case-sensitive)");
        }

        /**
         * {@code parseMaxSplitSize}: an integer number of MB that must be > 20, stored as bytes.
         * PyTorch up to 2.9 (c10/cuda/CUDAAllocatorConfig.cpp) refuses 20; newer releases, which
         * parse through c10/core/AllocatorConfig.cpp, accept it ({@code >= 20} there).
         */
        private long megabytes(String key) {
            String v = value(key);
            long mb = integer(key, v);
            if (rules.twentyAccepted && mb < 20) {
                throw bad(key, v, "a number of MB >= 20 (\"too small, must be >= 20\" in "
                        + "c10/core/AllocatorConfig.cpp, " + rules + ")");
            }
            if (!rules.twentyAccepted && mb <= 20) {
                throw bad(key, v, "a number of MB > 20 (\"too small, must be > 20\" in PyTorch up to 2.9,"
                        + " c10/cuda/CUDAAllocatorConfig.cpp; 2.10 accepts 20: --pytorch-version 2.10)");
            }
            if (mb > Long.MAX_VALUE / MiB) return Long.MAX_VALUE;
            return mb * MiB;
        }

        /** CFG:127-143: strictly between 0 and 1 (the fraction also allows 0 and 1). */
        private double fraction(String key, boolean closed) {
            String v = value(key);
            double d;
            try {
                d = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw bad(key, v, "a number between 0 and 1");
            }
            boolean ok = closed ? d >= 0 && d <= 1 : d > 0 && d < 1;
            if (!ok) {
                throw bad(key, v, closed ? "a number in [0, 1] (\"" + key + " is invalid, set it in [0.0, 1.0]\")"
                        : "a number strictly between 0.0 and 1.0");
            }
            return d;
        }

        /**
         * {@code parseRoundUpPower2Divisions}: one power of two for every size, or
         * {@code [MB:div,...,>:div]}. A key {@code k} sets the interval {@code [k MB, 2k MB)}; the
         * first listed entry also fills every interval below it; {@code >} fills from the last
         * listed interval on, that interval INCLUDED ({@code last_index = index}, then
         * {@code std::fill(begin + last_index, end, val)}), so it overwrites it. That is PyTorch
         * up to 2.9; PR #165304 (October 2025, PyTorch 2.10) fills from the interval after it
         * ({@code last_index + 1}; {@link Rules#ACCELERATOR_CONFIG_0AC7166}). So the docs'
         * {@code [256:1,512:2,1024:4,>:8]} gives, by the default rules, 1 below 512 MB, 2 from
         * 512 MB, and 8 from 1 GB: its {@code 1024:4} is overwritten.
         */
        private void divisions(String key) {
            if (i < t.size() && t.get(i).equals("[")) {
                i++;
                int last = 0;
                boolean first = true;
                while (i < t.size() && !t.get(i).equals("]")) {
                    String start = value(key);
                    expect(":", key);
                    String dv = value(key);
                    long d = powerOfTwoOrZero(key, dv);
                    if (start.equals(">")) {
                        // from the last listed, inclusive, or after it (Rules)
                        Arrays.fill(divisions, Math.min(INTERVALS, last + (rules.fillAfterLast ? 1 : 0)), INTERVALS, d);
                    } else {
                        long mb = integer(key, start);
                        if (!Bytes.isPowerOfTwo(mb)) throw bad(key, start, "interval starts in MB that are powers of two");
                        int index = Math.min(63 - Long.numberOfLeadingZeros(mb), INTERVALS - 1);
                        if (first) Arrays.fill(divisions, 0, index, d);   // the first entry fills below it
                        first = false;
                        divisions[index] = d;
                        last = index;
                    }
                    if (i < t.size() && t.get(i).equals(",")) i++;
                }
                expect("]", key);
            } else {
                String v = value(key);
                Arrays.fill(divisions, powerOfTwoOrZero(key, v));
            }
        }

        private void backend(String key) {
            String v = value(key);
            if (v.equals("native")) return;
            if (v.equals("cudaMallocAsync")) throw bad(key, v, "native (cudaMallocAsync is not simulated)");
            throw bad(key, v, "native or cudaMallocAsync");
        }

        /** {@code parsePinnedReserveSegmentSize}: an integer that "has to be greater than 0". */
        private void positive(String key) {
            String v = value(key);
            if (integer(key, v) <= 0) throw bad(key, v, "a number of MB greater than 0");
        }

        /** CFG.h:69-74: a power of two, at most 128. */
        private void registerThreads(String key) {
            String v = value(key);
            long n = integer(key, v);
            if (!Bytes.isPowerOfTwo(n) || n > 128) throw bad(key, v, "a power of two up to 128");
        }

        private long powerOfTwoOrZero(String key, String v) {
            long d = integer(key, v);
            if (d != 0 && !Bytes.isPowerOfTwo(d)) throw bad(key, v, "a power of two (divisions)");
            return d;
        }

        private long integer(String key, String v) {
            try {
                long n = Long.parseLong(v);
                if (n < 0) throw bad(key, v, "a non-negative integer");
                return n;
            } catch (NumberFormatException e) {
                throw bad(key, v, "an integer");
            }
        }

        private static boolean isPunct(String s) {
            return s.equals(",") || s.equals(":") || s.equals("[") || s.equals("]");
        }

        private static IllegalArgumentException bad(String key, String value, String expected) {
            return new IllegalArgumentException("bad value '" + value + "' for " + key + ": expected " + expected);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AllocConf c && c.expandableSegments == expandableSegments
                && c.maxSplitSize == maxSplitSize && c.maxNonSplitRounding == maxNonSplitRounding
                && Arrays.equals(c.roundupPower2Divisions, roundupPower2Divisions)
                && c.garbageCollectionThreshold == garbageCollectionThreshold
                && c.memoryFraction == memoryFraction;
    }

    @Override
    public int hashCode() { return Arrays.hashCode(roundupPower2Divisions) * 31 + Long.hashCode(maxSplitSize); }

    /** The divisions in the list syntax, one entry per interval: {@code [1:4,2:4,...,32768:0]}. */
    private String divisionsList() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < INTERVALS; i++) {
            if (i > 0) sb.append(',');
            sb.append(1L << i).append(':').append(roundupPower2Divisions[i]);
        }
        return sb.append(']').toString();
    }

    /**
     * The options as a config string that {@link #parse} reads back to an equal value; a memory
     * fraction prints as 2.10's {@code per_process_memory_fraction}, which only 2.10's rules read.
     */
    @Override
    public String toString() {
        return "expandable_segments:" + (expandableSegments ? "True" : "False")
                + (maxSplitSize == Long.MAX_VALUE ? "" : ",max_split_size_mb:" + maxSplitSize / MiB)
                + (maxNonSplitRounding == 20 * MiB ? "" : ",max_non_split_rounding_mb:" + maxNonSplitRounding / MiB)
                + (Arrays.stream(roundupPower2Divisions).allMatch(d -> d == 0) ? ""
                    : ",roundup_power2_divisions:" + divisionsList())
                + (garbageCollectionThreshold == 0 ? "" : ",garbage_collection_threshold:" + garbageCollectionThreshold)
                + (memoryFraction < 0 ? "" : ",per_process_memory_fraction:" + memoryFraction);
    }
}
