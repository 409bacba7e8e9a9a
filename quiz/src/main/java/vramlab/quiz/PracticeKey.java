package vramlab.quiz;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * The practice numbers' key as a student release holds it: for every blank, a keyed hash of its
 * canonical right answer (the size in bytes, the whole number, the constant's name), never the
 * answer. A release has no reference simulator to compute keys with, so {@code ./vramlab release}
 * writes one of these per chapter ({@code vramlab/quiz/practice/chNN.json}) from the
 * instructor's copy, and the release's {@code quiz --check} and graded run mark a practice sheet
 * with it: the student's answer is read as the kit reads it (units, case, spaces), made canonical
 * and hashed the same way, and the reasons are the instructor's copy's own words.
 *
 * <ul>
 * <li>The hash is SHA-256 of a nonce, the blank's key and the canonical answer, cut to 128
 *     bits: the same answer hashes apart in two blanks, two chapters or two variants. The nonce
 *     is derived from the chapter and the variant ({@link #nonce}), not drawn at random, so two
 *     releases of the same practice numbers write the same file and a rebuilt release diffs
 *     clean. A random one hid nothing: it is written in the file, so whoever holds the file can
 *     hash candidate answers with it either way, and the practice numbers, hence their answers,
 *     are the same in every release.</li>
 * <li>A set of choices keeps, per constant, the hash of "in" or "out" of the set, so the count
 *     of missing and extra constants can be said, as the instructor's copy says it.</li>
 * <li>A size the simulator tries ("a request that succeeds now") keeps the spans of accepted
 *     sizes as comparisons on hashed bit prefixes: n &gt; lo when, at some bit where n has a 1
 *     and lo a 0, the bits above are equal, so the set of hashes of lo's prefixes above its 0
 *     bits lets n be compared with lo without lo being written.</li>
 * </ul>
 *
 * <p>Like any self-check, the checker answers "right or wrong" for whatever a student tries; it
 * says nothing more than the instructor's copy does, and it holds the practice numbers only: a
 * graded (salted) variant is never in a release.
 */
public final class PracticeKey {
    /** Where a release keeps chapter {@code chNN}'s file, on the class path and under {@code quiz/src/main/resources}. */
    public static String resource(String chapter) { return "vramlab/quiz/practice/" + chapter + ".json"; }

    private PracticeKey() {}

    record File(String chapter, String variant, String nonce, List<Q> questions) {}

    record Q(String id, String title, String prompt, List<P> parts) {}

    record P(String label, int points, List<B> blanks) {}

    /** {@code aliases}: for a choice, older names of its constants, old to today's (none: null). */
    record B(String key, String form, String kind, String what, List<String> options, String hash,
             List<String> members, List<SpanHash> spans, java.util.Map<String, String> aliases) {}

    record SpanHash(String lo, List<String> above, String hi, List<String> below) {}

    /** The file for {@code chapter}'s practice variant: every question's blanks, hashed. */
    public static String write(String chapter, List<Question> questions) {
        Variant v = Variant.seed(chapter);
        String nonce = nonce(chapter, v);
        List<Q> qs = new ArrayList<>();
        for (Question q : questions) {
            List<P> ps = new ArrayList<>();
            for (Part p : q.parts(v)) {
                List<B> bs = new ArrayList<>();
                for (Blank b : p.blanks()) bs.add(hashed(nonce, b));
                ps.add(new P(p.label(), p.points(), bs));
            }
            qs.add(new Q(q.id(), q.title(), q.prompt(v), ps));
        }
        return Json.write(new File(chapter, v.fingerprint(), nonce, qs), 5) + "\n";
    }

    /** {@code chapter}'s nonce for variant {@code v}: SHA-256 of both, cut to 128 bits, as hex; the same on every run. */
    static String nonce(String chapter, Variant v) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] d = md.digest(("vramlab practice key\0" + chapter + "\0" + v.fingerprint()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static B hashed(String nonce, Blank b) {
        String k = b.key();
        Blank.Check c = b.check();
        if (c instanceof Blanks.SizeIs s) return new B(k, b.form(), "size", null, null, h(nonce, k, "=", Long.toString(s.expected())), null, null, null);
        if (c instanceof Blanks.NumberIs s) return new B(k, b.form(), "number", null, null, h(nonce, k, "=", Long.toString(s.expected())), null, null, null);
        if (c instanceof Blanks.OneOf<?> o) {
            return new B(k, b.form(), "choice", null, Blanks.names(o.type()), h(nonce, k, "=", o.expected().name()), null, null,
                    o.aliases().isEmpty() ? null : o.aliasNames());
        }
        if (c instanceof Blanks.SetOf<?> o) {
            List<String> names = Blanks.names(o.type());
            TreeSet<String> members = new TreeSet<>();
            for (Enum<?> e : o.type().getEnumConstants()) {
                members.add(h(nonce, k, o.want().contains(e) ? "in" : "out", e.name()));
            }
            return new B(k, b.form(), "choices", null, names, null, List.copyOf(members), null, null);
        }
        if (c instanceof Blanks.SizeWhere w) {
            List<SpanHash> spans = new ArrayList<>();
            List<Blanks.Span> accepted = w.accepted().get();
            for (int i = 0; i < accepted.size(); i++) spans.add(span(nonce, k + "#" + i, accepted.get(i)));
            return new B(k, b.form(), "sizeThat", w.what(), null, null, null, spans, null);
        }
        throw new IllegalStateException(k + ": a blank whose check (" + c.getClass().getName()
                + ") a release cannot hash; make it with vramlab.quiz.Blanks");
    }

    private static SpanHash span(String nonce, String tag, Blanks.Span s) {
        TreeSet<String> above = new TreeSet<>(), below = new TreeSet<>();
        for (int j = 0; j < 63; j++) {
            if ((s.lo() >>> j & 1) == 0) above.add(h(nonce, tag, "gt" + j, Long.toString(s.lo() >>> (j + 1))));
            if ((s.hi() >>> j & 1) == 1) below.add(h(nonce, tag, "lt" + j, Long.toString(s.hi() >>> (j + 1))));
        }
        return new SpanHash(h(nonce, tag, "lo", Long.toString(s.lo())), List.copyOf(above),
                h(nonce, tag, "hi", Long.toString(s.hi())), List.copyOf(below));
    }

    private static boolean inSpan(String nonce, String tag, SpanHash s, long n) {
        boolean atLeastLo = h(nonce, tag, "lo", Long.toString(n)).equals(s.lo());
        boolean atMostHi = h(nonce, tag, "hi", Long.toString(n)).equals(s.hi());
        for (int j = 0; j < 63 && !(atLeastLo && atMostHi); j++) {
            String above = Long.toString(n >>> (j + 1));
            if (!atLeastLo && (n >>> j & 1) == 1 && s.above().contains(h(nonce, tag, "gt" + j, above))) atLeastLo = true;
            if (!atMostHi && (n >>> j & 1) == 0 && s.below().contains(h(nonce, tag, "lt" + j, above))) atMostHi = true;
        }
        return atLeastLo && atMostHi;
    }

    /**
     * The questions of a practice key file, marking as the reference's own do for the practice
     * variant; {@code parse} reads a size as the kit does ({@code Bytes::parse}).
     */
    public static List<Question> read(String json, ToLongFunction<String> parse) {
        File f = Json.read(json, File.class);
        List<Question> out = new ArrayList<>();
        for (Q q : f.questions()) out.add(new Hashed(f, q, parse));
        return List.copyOf(out);
    }

    /**
     * In a student release at {@code root}: every chapter's practice questions from the key files
     * under {@code quiz/src/main/resources}, sizes read by the kit's {@code vramlab.units.Bytes.parse}
     * (found on this class path); empty when there are none.
     */
    public static List<Question> inRelease(java.nio.file.Path root) throws java.io.IOException {
        java.nio.file.Path dir = root.resolve("quiz/src/main/resources").resolve(resource("x")).getParent();
        if (!java.nio.file.Files.isDirectory(dir)) return List.of();
        ToLongFunction<String> parse = bytesParse();
        List<Question> out = new ArrayList<>();
        try (var s = java.nio.file.Files.list(dir)) {
            for (java.nio.file.Path f : s.filter(p -> p.getFileName().toString().matches("ch\\d\\d\\.json")).sorted().toList()) {
                out.addAll(read(java.nio.file.Files.readString(f, StandardCharsets.UTF_8), parse));
            }
        }
        return List.copyOf(out);
    }

    private static ToLongFunction<String> bytesParse() {
        try {
            java.lang.reflect.Method m = Class.forName("vramlab.units.Bytes").getMethod("parse", String.class);
            return a -> {
                try {
                    return (long) m.invoke(null, a);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalArgumentException(e.getCause());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            };
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("vramlab.units.Bytes.parse is not on the class path: " + e, e);
        }
    }

    /** The practice variant's fingerprint that a key file holds. */
    public static String variant(String json) { return Json.read(json, File.class).variant(); }

    /** One question of a key file: its parts for the practice variant, and no other. */
    private record Hashed(File f, Q q, ToLongFunction<String> parse) implements Question {
        @Override public String id() { return q.id(); }
        @Override public String title() { return q.title(); }
        @Override public String chapter() { return f.chapter(); }

        /** The same for every variant (a question's contract), so it answers for any. */
        @Override public int points(Variant v) { return q.parts().stream().mapToInt(P::points).sum(); }

        @Override
        public String prompt(Variant v) {
            practiceOnly(v);
            return q.prompt();
        }

        @Override
        public List<Part> parts(Variant v) {
            practiceOnly(v);
            List<Part> parts = new ArrayList<>();
            for (P p : q.parts()) {
                List<Blank> blanks = new ArrayList<>();
                for (B b : p.blanks()) blanks.add(new Blank(b.key(), b.form(), check(b), null));
                parts.add(new Part(p.label(), p.points(), blanks));
            }
            return parts;
        }

        private void practiceOnly(Variant v) {
            if (!v.fingerprint().equals(f.variant())) {
                throw new IllegalStateException("this copy holds the key of the practice numbers only (variant "
                        + f.variant() + "), not of variant " + v.fingerprint() + ": your instructor marks that one");
            }
        }

        private Blank.Check check(B b) {
            String nonce = f.nonce(), k = b.key();
            return switch (b.kind()) {
                case "size" -> a -> {
                    Long v = Blanks.readSize(parse, a);
                    if (v == null) return Blanks.cannotRead(parse, a);
                    return h(nonce, k, "=", Long.toString(v)).equals(b.hash()) ? null : Blanks.notTheSize(a);
                };
                case "number" -> a -> {
                    Long v = Blanks.readNumber(a);
                    if (v == null) return "could not read '" + a + "' as a whole number";
                    return h(nonce, k, "=", Long.toString(v)).equals(b.hash()) ? null : Blanks.NOT_THE_NUMBER;
                };
                case "choice" -> a -> {
                    String name = Blanks.readName(b.options(), b.aliases(), a);
                    if (name == null) return Blanks.notOneOf(a, b.options());
                    return h(nonce, k, "=", name).equals(b.hash()) ? null : Blanks.NOT_THE_CHOICE;
                };
                case "choices" -> a -> {
                    TreeSet<String> got = new TreeSet<>();
                    for (String part : a.split("[,;]")) {
                        if (part.isBlank()) continue;
                        String name = Blanks.readName(b.options(), part);
                        if (name == null) return Blanks.notOneOf(part.strip(), b.options());
                        got.add(name);
                    }
                    int missing = 0, extra = 0;
                    for (String o : b.options()) {
                        boolean in = b.members().contains(h(nonce, k, "in", o));
                        if (in && !got.contains(o)) missing++;
                        if (!in && got.contains(o)) extra++;
                    }
                    return missing == 0 && extra == 0 ? null : Blanks.missingExtra(missing, extra);
                };
                case "sizeThat" -> a -> {
                    Long v = Blanks.readSize(parse, a);
                    if (v == null) return Blanks.cannotRead(parse, a);
                    if (v <= 0) return "a request must be at least 1 byte";
                    for (int i = 0; i < b.spans().size(); i++) if (inSpan(nonce, k + "#" + i, b.spans().get(i), v)) return null;
                    return Blanks.notWhat(a, b.what());
                };
                default -> throw new IllegalArgumentException(k + ": unknown kind " + b.kind());
            };
        }
    }

    static String h(String nonce, String key, String tag, String value) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] d = md.digest((nonce + "\0" + key + "\0" + tag + "\0" + value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
