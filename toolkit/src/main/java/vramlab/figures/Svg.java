package vramlab.figures;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A minimal SVG writer: the figures need rectangles, polygons, lines and text, nothing more.
 * Every document states its {@code width}, {@code height} and {@code viewBox} so a page can
 * lay it out before it loads, carries the course's {@link Palette} as its own stylesheet (light
 * and dark), and loads no script, font or link to anything outside it.
 *
 * <p>A fill or stroke that starts with a dot is a {@link Palette} role ({@code ".live"}), written
 * as a class; anything else is a colour. Text is in the palette's ink unless a class is given.
 * A legend ({@link #legend}) is laid out with {@link TextMetrics}, wrapping to a new row before
 * it would leave the figure.
 */
public final class Svg {
    /** The one font stack every figure uses: local fonts only, never a web font. */
    public static final String FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";

    private final int width;
    private int height;
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

    /** Grows the figure downwards, for content laid out after it was sized. */
    public Svg height(int h) {
        if (h <= 0) throw new IllegalArgumentException("svg height must be positive, was " + h);
        this.height = h;
        return this;
    }

    public Svg rect(double x, double y, double w, double h, String fill, String stroke, String tooltip) {
        body.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x, y, w, h));
        paint(fill, stroke, 1);
        return close("rect", tooltip);
    }

    public Svg polygon(double[] xs, double[] ys, String fill, String tooltip) {
        body.append("<polygon points=\"");
        for (int i = 0; i < xs.length; i++) {
            body.append(String.format(Locale.ROOT, "%s%.2f,%.2f", i == 0 ? "" : " ", xs[i], ys[i]));
        }
        body.append('"');
        paint(fill, null, 1);
        return close("polygon", tooltip);
    }

    public Svg line(double x1, double y1, double x2, double y2, String stroke) {
        body.append(String.format(Locale.ROOT, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", x1, y1, x2, y2));
        paint(null, stroke == null ? ".line" : stroke, 1.5);
        body.append("/>\n");
        return this;
    }

    /** A chart line through the points, in series {@code i}'s colour and dash. */
    public Svg polyline(List<double[]> points, int series, double strokeWidth, String tooltip) {
        StringBuilder pts = new StringBuilder();
        for (double[] p : points) pts.append(String.format(Locale.ROOT, "%s%.1f,%.1f", pts.length() == 0 ? "" : " ", p[0], p[1]));
        String dash = Palette.dash(series);
        body.append("<polyline points=\"").append(pts).append("\" fill=\"none\" class=\"")
            .append(Palette.cls(Palette.SERIES.get(series % Palette.SERIES.size()))).append('"')
            .append(String.format(Locale.ROOT, " stroke-width=\"%.1f\"", strokeWidth));
        if (!dash.isEmpty()) body.append(" stroke-dasharray=\"").append(dash).append('"');
        return close("polyline", tooltip);
    }

    /** Whether a legend role is a series', {@code .s} and digits ({@link Palette#series}); no regex (TeaVM). */
    private static boolean isSeries(String role) {
        if (role.length() < 3 || !role.startsWith(".s")) return false;
        for (int i = 2; i < role.length(); i++) if (!Character.isDigit(role.charAt(i))) return false;
        return true;
    }

    /** An arrow from (x1, y1) to (x2, y2), its head drawn as a small triangle. */
    public Svg arrow(double x1, double y1, double x2, double y2, String stroke) {
        line(x1, y1, x2, y2, stroke);
        double a = Math.atan2(y2 - y1, x2 - x1);
        double s = 7;
        String fill = stroke == null || stroke.equals(".line") ? ".ink" : stroke;
        return polygon(new double[] {x2, x2 - s * Math.cos(a - 0.4), x2 - s * Math.cos(a + 0.4)},
                new double[] {y2, y2 - s * Math.sin(a - 0.4), y2 - s * Math.sin(a + 0.4)}, fill, null);
    }

    /** Text in the palette's ink; {@code anchor} is {@code start}, {@code middle} or {@code end}. */
    public Svg text(double x, double y, String text, String anchor, int size) {
        return text(x, y, text, anchor, size, ".ink", false);
    }

    /** Text of a given palette class ({@code ".muted"}, {@code ".on-colour"}), optionally bold. */
    public Svg text(double x, double y, String text, String anchor, int size, String cls, boolean bold) {
        body.append(String.format(Locale.ROOT,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%d\" class=\"%s\"%s>", x, y, anchor, size,
                Palette.cls(cls), bold ? " font-weight=\"bold\"" : ""))
            .append(escape(text)).append("</text>\n");
        return this;
    }

    /** A link around what {@code inner} draws (an in-page anchor such as {@code #cause-x}). */
    public Svg link(String href, Runnable inner) {
        body.append("<a href=\"").append(escape(href)).append("\">\n");
        inner.run();
        body.append("</a>\n");
        return this;
    }

    /** One entry of a legend: a swatch of a palette role and what it means. */
    public record Key(String role, String label) {}

    /**
     * Draws a legend from ({@code x}, {@code y}), entries left to right, wrapping before the
     * right edge; returns the y below it.
     */
    public double legend(double x, double y, List<Key> keys, int size) {
        double cx = x;
        double row = size + 10;
        for (Key k : keys) {
            double w = 22 + TextMetrics.width(k.label(), size) + 24;
            if (cx > x && cx + w > width - 10) {
                cx = x;
                y += row;
            }
            if (isSeries(k.role())) {                       // Palette.series(i): its colour and dash
                List<double[]> pts = new ArrayList<>();
                pts.add(new double[] {cx, y + size / 2.0});
                pts.add(new double[] {cx + 16, y + size / 2.0});
                polyline(pts, Integer.parseInt(k.role().substring(2)), 2.5, null);
            } else {
                rect(cx, y, 16, size, k.role(), k.role().equals(Palette.FREE) || k.role().equals(Palette.UNMAPPED)
                        ? null : ".line", null);
            }
            text(cx + 22, y + size - 1, k.label(), "start", size);
            cx += w;
        }
        return y + row;
    }

    private void paint(String fill, String stroke, double strokeWidth) {
        List<String> classes = new ArrayList<>();
        if (fill != null && fill.startsWith(".")) classes.add(Palette.cls(fill));
        else if (fill != null) body.append(" fill=\"").append(fill).append('"');
        if (stroke != null && stroke.startsWith(".")) classes.add(Palette.cls(stroke));
        else if (stroke != null) body.append(" stroke=\"").append(stroke).append('"');
        if (!classes.isEmpty()) body.append(" class=\"").append(String.join(" ", classes)).append('"');
        if (stroke != null) body.append(String.format(Locale.ROOT, " stroke-width=\"%s\"", strokeWidth == 1 ? "1" : "1.5"));
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
                + "<style>\n" + Palette.STYLE + "\n</style>\n"
                + "<rect x=\"0\" y=\"0\" width=\"" + width + "\" height=\"" + height + "\" class=\"bg\"/>\n"
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
