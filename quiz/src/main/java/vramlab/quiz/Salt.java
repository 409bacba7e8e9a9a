package vramlab.quiz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The instructor's secret that turns a student id into graded numbers. Without one, variants
 * are the practice variants anyone can print; with one (from {@code -Dvramlab.salt},
 * {@code VRAMLAB_SALT}, or the first line of the file named by {@code -Dvramlab.salt.file} or
 * {@code VRAMLAB_SALT_FILE}), a student cannot compute the numbers the grader will use.
 * The value is never printed.
 */
public final class Salt {
    public static final Salt PRACTICE = new Salt("practice", true);

    private final String value;
    private final boolean practice;

    private Salt(String value, boolean practice) {
        this.value = value;
        this.practice = practice;
    }

    public static Salt of(String secret) {
        if (secret == null || secret.isBlank()) throw new IllegalArgumentException("an instructor salt must not be blank");
        return new Salt(secret.strip(), false);
    }

    /** The salt this run is configured with, or {@link #PRACTICE}. */
    public static Salt resolve() {
        String v = first(System.getProperty("vramlab.salt"), System.getenv("VRAMLAB_SALT"));
        if (v != null) return of(v);
        String file = first(System.getProperty("vramlab.salt.file"), System.getenv("VRAMLAB_SALT_FILE"));
        if (file == null) return PRACTICE;
        try {
            String text = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
            int nl = text.indexOf('\n');
            return of(nl < 0 ? text : text.substring(0, nl));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UncheckedIOException("salt file " + file + ": no such file", e);   // its message is the path again
        } catch (IOException e) {
            throw new UncheckedIOException("salt file " + file + ": " + e.getMessage(), e);
        }
    }

    private static String first(String a, String b) {
        if (a != null && !a.isBlank()) return a;
        return b != null && !b.isBlank() ? b : null;
    }

    public boolean isPractice() { return practice; }

    String value() { return value; }

    @Override
    public String toString() { return practice ? "practice" : "instructor salt"; }
}
