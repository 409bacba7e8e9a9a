package vramlab.quiz;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * One student's numbers for one chapter's quiz: every choice a question makes (sizes, device
 * capacity, hole pattern) is drawn from SHA-256(salt, chapter, student, what), so the same
 * student always gets the same numbers, and different students (almost always) different ones.
 * The student {@value #SEED} gets the notes' own numbers; questions check
 * {@link #isSeed()} and use them.
 */
public final class Variant {
    public static final String SEED = "seed";

    private final String chapter;
    private final String student;
    private final byte[] digest;

    private Variant(String chapter, String student, byte[] digest) {
        this.chapter = chapter;
        this.student = student;
        this.digest = digest;
    }

    /** The variant of {@code student} (null or blank: the practice numbers) under {@code salt}. */
    public static Variant of(String chapter, String student, Salt salt) {
        String id = student == null || student.isBlank() ? SEED : student.strip();
        return new Variant(chapter, id, sha256(salt.value() + "\0" + chapter + "\0" + id));
    }

    public static Variant seed(String chapter) { return of(chapter, SEED, Salt.PRACTICE); }

    public String chapter() { return chapter; }
    public String student() { return student; }
    public boolean isSeed() { return SEED.equals(student); }

    /** Eight hex digits that name this variant on an answer sheet without revealing the salt. */
    public String fingerprint() { return HexFormat.of().formatHex(digest, 0, 4); }

    /** A random generator for {@code what}, the same every time for this variant. */
    public Random random(String what) {
        byte[] d = sha256(HexFormat.of().formatHex(digest) + "\0" + what);
        long seed = 0;
        for (int i = 0; i < 8; i++) seed = seed << 8 | (d[i] & 0xff);
        return new Random(seed);
    }

    /** A whole number in {@code [lo, hi]} for {@code what}. */
    public long between(String what, long lo, long hi) {
        if (hi < lo) throw new IllegalArgumentException("between(" + what + "): " + lo + " > " + hi);
        long span = hi - lo + 1;
        return lo + Math.floorMod(random(what).nextLong(), span);
    }

    /** One of {@code choices} for {@code what}. */
    public <T> T pick(String what, List<T> choices) {
        return choices.get((int) between(what, 0, choices.size() - 1));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    @Override
    public String toString() { return chapter + " variant " + fingerprint() + " (student " + student + ")"; }
}
