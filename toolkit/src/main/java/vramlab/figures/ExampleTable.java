package vramlab.figures;

import java.util.ArrayList;
import java.util.List;

/**
 * A graded step's worked example as an AsciiDoc table: calls and what they return, computed by
 * the reference simulator when the site is built, so the numbers are real. The notes include
 * it with {@code include::{generated}/step-N.M.adoc[]}; a chapter makes it in a
 * {@code public static String exampleN_M()} (see site/README.adoc).
 *
 * <pre>
 * return ExampleTable.of("3.1", "roundSize under the toy policy", "call", "returns", "why")
 *         .row("roundSize(100)", "512", "at most 1 MiB: a multiple of 512 B")
 *         .toString();
 * </pre>
 * Cells are shown as code unless they start with {@code =} (then as text, without it).
 */
public final class ExampleTable {
    private final String step;
    private final String caption;
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();
    private String after = "";

    private ExampleTable(String step, String caption, List<String> header) {
        this.step = step;
        this.caption = caption;
        this.header = header;
    }

    public static ExampleTable of(String step, String caption, String... header) {
        if (header.length == 0) throw new IllegalArgumentException("a table has at least one column");
        return new ExampleTable(step, caption, List.of(header));
    }

    public ExampleTable row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("step " + step + ": a row of " + cells.length + " cells, the header has "
                    + header.size());
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) r.add(String.valueOf(c));
        rows.add(r);
        return this;
    }

    /** A sentence under the table (plain AsciiDoc). */
    public ExampleTable then(String text) {
        this.after = text;
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(".Step ").append(step).append(", worked example: ").append(caption).append('\n')
          .append("[%autowidth,options=\"header\"]\n|===\n");
        for (String h : header) sb.append('|').append(escape(h)).append(' ');
        sb.append('\n');
        for (List<String> r : rows) {
            sb.append('\n');
            for (String c : r) sb.append('|').append(cell(c)).append('\n');
        }
        sb.append("|===\n");
        sb.append('\n').append(after.isEmpty() ? "" : after + " ")
          .append("_(Computed by the reference simulator when this page was built.)_\n");
        return sb.toString();
    }

    private static String cell(String c) {
        if (c.startsWith("=")) return escape(c.substring(1));
        if (c.isEmpty()) return "";
        if (c.contains("|") || c.contains("`")) {
            throw new IllegalArgumentException("a code cell holds | or a backtick: " + c);
        }
        return "`" + c + "`";
    }

    private static String escape(String s) { return s.replace("|", "{vbar}"); }
}
