package vramlab.site;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The texts a Java file can print: its text blocks, and its string literals with the literals of
 * one concatenation ({@code "a " + "b"}, across lines) joined into one text. A literal next to an
 * expression ends a text there; what the expression prints is not known without running it.
 */
final class JavaStrings {
    private JavaStrings() {}

    private static final Pattern TOKEN = Pattern.compile(
            "\"\"\"\\s*\\n(.*?)\"\"\"|\"((?:[^\"\\\\\\n]|\\\\.)*)\"|(\\+)|(//[^\\n]*|/\\*.*?\\*/)|(\\S)",
            Pattern.DOTALL);

    static List<String> of(String java) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean afterPlus = false;
        Matcher m = TOKEN.matcher(java);
        while (m.find()) {
            if (m.group(1) != null) {
                flush(out, current);
                out.add(m.group(1).replace("\\n", "\n"));
                afterPlus = false;
            } else if (m.group(2) != null) {
                if (!afterPlus) flush(out, current);
                current.append(m.group(2).replace("\\n", "\n").replace("\\\"", "\""));
                afterPlus = false;
            } else if (m.group(3) != null) {
                afterPlus = current.length() > 0;
            } else if (m.group(4) != null) {
                continue;   // a comment between literals keeps the concatenation
            } else {
                flush(out, current);
                afterPlus = false;
            }
        }
        flush(out, current);
        return out;
    }

    private static void flush(List<String> out, StringBuilder current) {
        if (current.length() > 0) out.add(current.toString());
        current.setLength(0);
    }
}
