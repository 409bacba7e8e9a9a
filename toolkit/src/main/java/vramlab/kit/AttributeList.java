package vramlab.kit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An AsciiDoc attribute list ({@code tags="a,b", indent=0}) read into names and values as
 * Asciidoctor reads it: {@code Asciidoctor::AttributeList#parse} in
 * {@code lib/asciidoctor/attribute_list.rb} (Asciidoctor 2.0.23, the one AsciidoctorJ 2.5.13
 * bundles), with the comma as delimiter and no block, as {@code preprocess_include_directive} in
 * {@code lib/asciidoctor/reader.rb} parses an include's list. What must hold, as there:
 * <ul>
 *   <li>attributes are separated by commas; a value may be in double or single quotes, which
 *       keep commas and spaces ({@code tags="a,b"}), with {@code \"} (or {@code \'}) for the
 *       quote itself; an unquoted value runs to the next comma, less the blanks before it;</li>
 *   <li>an entry with no {@code name=} is positional, kept under its 1-based index
 *       ({@code tags=a,b} is {@code tags=a} and positional {@code 2=b});</li>
 *   <li>an unquoted value {@code None} sets nothing; {@code opts}/{@code options} set
 *       {@code NAME-option} for each comma-separated name; a later name wins.</li>
 * </ul>
 * Attribute references ({@code {name}}) are the caller's to replace first (Asciidoctor's
 * {@code sub_input}).
 */
public final class AttributeList {
    /** {@code NameRx}: a word character, then word characters, dashes and dots. */
    private static final Pattern NAME = Pattern.compile("\\w[\\w\\-.]*", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern BLANK = Pattern.compile("[ \\t]+");
    /** {@code BoundaryRx[',']}: up to the blanks before a comma or the end. */
    private static final Pattern TO_DELIMITER = Pattern.compile(".*?(?=[ \\t]*(,|$))");
    private static final Pattern TO_DOUBLE_QUOTE = Pattern.compile(".*?[^\\\\](?=\")");
    private static final Pattern TO_SINGLE_QUOTE = Pattern.compile(".*?[^\\\\](?=')");
    /** {@code SkipRx[',']}. */
    private static final Pattern DELIMITER = Pattern.compile("[ \\t]*(,|$)");

    private final String source;
    private final Map<String, String> attributes = new LinkedHashMap<>();
    private int pos;

    private AttributeList(String source) {
        this.source = source;
    }

    /** The names and values of {@code attrlist}, in the order first set; positional ones under "1", "2"... */
    public static Map<String, String> parse(String attrlist) {
        AttributeList list = new AttributeList(attrlist == null ? "" : attrlist);
        if (!list.source.isEmpty()) list.parse();
        return list.attributes;
    }

    private void parse() {
        int index = 0;
        while (attribute(index)) {
            if (eos()) break;
            skip(DELIMITER);
            index++;
        }
    }

    /** One entry at {@code pos}; false when the list ends there. */
    private boolean attribute(int index) {
        boolean more = true;
        String name;
        String value = null;
        skip(BLANK);
        char c = eos() ? 0 : source.charAt(pos);
        if (c == '"' || c == '\'') {
            pos++;
            name = quoted(c);
        } else {
            name = scan(NAME);
            int skipped = name == null ? 0 : skip(BLANK);
            if (eos()) {
                if (name == null && !source.stripTrailing().endsWith(",")) return false;
                more = false;
            } else if ((c = source.charAt(pos++)) == ',') {
                pos--;
            } else if (name != null && c == '=') {
                skip(BLANK);
                value = value();
                if (value == null) return true;             // name=None sets nothing
            } else if (name != null) {
                name = name + " ".repeat(skipped) + c + scan(TO_DELIMITER);
            } else {
                name = c + scan(TO_DELIMITER);
            }
        }
        if (value != null) put(name, value);
        else if (name != null) attributes.put(String.valueOf(index + 1), name);
        return more;
    }

    /** The value after {@code name=}; null for an unquoted {@code None}. */
    private String value() {
        if (eos()) return "";
        char c = source.charAt(pos++);
        if (c == '"' || c == '\'') return quoted(c);
        if (c == ',') {
            pos--;
            return "";
        }
        String value = c + scan(TO_DELIMITER);
        return value.equals("None") ? null : value;
    }

    /** {@code parse_attribute_value}: after an opening {@code quote}, up to its closing one. */
    private String quoted(char quote) {
        if (!eos() && source.charAt(pos) == quote) {
            pos++;
            return "";
        }
        String value = scan(quote == '"' ? TO_DOUBLE_QUOTE : TO_SINGLE_QUOTE);
        if (value == null) return quote + scan(TO_DELIMITER);  // no closing quote: taken as written
        pos++;
        return value.replace("\\" + quote, String.valueOf(quote));
    }

    private void put(String name, String value) {
        if (!name.equals("options") && !name.equals("opts")) {
            attributes.put(name, value);
            return;
        }
        String list = value.contains(",") ? value.replace(" ", "") : value;
        for (String option : list.split(",")) if (!option.isEmpty()) attributes.put(option + "-option", "");
    }

    private boolean eos() {
        return pos >= source.length();
    }

    /** What {@code p} matches at {@code pos}, moving past it; null when it does not match there. */
    private String scan(Pattern p) {
        Matcher m = p.matcher(source).region(pos, source.length());
        if (!m.lookingAt()) return null;
        pos = m.end();
        return m.group();
    }

    /** How many characters {@code p} skips at {@code pos}. */
    private int skip(Pattern p) {
        String s = scan(p);
        return s == null ? 0 : s.length();
    }
}
