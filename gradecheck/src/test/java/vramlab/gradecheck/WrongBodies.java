package vramlab.gradecheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.labgen.LabGenerator;

/**
 * Typical wrong answers to one lab step, made from the step's reference body by the edits a
 * student's first attempt tends to differ by:
 * <ul>
 *   <li>{@code boundary}: one comparison off by one ({@code <} for {@code <=}, {@code >} for
 *       {@code >=} and back), or one {@code + 1} / {@code - 1} left out;
 *   <li>{@code condition}: one operand of a {@code &&} / {@code ||} left out, or a one-line guard
 *       ({@code if (...) return/continue/break/throw ...;}) left out;
 *   <li>{@code order}: two adjacent statements that depend on each other (one writes what the
 *       other reads or writes), swapped;
 *   <li>{@code default}: the body replaced by doing nothing or returning the type's default
 *       ({@code 0}, {@code false} and {@code true}, {@code null});
 *   <li>{@code early}: an early exit taken at once (for example a {@code map} that always
 *       answers "nothing mapped");
 *   <li>{@code todo}: the step left as the generator's {@code Todo}.
 * </ul>
 * Edits only look at code: text in string and character literals and in comments is masked.
 * A wrong body that does not compile is the caller's to drop (it is not a typical answer that
 * reaches the graded tests).
 */
final class WrongBodies {
    /** One wrong body: its step, kind, a stable one-line description, and the body's lines. */
    record Mutant(String step, String kind, String description, List<String> body) {
        /** The key an equivalent-mutant entry is listed under: step, kind and description. */
        String key() { return step + " | " + kind + " | " + description; }
    }

    private WrongBodies() {}

    private static final Pattern COMPARISON = Pattern.compile(" (<=|>=|<|>) ");
    private static final Pattern OFF_BY_ONE = Pattern.compile(" [-+] 1(?![\\w.])");
    private static final Pattern GUARD = Pattern.compile("^if \\(.*\\) (return|continue|break|throw)\\b.*;$");
    private static final Pattern DECLARATION =
            Pattern.compile("^(final )?[A-Za-z_][\\w.]*(<[^=]*>)?(\\[\\])* [a-z_]\\w*( = .*)?;$");
    private static final Pattern METHOD = Pattern.compile(
            "^\\s*(?:@\\w+\\s+)*(?:(?:public|private|protected|static|final|synchronized)\\s+)*"
                    + "(?:<[^>]+>\\s+)?([\\w.]+(?:<[^()]*>)?(?:\\[\\])*)\\s+(\\w+)\\s*\\(");
    private static final Set<String> KEYWORDS = Set.of("if", "else", "for", "while", "do", "return",
            "new", "null", "true", "false", "this", "int", "long", "boolean", "double", "float", "short",
            "byte", "char", "void", "final", "var", "throw", "try", "catch", "break", "continue",
            "instanceof", "switch", "case", "default");

    /**
     * Every wrong body of a step.
     *
     * @param step      the step as the generator lists it
     * @param header    the method's header (the line that opens the method whose body the step is)
     * @param body      the reference body: the lines strictly between {@code lab:begin} and
     *                  {@code lab:end}
     * @param beginLine the {@code lab:begin} line itself (for the Todo the generator makes of it)
     */
    static List<Mutant> of(LabGenerator.Step step, String header, List<String> body, String beginLine) {
        String id = step.id();
        List<String> code = mask(body);
        Map<List<String>, Mutant> out = new LinkedHashMap<>();
        boundaries(id, body, code, out);
        conditions(id, body, code, out);
        guards(id, body, code, out);
        orders(id, body, code, out);
        defaults(id, header, indent(body), out);
        earlyExits(id, body, code, out);
        String todo = LabGenerator.transform(beginLine + "\n" + indent(body) + "// lab:end\n}\n", step.file());
        add(out, body, new Mutant(id, "todo", "the generator's Todo", List.of(todo.lines().findFirst().orElseThrow())));
        return List.copyOf(out.values());
    }

    private static void add(Map<List<String>, Mutant> out, List<String> reference, Mutant m) {
        if (!m.body().equals(reference)) out.putIfAbsent(m.body(), m);
    }

    private static void boundaries(String id, List<String> body, List<String> code, Map<List<String>, Mutant> out) {
        for (int i = 0; i < body.size(); i++) {
            Matcher m = COMPARISON.matcher(code.get(i));
            long many = COMPARISON.matcher(code.get(i)).results().count();
            int nth = 0;
            while (m.find()) {
                nth++;
                String op = m.group(1);
                String flipped = switch (op) {
                    case "<" -> "<=";
                    case "<=" -> "<";
                    case ">" -> ">=";
                    default -> ">";
                };
                String line = body.get(i).substring(0, m.start(1)) + flipped + body.get(i).substring(m.end(1));
                add(out, body, new Mutant(id, "boundary", "`" + body.get(i).strip() + "`: " + op + " -> " + flipped
                        + (many > 1 ? " (comparison " + nth + ")" : ""), replace(body, i, line)));
            }
            Matcher one = OFF_BY_ONE.matcher(code.get(i));
            while (one.find()) {
                String line = body.get(i).substring(0, one.start()) + body.get(i).substring(one.end());
                String what = "`" + body.get(i).strip() + "` without `" + one.group().strip()
                        + "` at column " + one.start();
                add(out, body, new Mutant(id, "boundary", what, replace(body, i, line)));
            }
        }
    }

    private static void conditions(String id, List<String> body, List<String> code, Map<List<String>, Mutant> out) {
        for (int i = 0; i < body.size(); i++) {
            String c = code.get(i);
            for (String op : List.of(" && ", " || ")) {
                for (int k = c.indexOf(op); k >= 0; k = c.indexOf(op, k + 1)) dropOperands(id, body, c, i, k, out);
            }
        }
    }

    /** Two wrong bodies for the operator at {@code k}: without its right operand, without its left. */
    private static void dropOperands(String id, List<String> body, String c, int i, int k,
                                     Map<List<String>, Mutant> out) {
        String line = body.get(i);
        String op = line.substring(k + 1, k + 3);
        int right = rightEnd(c, k + 4);
        if (right > k + 4) {
            String dropped = line.substring(k + 4, right).strip();
            add(out, body, new Mutant(id, "condition", "`" + line.strip() + "` without `" + op + " " + dropped + "`",
                    replace(body, i, line.substring(0, k) + line.substring(right))));
        }
        int left = leftStart(c, k);
        if (left >= 0 && left < k) {
            String dropped = line.substring(left, k).strip();
            add(out, body, new Mutant(id, "condition", "`" + line.strip() + "` without `" + dropped + " " + op + "`",
                    replace(body, i, line.substring(0, left) + line.substring(k + 4))));
        }
    }

    /** Where the operand starting at {@code from} ends: a closing bracket, an operator or the end. */
    static int rightEnd(String c, int from) {
        int depth = 0;
        for (int j = from; j < c.length(); j++) {
            char ch = c.charAt(j);
            if (ch == '(' || ch == '[') depth++;
            else if (ch == ')' || ch == ']') {
                if (--depth < 0) return j;
            } else if (depth == 0 && (c.startsWith(" && ", j) || c.startsWith(" || ", j)
                    || ch == ';' || ch == '?' || ch == ',' || c.startsWith(" : ", j))) {
                return j;
            }
        }
        return c.length();
    }

    /**
     * Where the operand ending at {@code to} starts: after an opening bracket, an operator,
     * {@code return} or {@code =}.
     */
    static int leftStart(String c, int to) {
        int depth = 0;
        for (int j = to - 1; j >= 0; j--) {
            char ch = c.charAt(j);
            if (ch == ')' || ch == ']') depth++;
            else if (ch == '(' || ch == '[') {
                if (--depth < 0) return j + 1;
            } else if (depth == 0 && (c.startsWith(" && ", j - 3) || c.startsWith(" || ", j - 3))) {
                return j + 1;
            } else if (depth == 0 && c.startsWith("return ", j - 6) && (j - 6 == 0 || c.charAt(j - 7) == ' ')) {
                return j + 1;
            } else if (depth == 0 && ch == '=' && j > 0 && c.charAt(j - 1) == ' ' && j + 1 < c.length()
                    && c.charAt(j + 1) == ' ') {
                return j + 2;
            }
        }
        return -1;
    }

    private static void guards(String id, List<String> body, List<String> code, Map<List<String>, Mutant> out) {
        for (int i = 0; i < body.size(); i++) {
            if (!GUARD.matcher(code.get(i).strip()).matches()) continue;
            List<String> b = new ArrayList<>(body);
            b.remove(i);
            add(out, body, new Mutant(id, "condition", "without the guard `" + body.get(i).strip() + "`", b));
        }
    }

    private static void orders(String id, List<String> body, List<String> code, Map<List<String>, Mutant> out) {
        for (int i = 0; i + 1 < body.size(); i++) {
            String a = code.get(i).strip(), b = code.get(i + 1).strip();
            if (!simple(a) || !simple(b) || !indentOf(code.get(i)).equals(indentOf(code.get(i + 1)))) continue;
            if (!Effects.of(a).dependsOn(Effects.of(b))) continue;
            List<String> s = new ArrayList<>(body);
            s.set(i, body.get(i + 1));
            s.set(i + 1, body.get(i));
            String what = "`" + body.get(i + 1).strip() + "` before `" + body.get(i).strip() + "`";
            add(out, body, new Mutant(id, "order", what, s));
        }
    }

    private static boolean simple(String t) {
        return t.endsWith(";") && !t.contains("{") && !t.contains("}")
                && !t.matches("^(return|throw|break|continue|if|for|while|else|case|default)\\b.*");
    }

    /**
     * What one simple statement reads and writes, by name ({@code a}, {@code a.b}): a
     * declaration or assignment writes its target; a statement that is a call writes its
     * receiver, or everything when it has none (a method of this class); two statements depend
     * on each other when one writes what the other reads or writes. Two compound assignments of
     * one commutative operator to the same target ({@code b |= x; b |= y;}) commute.
     */
    record Effects(Set<String> reads, Set<String> writes, boolean writesAll, String commutes) {
        private static final Pattern NAME = Pattern.compile("\\b[A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*)*");
        private static final Pattern DECLARATION_START =
                Pattern.compile("^(?:final\\s+)?[A-Za-z_][\\w.]*(?:<.*>)?(?:\\[\\])*\\s+[A-Za-z_]\\w*\\s*=.*");
        private static final Pattern ASSIGN = Pattern.compile(
                "^(?:final\\s+)?(?:[A-Za-z_][\\w.]*(?:<.*>)?(?:\\[\\])*\\s+)?([A-Za-z_][\\w.]*)(?:\\[[^]]*\\])?"
                        + "\\s*(=|\\+=|-=|\\*=|/=|\\|=|&=|\\^=|<<=|>>=)(?!=)(.*);$");
        private static final Pattern STEP = Pattern.compile("^([A-Za-z_][\\w.]*)(?:\\[[^]]*\\])?\\s*(\\+\\+|--);$");
        private static final Pattern CALL = Pattern.compile("^([A-Za-z_][\\w.]*?)(?:\\.(\\w+))?\\(");
        private static final Set<String> PURE = Set.of("get", "getOrDefault", "size", "isEmpty", "contains",
                "containsKey", "ceiling", "floor", "higher", "lower", "first", "last", "peek", "peekFirst",
                "peekLast", "equals", "hashCode", "toString", "min", "max", "length");

        static Effects of(String statement) {
            Set<String> reads = new TreeSet<>(), writes = new TreeSet<>();
            boolean all = false;
            String commutes = null;
            Matcher step = STEP.matcher(statement), assign = ASSIGN.matcher(statement);
            if (step.matches()) {
                writes.add(step.group(1));
                reads.add(step.group(1));
            } else if (assign.matches()) {
                writes.add(assign.group(1));
                names(assign.group(3), reads);
                String op = assign.group(2);
                if (DECLARATION_START.matcher(statement).matches() || op.equals("=")) {
                    commutes = null;
                } else if (op.length() == 2 && "|&^+*".indexOf(op.charAt(0)) >= 0) {
                    commutes = assign.group(1) + op;
                } else {
                    reads.add(assign.group(1));
                }
            } else {                                      // an expression statement: a call
                names(statement, reads);
                Matcher call = CALL.matcher(statement);
                if (call.find() && call.group(2) != null) {
                    if (!PURE.contains(call.group(2))) writes.add(call.group(1));
                } else {
                    all = true;                           // a method of this class: anything
                }
            }
            return new Effects(reads, writes, all, commutes);
        }

        private static void names(String expr, Set<String> into) {
            Matcher m = NAME.matcher(expr);
            while (m.find()) {
                String n = m.group();
                boolean call = m.end() < expr.length() && expr.charAt(m.end()) == '(';
                if (call) n = n.contains(".") ? n.substring(0, n.lastIndexOf('.')) : "";
                if (n.isEmpty() || KEYWORDS.contains(n) || Character.isUpperCase(n.charAt(0))) continue;
                into.add(n);
            }
        }

        boolean dependsOn(Effects o) {
            if (writesAll || o.writesAll) return true;
            if (commutes != null && commutes.equals(o.commutes)) {
                String target = writes.iterator().next();
                if (!reads.contains(target) && !o.reads.contains(target)) return false;
            }
            return clash(writes, o.reads) || clash(writes, o.writes) || clash(o.writes, reads);
        }

        private static boolean clash(Set<String> written, Set<String> used) {
            for (String w : written) {
                for (String u : used) {
                    if (w.equals(u) || u.startsWith(w + ".") || w.startsWith(u + ".")) return true;
                }
            }
            return false;
        }
    }

    private static void defaults(String id, String header, String indent, Map<List<String>, Mutant> out) {
        Matcher m = METHOD.matcher(header);
        if (!m.find()) {
            throw new IllegalArgumentException("step " + id + ": no method header in `" + header.strip() + "`");
        }
        String type = m.group(1);
        List<String> values = switch (type) {
            case "void" -> List.of();
            case "boolean" -> List.of("false", "true");
            case "int", "long", "short", "byte", "double", "float", "char" -> List.of("0");
            default -> List.of("null");
        };
        if (values.isEmpty()) {
            List<String> nothing = List.of(indent + "return;");
            out.putIfAbsent(nothing, new Mutant(id, "default", "does nothing", nothing));
        }
        for (String v : values) {
            List<String> b = List.of(indent + "return " + v + ";");
            out.putIfAbsent(b, new Mutant(id, "default", "returns " + v, b));
        }
    }

    /**
     * For each {@code return E;} that is not the body's last line: take it at once, right after
     * the body's leading declarations ({@code if (true) return E;} keeps the rest compilable).
     */
    private static void earlyExits(String id, List<String> body, List<String> code, Map<List<String>, Mutant> out) {
        String top = indentOf(code.get(0));
        int at = 0;
        while (at < body.size() && indentOf(code.get(at)).equals(top)
                && DECLARATION.matcher(code.get(at).strip()).matches()) {
            at++;
        }
        for (int i = 0; i < body.size() - 1; i++) {
            String c = code.get(i), t = c.strip();
            if (!(t.startsWith("return ") || t.startsWith("if (") && t.contains(" return "))) continue;
            int r = c.indexOf("return "), semi = c.lastIndexOf(';');
            if (r < 0 || semi < r) continue;
            String ret = body.get(i).substring(r, semi + 1);
            List<String> b = new ArrayList<>(body);
            b.add(at, top + "if (true) " + ret);
            add(out, body, new Mutant(id, "early", "`" + ret + "` at once", b));
        }
    }

    private static List<String> replace(List<String> body, int i, String line) {
        List<String> b = new ArrayList<>(body);
        b.set(i, line);
        return b;
    }

    private static String indent(List<String> body) { return indentOf(body.get(0)); }

    private static String indentOf(String line) {
        int n = 0;
        while (n < line.length() && line.charAt(n) == ' ') n++;
        return line.substring(0, n);
    }

    /**
     * The lines with the contents of string and character literals and of comments replaced by
     * spaces, so an edit never matches inside them; every line keeps its length.
     */
    static List<String> mask(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean block = false;
        for (String line : lines) {
            StringBuilder sb = new StringBuilder(line);
            for (int j = 0; j < line.length(); j++) {
                char ch = line.charAt(j);
                if (block) {
                    if (line.startsWith("*/", j)) {
                        block = false;
                        sb.setCharAt(j, ' ');
                        sb.setCharAt(j + 1, ' ');
                        j++;
                    } else {
                        sb.setCharAt(j, ' ');
                    }
                } else if (line.startsWith("/*", j)) {
                    block = true;
                    sb.setCharAt(j, ' ');
                } else if (line.startsWith("//", j)) {
                    for (int k = j; k < line.length(); k++) sb.setCharAt(k, ' ');
                    break;
                } else if (ch == '"' || ch == '\'') {
                    int k = j + 1;
                    while (k < line.length() && line.charAt(k) != ch) {
                        if (line.charAt(k) == '\\') { sb.setCharAt(k, ' '); k++; }
                        if (k < line.length()) sb.setCharAt(k, ' ');
                        k++;
                    }
                    j = k;
                }
            }
            out.add(sb.toString());
        }
        return out;
    }
}
