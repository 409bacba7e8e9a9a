package vramlab.cli;

/** Bad input or usage: the launcher prints {@code error: <where>: <what>} and exits 2. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String where, String what) { super(where + ": " + what); }
}
