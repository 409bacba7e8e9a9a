package vramlab.quiz.feedback;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The method and constructor declarations of a Java file, as {@link StepPlaces} tells a step's
 * method from its overloads: each declaration's line, name and parameter types, the parameter
 * list read across as many lines as it spans. The file is read as code first
 * ({@link #code}): comments and the text of string and character literals become spaces, line
 * for line, so a comment or a string that names the method is no declaration, and annotations
 * at the start of a line ({@code @Override public long roundSize(...)}) are left out. A line
 * declares what {@link StepPlaces#declaredName} says it declares, as for the kit's own files.
 */
final class Declarations {
    /**
     * One declaration.
     *
     * @param index its line, 0-based
     * @param name  the method's name, or a constructor's class name
     * @param types its parameter types in order, names, annotations, {@code final}, package
     *              qualifiers and spaces left out ({@code long}, {@code Map<String,Long>},
     *              {@code int[]}, {@code String...}); null when the list does not close within
     *              {@value #MAX_LINES} lines
     */
    record Declaration(int index, String name, List<String> types) {}

    /** The most lines one parameter list is read across. */
    static final int MAX_LINES = 40;

    /**
     * What is not code, from the leftmost start (Java's own lexical order, JLS 3.7, 3.10.4-3.10.6):
     * a line comment, a block comment (to its end or the file's), a text block, a string or a
     * character literal (to its closing quote or the line's end).
     */
    private static final Pattern NOT_CODE = Pattern.compile(
            "//[^\n]*|/\\*.*?(?:\\*/|\\z)|\"\"\".*?(?:\"\"\"|\\z)"
            + "|\"(?:\\\\.|[^\"\\\\\n])*\"?|'(?:\\\\.|[^'\\\\\n])*'?", Pattern.DOTALL);
    private static final Pattern LEADING_ANNOTATION = Pattern.compile("^@\\s*[\\w.$]+\\s*");
    private static final Pattern QUALIFIER = Pattern.compile("(?<![\\w$])(?:[a-z_][\\w$]*\\.)+(?=[A-Z_$])");
    private static final Pattern PARAMETER = Pattern.compile("^(.*?)\\s*([\\w$]+)\\s*((?:\\[\\s*\\])*)$");
    private static final Pattern FINAL = Pattern.compile("(?<![\\w$])final\\s+");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private Declarations() {}

    /** Every declaration of {@code lines}, in order. */
    static List<Declaration> of(List<String> lines) { return inCode(code(lines)); }

    /** Every declaration of {@code code}, lines as {@link #code} makes them. */
    static List<Declaration> inCode(List<String> code) {
        List<Declaration> out = new ArrayList<>();
        for (int i = 0; i < code.size(); i++) {
            String name = StepPlaces.declaredName(code.get(i));
            if (name != null) out.add(new Declaration(i, name, types(code, i, name)));
        }
        return out;
    }

    /**
     * {@code lines} as code: comments ({@code //}, {@code /* ... *}{@code /}, Javadoc) and string,
     * text-block and character literals made spaces (line breaks kept, so the lines stay as many),
     * then the annotations a line starts with removed, its indentation kept.
     */
    static List<String> code(List<String> lines) {
        String text = String.join("\n", lines);
        StringBuilder sb = new StringBuilder(text.length());
        Matcher m = NOT_CODE.matcher(text);
        int from = 0;
        while (m.find()) {
            sb.append(text, from, m.start());
            for (int i = m.start(); i < m.end(); i++) sb.append(text.charAt(i) == '\n' ? '\n' : ' ');
            from = m.end();
        }
        sb.append(text, from, text.length());
        List<String> out = new ArrayList<>(lines.size());
        for (String line : sb.toString().split("\n", -1)) out.add(withoutLeadingAnnotations(line));
        return lines.isEmpty() ? List.of() : out;
    }

    /** {@code    @Override @Deprecated(since = "2") public long f(} as {@code    public long f(}. */
    private static String withoutLeadingAnnotations(String line) {
        int indent = 0;
        while (indent < line.length() && Character.isWhitespace(line.charAt(indent))) indent++;
        String rest = line.substring(indent);
        while (true) {
            Matcher m = LEADING_ANNOTATION.matcher(rest);
            if (!m.find() || rest.startsWith("@interface")) break;
            rest = rest.substring(m.end());
            if (rest.startsWith("(")) {
                int close = closing(rest, 0);
                if (close < 0) break;                          // its arguments go on below: not a declaration line
                rest = rest.substring(close + 1).stripLeading();
            }
        }
        return line.substring(0, indent) + rest;
    }

    /**
     * The parameter types of the declaration of {@code name} at line {@code index} of {@code code}
     * (lines as {@link #code} makes them), or null when its parameter list does not close.
     */
    static List<String> types(List<String> code, int index, String name) {
        int open = parenAfter(code.get(index), name);
        if (open < 0) return null;
        StringBuilder text = new StringBuilder(code.get(index).substring(open));
        for (int i = index + 1; closing(text, 0) < 0 && i < code.size() && i <= index + MAX_LINES; i++) {
            text.append(' ').append(code.get(i));
        }
        int close = closing(text, 0);
        if (close < 0) return null;
        String inside = text.substring(1, close);
        List<String> types = new ArrayList<>();
        for (String p : topLevel(withoutAnnotations(inside))) {
            String s = FINAL.matcher(p.strip()).replaceAll("");
            if (s.isEmpty()) continue;
            Matcher pm = PARAMETER.matcher(s);
            String type = pm.matches() && !pm.group(1).isEmpty() ? pm.group(1) + pm.group(3) : s;
            types.add(QUALIFIER.matcher(SPACES.matcher(type).replaceAll("")).replaceAll(""));
        }
        return types;
    }

    /** Where the {@code (} after the word {@code name} is on {@code line} (spaces between allowed), or -1. */
    private static int parenAfter(String line, String name) {
        for (int at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + 1)) {
            if (at > 0 && (Character.isJavaIdentifierPart(line.charAt(at - 1)))) continue;
            int i = at + name.length();
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) i++;
            if (i < line.length() && line.charAt(i) == '(') return i;
        }
        return -1;
    }

    /** The index of the parenthesis that closes the one at {@code open}, or -1. */
    private static int closing(CharSequence s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') depth++;
            else if (c == ')' && --depth == 0) return i;
        }
        return -1;
    }

    /** {@code @Ann}, {@code @a.b.Ann} and {@code @Ann(...)} anywhere in a parameter list, removed. */
    private static String withoutAnnotations(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); ) {
            if (s.charAt(i) != '@') {
                out.append(s.charAt(i++));
                continue;
            }
            int j = i + 1;
            while (j < s.length() && (Character.isJavaIdentifierPart(s.charAt(j)) || s.charAt(j) == '.'
                    || Character.isWhitespace(s.charAt(j)) && j + 1 < s.length() && s.charAt(j + 1) == '.')) j++;
            int k = j;
            while (k < s.length() && Character.isWhitespace(s.charAt(k))) k++;
            if (k < s.length() && s.charAt(k) == '(') {
                int close = closing(s, k);
                j = close < 0 ? s.length() : close + 1;
            }
            out.append(' ');
            i = j;
        }
        return out.toString();
    }

    /** {@code s} split at its commas outside {@code <>}, {@code ()} and {@code []}. */
    private static List<String> topLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0, from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '<' || c == '(' || c == '[') depth++;
            else if (c == '>' || c == ')' || c == ']') depth--;
            else if (c == ',' && depth == 0) {
                parts.add(s.substring(from, i));
                from = i + 1;
            }
        }
        parts.add(s.substring(from));
        return parts;
    }
}
