package vramlab.snapshot;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.trace.TraceException;

/**
 * A field of a snapshot the kit cannot read, named by its path in the file's own dict
 * ({@code segments[3].blocks[2]}, {@code device_traces[0][41]}) and, when the complaint is about
 * one of its keys, that key. {@link SnapshotReader} throws it while it walks the unpickled or
 * parsed dict, where no line is known; {@link #at} turns it into the one-line
 * {@link TraceException} the user sees: at the line and column where the value starts in a JSON
 * file, by its path alone in a pickle (whose dict no longer knows the byte it came from).
 */
final class FieldError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final Pattern STEP = Pattern.compile("([^.\\[\\]]+)|\\[([^\\]]*)\\]");

    private final String path;
    private final String key;
    private final String what;

    /**
     * @param path where the field is: dict keys joined by dots, list indices in brackets
     * @param key  the key of that dict the complaint is about when it is present, else null
     * @param what what is wrong: "is not a dict (found ...)", "has no integer 'size' (...)"
     */
    FieldError(String path, String key, String what) {
        super(path + (what.startsWith("is ") || what.startsWith("has ") ? " " : ": ") + what, null, false, false);
        this.path = path;
        this.key = key;
        this.what = what;
    }

    /**
     * The user's error: {@code file:LINE:COLUMN: path ...} when {@code json} holds the file's
     * JSON text (the place of the key's value, else of the field), {@code file: path ...}
     * otherwise. {@code bareList}: the file's root is the list of segments itself, so the path's
     * {@code segments} is the root.
     */
    TraceException at(String file, byte[] json, boolean bareList) {
        if (json != null) {
            StringBuilder pointer = new StringBuilder();
            Matcher m = STEP.matcher(path);
            boolean first = true;
            while (m.find()) {
                String step = m.group(1) != null ? m.group(1) : m.group(2);
                if (!(first && bareList && step.equals("segments"))) pointer.append('/').append(escape(step));
                first = false;
            }
            Json.Place at = key == null ? null : Json.locate(json, pointer + "/" + escape(key));
            if (at == null) at = Json.locate(json, pointer.toString());
            if (at != null) return new TraceException(file, at.line(), at.column(), getMessage());
        }
        return new TraceException(file, 0, getMessage());
    }

    /**
     * The user's error for a file with no JSON text (a pickle): {@code file: path ...}. Kept apart
     * from {@link #at} so the browser's build (TeaVM, which cannot compile Jackson's parser) never
     * reaches the JSON locator through the pickle path.
     */
    TraceException atPath(String file) {
        return new TraceException(file, 0, getMessage());
    }

    /** RFC 6901's escapes for a JSON Pointer step. */
    private static String escape(String step) {
        return step.replace("~", "~0").replace("/", "~1");
    }

    String path() { return path; }
    String what() { return what; }
}
