package vramlab.figures;

import java.util.Locale;

/**
 * A minimal SVG writer: the figures need rectangles, polygons, lines and text, nothing more.
 * Every document states its {@code width}, {@code height} and {@code viewBox} so a page can
 * lay it out before it loads, and carries no script, font or link to anything outside it.
 */
public final class Svg {
    /** The one font stack every figure uses: local fonts only, never a web font. */
    public static final String FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";

    private final int width;
    private final int height;
    private final StringBuilder body = new StringBuilder();

    public Svg(int width, int height) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("svg size must be positive, was " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
    }

    public int width() { return width; }
    public int height() { return height; }

    public Svg rect(double x, double y, double w, double h, String fill, String stroke, String tooltip) {
        body.append(String.format(Locale.ROOT,
                "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"", x, y, w, h, fill));
        if (stroke != null) body.append(" stroke=\"").append(stroke).append("\" stroke-width=\"1\"");
        return close("rect", tooltip);
    }

    public Svg polygon(double[] xs, double[] ys, String fill, String tooltip) {
        body.append("<polygon points=\"");
        for (int i = 0; i < xs.length; i++) {
            body.append(String.format(Locale.ROOT, "%s%.2f,%.2f", i == 0 ? "" : " ", xs[i], ys[i]));
        }
        body.append("\" fill=\"").append(fill).append('"');
        return close("polygon", tooltip);
    }

    public Svg line(double x1, double y1, double x2, double y2, String stroke) {
        body.append(String.format(Locale.ROOT,
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.5\"/>%n",
                x1, y1, x2, y2, stroke));
        return this;
    }

    /** An arrow from (x1, y1) to (x2, y2), its head drawn as a small triangle. */
    public Svg arrow(double x1, double y1, double x2, double y2, String stroke) {
        line(x1, y1, x2, y2, stroke);
        double a = Math.atan2(y2 - y1, x2 - x1);
        double s = 7;
        return polygon(new double[] {x2, x2 - s * Math.cos(a - 0.4), x2 - s * Math.cos(a + 0.4)},
                new double[] {y2, y2 - s * Math.sin(a - 0.4), y2 - s * Math.sin(a + 0.4)}, stroke, null);
    }

    /** Text; {@code anchor} is {@code start}, {@code middle} or {@code end}. */
    public Svg text(double x, double y, String text, String anchor, int size) {
        body.append(String.format(Locale.ROOT,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%d\">", x, y, anchor, size))
            .append(escape(text)).append("</text>\n");
        return this;
    }

    private Svg close(String element, String tooltip) {
        if (tooltip == null) {
            body.append("/>\n");
        } else {
            body.append("><title>").append(escape(tooltip)).append("</title></").append(element).append(">\n");
        }
        return this;
    }

    /** The document, with a {@code <title>} for screen readers and tooltips. */
    public String toString(String title) {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height
                + "\" viewBox=\"0 0 " + width + " " + height + "\" font-family=\"" + FONT + "\">\n"
                + "<title>" + escape(title) + "</title>\n"
                + "<rect x=\"0\" y=\"0\" width=\"" + width + "\" height=\"" + height + "\" fill=\"white\"/>\n"
                + body + "</svg>\n";
    }

    public static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
