package vramlab.site;

import java.util.Locale;

/**
 * Which readers a render is for. Both editions come from the same notes and decks; they differ
 * in the listings of graded steps: the student edition shows a step's contract (signature,
 * Javadoc) and one line where its body would be, the instructor edition the reference body; and
 * in the playgrounds' bundle: the student edition's is compiled from the cores as handed out and
 * shows the reference's results, recorded, for its preset inputs.
 */
public enum Edition {
    STUDENT("site"),
    INSTRUCTOR("site-instructor");

    private final String folder;

    Edition(String folder) { this.folder = folder; }

    /** The output folder's name under {@code site/target/}: {@code site} or {@code site-instructor}. */
    public String folder() { return folder; }

    public String id() { return name().toLowerCase(Locale.ROOT); }

    /** {@code student} or {@code instructor}, any case; anything else is an error naming both. */
    public static Edition parse(String s) {
        for (Edition e : values()) if (e.id().equalsIgnoreCase(s.trim())) return e;
        throw new IllegalArgumentException("edition '" + s + "': expected student or instructor");
    }
}
