package vramlab.triage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pasted error message made readable: Python-repr escapes undone, log prefixes stripped,
 * lines grouped by the process that printed them, and every group squeezed free of whitespace,
 * so that a line wrapped anywhere (even inside a word or a number) reads as it was printed.
 */
public final class Paste {
    /** The lines one process printed, as text and squeezed (no whitespace at all). */
    public record Source(String name, String text, String squeezed) {}

    /**
     * Prefixes that name the process: PyTorch's {@code [rank3]:} (init_process_group's excepthook),
     * torchrun's {@code [default0]:} under --tee, Ray's {@code (Worker pid=5)},
     * vLLM's {@code (VllmWorker rank=1 pid=5)} and {@code (VllmWorker TP1 pid=5)} (see
     * {@link Clue#DISTRIBUTED}); the name keeps every word before the pid.
     */
    private static final Pattern RANK = Pattern.compile("^\\s*\\[(rank|default)(\\d+)\\]:?\\s?");
    private static final Pattern WORKER =
            Pattern.compile("^\\s*\\(([\\w.-]+(?: [\\w.-]+(?:=[^\\s)]+)?)*) pid=(\\d+)\\)\\s?");

    /** Prefixes that carry no identity: levels, timestamps, quote and comment marks. */
    private static final List<Pattern> NOISE = List.of(
            // vLLM: ERROR 03-14 05:16:58 [core.py:843]
            Pattern.compile("^\\s*(?:ERROR|WARNING|INFO|DEBUG|CRITICAL)\\s+\\d\\d-\\d\\d\\s+"
                    + "\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?\\s+\\[[^\\]]*\\]\\s?"),
            // ISO-ish timestamps, optionally followed by " - name - LEVEL - "
            Pattern.compile("^\\s*\\[?\\d{4}-\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d+)?Z?\\]?"
                    + "(?:\\s+-\\s+[\\w.]+){0,2}(?:\\s+-\\s+|:\\s*|\\s+)"),
            // glog: E0314 05:16:58.123456  4242 file.cc:123]
            Pattern.compile("^\\s*[IWEF]\\d{4}\\s+\\d\\d:\\d\\d:\\d\\d\\.\\d+\\s+\\d+"
                    + "\\s+[\\w./-]+:\\d+\\]\\s?"),
            // Python logging's default format: ERROR:root:
            Pattern.compile("^\\s*(?:ERROR|WARNING|INFO|DEBUG|CRITICAL):[\\w.]*:\\s?"),
            // loguru, after its timestamp: "| ERROR    | trainer:step:88 - "
            Pattern.compile("^\\s*\\|\\s*[A-Z]+\\s*\\|\\s*[\\w.:<>-]+\\s+-\\s"),
            // containerd's log lines, after their timestamp: "stderr F "
            Pattern.compile("^\\s*(?:stdout|stderr) [FP] "),
            // srun -l: "3: "
            Pattern.compile("^\\s*\\d{1,4}:\\s"),
            // quoted mail or markdown, and code comments
            Pattern.compile("^\\s*(?:>|#|//)\\s?"));

    /** Terminal colour and cursor codes, which logs keep when piped: ESC [ ... letter. */
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]");

    private Paste() {}

    /** Reads a paste into one source per process, in order of first appearance. */
    public static List<Source> read(String raw) {
        String text = ANSI.matcher(unescapeRepr(raw == null ? "" : raw)).replaceAll("");
        Map<String, StringBuilder> groups = new LinkedHashMap<>();
        String current = "";
        for (String line : text.split("\r\n|\r|\n", -1)) {
            String[] keyAndRest = stripPrefixes(line);
            if (keyAndRest[0] != null) current = keyAndRest[0];
            groups.computeIfAbsent(current, k -> new StringBuilder()).append(keyAndRest[1]).append('\n');
        }
        List<Source> sources = new ArrayList<>();
        groups.forEach((name, sb) -> {
            String t = sb.toString();
            if (!t.isBlank()) sources.add(new Source(name, t, squeeze(t)));
        });
        return sources;
    }

    /** Removes every whitespace character. */
    public static String squeeze(String s) { return s.replaceAll("\\s+", ""); }

    /** Returns {process name or null, the line without its prefixes}. */
    static String[] stripPrefixes(String line) {
        String key = null;
        String rest = line;
        boolean again = true;
        while (again) {
            again = false;
            Matcher m = RANK.matcher(rest);
            if (m.find()) {
                key = (m.group(1).equals("rank") ? "rank " : "local rank ") + m.group(2);
                rest = rest.substring(m.end());
                again = true;
                continue;
            }
            m = WORKER.matcher(rest);
            if (m.find()) {
                key = m.group(1) + " pid " + m.group(2);
                rest = rest.substring(m.end());
                again = true;
                continue;
            }
            for (Pattern p : NOISE) {
                m = p.matcher(rest);
                if (m.find() && m.end() > 0) {
                    rest = rest.substring(m.end());
                    again = true;
                    break;
                }
            }
        }
        return new String[] {key, rest};
    }

    /**
     * Undoes the escapes of a Python {@code repr} or a JSON string: {@code \n \r \t \' \" \\}.
     * Any other backslash is kept as it is.
     */
    static String unescapeRepr(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                sb.append(c);
                continue;
            }
            char n = s.charAt(i + 1);
            switch (n) {
                case 'n', 'r' -> sb.append('\n');
                case 't' -> sb.append(' ');
                case '\'', '"', '\\' -> sb.append(n);
                default -> {
                    sb.append(c);
                    continue;
                }
            }
            i++;
        }
        return sb.toString();
    }
}
