package vramlab.triage;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Figures written with a decimal comma ("Tried to allocate 1,96 GiB"), as a message reads once
 * something has rewritten it for a locale that writes one (a log viewer, a translated forum
 * post). PyTorch itself always prints a decimal point with two decimals: {@code format_size}
 * in c10/cuda/CUDACachingAllocator.cpp formats through a {@code std::ostringstream} with
 * {@code std::fixed} and precision 2, in the classic locale ("1.96 GiB", "1024.00 MiB").
 *
 * <p>The rule, so that a thousands separator is never read as a decimal one:
 * <ul>
 *   <li>a paste that has any figure with a decimal point ("2.00 GiB") is left alone: its commas
 *       are not decimal separators;</li>
 *   <li>otherwise a figure "&lt;digits&gt;,&lt;1 or 2 digits&gt; &lt;unit&gt;" reads as a
 *       decimal ("1,96 GiB" as 1.96 GiB), since that is {@code format_size}'s shape with its
 *       point turned into a comma;</li>
 *   <li>a figure with three digits after its comma ("1,024 MiB") is not {@code format_size}'s
 *       shape either way (1024 MiB with a thousands separator would have printed ".00"; a
 *       decimal comma would have two decimals), so it is left unread, named as missing, and a
 *       note says why: the kit does not guess between 1024 MiB and 1.024 MiB;</li>
 *   <li>a figure grouped with points and ending in a comma and two digits ("1.024,00 MiB",
 *       "24.576,00 MiB"), as a German locale prints 1024.00, reads as 1024.00 MiB: its points
 *       stand every three digits before the comma, and a comma last with two digits after it is
 *       {@code format_size}'s two decimals, so neither can be the other separator. Any other
 *       figure with both ("1.5,00 MiB", "1.024,5 MiB") is left unread.</li>
 * </ul>
 * The parser's size pattern never starts a figure right after a digit or a comma, so a figure
 * left unread is not misread as its tail ("1,024 MiB" as 24 MiB).
 */
final class DecimalCommas {
    private static final String UNIT = "(?:KiB|MiB|GiB|TiB|KB|MB|GB|TB)(?![A-Za-z])";
    /** A figure as PyTorch prints it: a decimal point, then a unit ("2.00 GiB", "0.50 MiB"). */
    private static final Pattern POINT_FIGURE = Pattern.compile("\\d\\.\\d+\\s*" + UNIT);
    /**
     * A figure with a comma: grouped with points, the comma last with two digits after it
     * (groups 1, 2: "1.024,00 MiB"), else one comma inside its digits (groups 3, 4: "1,96 GiB",
     * "1,024 MiB"); group 5 is the unit. A figure that is neither ("1.5,00 MiB") never matches:
     * no figure starts right after a digit, point or comma.
     */
    private static final Pattern COMMA_FIGURE = Pattern.compile("(?<![\\d.,])"
            + "(?:(\\d{1,3}(?:\\.\\d{3})+),(\\d{2})|(\\d+),(\\d+))(?![\\d.,])(\\s*" + UNIT + ")");

    /** The paste to read, and a note to show when its commas were read or left unread. */
    record Result(String text, String note) {}

    private DecimalCommas() {}

    static Result read(String raw) {
        if (raw == null || raw.indexOf(',') < 0) return new Result(raw, null);
        Matcher m = COMMA_FIGURE.matcher(raw);
        if (!m.find()) return new Result(raw, null);
        if (POINT_FIGURE.matcher(raw).find()) {
            return new Result(raw, "A figure with a comma (" + m.group().strip() + ") stands next to "
                    + "figures with a decimal point, so its comma is no decimal point; it is left "
                    + "unread.");
        }
        m.reset();
        // Built by hand, not with Matcher.appendReplacement: the playground runs triage in the
        // browser, compiled by TeaVM, whose Matcher lacks the StringBuilder forms.
        StringBuilder out = new StringBuilder();
        String example = null, grouped = null, groupedAs = null, unread = null;
        int read = 0, readGrouped = 0, left = 0, copied = 0;
        while (m.find()) {
            out.append(raw, copied, m.start());
            if (m.group(1) != null) {
                String digits = withoutPoints(m.group(1)) + '.' + m.group(2) + m.group(5);
                if (grouped == null) {
                    grouped = m.group().strip();
                    groupedAs = digits.strip();
                }
                out.append(digits);
                readGrouped++;
            } else if (m.group(4).length() <= 2) {
                if (example == null) example = m.group().strip();
                out.append(m.group(3)).append('.').append(m.group(4)).append(m.group(5));
                read++;
            } else {
                if (unread == null) unread = m.group().strip();
                out.append(m.group());
                left++;
            }
            copied = m.end();
        }
        out.append(raw, copied, raw.length());
        StringBuilder note = new StringBuilder();
        if (read > 0) {
            note.append("Commas were read as decimal points (").append(example).append(" as ")
                    .append(example.replace(',', '.')).append(", ").append(read)
                    .append(read == 1 ? " figure" : " figures").append("): PyTorch always prints "
                    + "a decimal point, so something rewrote this text for a locale that writes "
                    + "a decimal comma.");
        }
        if (readGrouped > 0) {
            if (note.length() > 0) note.append(' ');
            note.append("Points were read as thousands separators and the comma after them as a decimal "
                    + "point (").append(grouped).append(" as ").append(groupedAs).append(", ").append(readGrouped)
                    .append(readGrouped == 1 ? " figure" : " figures").append("): PyTorch prints no "
                    + "thousands separator and a decimal point, so something rewrote this text for a "
                    + "locale that writes 1.024,00.");
        }
        if (left > 0) {
            if (note.length() > 0) note.append(' ');
            note.append(left == 1 ? "A figure" : left + " figures").append(" such as ").append(unread)
                    .append(" (three digits after the comma) ").append(left == 1 ? "was" : "were")
                    .append(" left unread: PyTorch prints two decimals, so that comma may be a "
                    + "thousands separator or a decimal one, and the kit does not guess.");
        }
        return new Result(out.toString(), note.toString());
    }

    /** "1.024" as "1024": the digits of a figure grouped with points, by hand (TeaVM, above). */
    private static String withoutPoints(String groupedDigits) {
        StringBuilder b = new StringBuilder(groupedDigits.length());
        for (int i = 0; i < groupedDigits.length(); i++) {
            char c = groupedDigits.charAt(i);
            if (c != '.') b.append(c);
        }
        return b.toString();
    }
}
