package vramlab.lab;

/** A stand-in for the cores' Todo (the harness knows it by name), for StepOrderTest. */
public final class Todo extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;
    private final String step;

    public Todo(String step, String title) {
        super("TODO step " + step + " (" + title + ") is not written yet: read the notes");
        this.step = step;
    }

    public String step() { return step; }
}
