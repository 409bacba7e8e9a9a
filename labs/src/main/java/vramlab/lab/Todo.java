package vramlab.lab;

/**
 * What an unwritten lab step throws. The lab generator replaces each marked step in
 * {@code solutions/} with {@code throw new Todo(...)}, so a student's first run of a graded
 * test fails with the step to write and the section of the notes to read.
 */
public final class Todo extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    private final String step;

    public Todo(String step, String title, String notes, String file) {
        super("TODO step " + step + " (" + title + ") is not written yet: read the notes, "
                + notes + ", then write it in " + file);
        this.step = step;
    }

    /** The step's number, for example {@code 3.2}. */
    public String step() { return step; }
}
