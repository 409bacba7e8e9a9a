package vramlab.site;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the prose words of a chapter's notes: paragraph text only. A port of the course's
 * {@code prose_words.py}, rule for rule: listing, literal, table, comment, passthrough and quote
 * blocks ({@code ----}, {@code ....}, {@code |===}, {@code ////}, {@code ++++}, {@code ____}),
 * list items and their continuation lines (up to the next blank line), {@code +} list
 * continuations, headings ({@code =}), attributes ({@code :name:}), comments ({@code //}),
 * {@code include::}, {@code image::}, {@code ifdef::}/{@code ifndef::}/{@code endif::},
 * {@code toc::}, block attribute lines ({@code [source,java]}) and open-block fences
 * ({@code --}) are not counted. A word starts with a letter or digit and runs on through
 * letters, digits and {@code '’.,;:()/_+-}.
 */
final class ProseWords {
    private static final Pattern DELIMITER = Pattern.compile("-{4,}|\\.{4,}|\\|===|/{4,}|\\+{4,}|_{4,}");
    private static final Pattern LIST_ITEM = Pattern.compile("^(\\*+|\\.+|-|\\d+\\.)\\s",
            Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern DESCRIPTION = Pattern.compile("^\\S.*::(\\s.*)?$",
            Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern BLOCK_ATTRIBUTES = Pattern.compile("\\[.*]");
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9][A-Za-z0-9'\u2019.,;:()/_+-]*");
    private static final String[] DIRECTIVES = {"=", ":", "//", "include::", "image::", "ifdef::",
            "ifndef::", "endif::", "toc::"};

    private ProseWords() {}

    /** The prose words of one AsciiDoc text. */
    static int count(String text) {
        int words = 0;
        String delimiter = null;
        boolean inList = false;
        for (String raw : text.split("\\R", -1)) {
            String s = raw.strip();
            if (delimiter != null) {
                if (s.equals(delimiter)) delimiter = null;
                continue;
            }
            if (DELIMITER.matcher(s).matches()) {
                delimiter = s;
                continue;
            }
            if (s.isEmpty()) {
                inList = false;
                continue;
            }
            if (LIST_ITEM.matcher(s).find() || DESCRIPTION.matcher(s).matches()) {
                inList = true;
                continue;
            }
            if (inList || s.equals("+") || isDirective(s)) continue;
            if (BLOCK_ATTRIBUTES.matcher(s).matches() || s.equals("--")) continue;
            Matcher m = WORD.matcher(s);
            while (m.find()) words++;
        }
        return words;
    }

    private static boolean isDirective(String s) {
        for (String d : DIRECTIVES) if (s.startsWith(d)) return true;
        return false;
    }
}
