package vramlab.ch04.causes;

import java.util.ArrayList;
import java.util.List;

import vramlab.triage.Cause;

/**
 * The 3 a.m. ladder as an SVG flowchart: one question per step, "yes" to the cause and its
 * scenarios (each a link to its section of the notes), "no" down to the next step. The
 * questions are the triage's tests in words; the scenario names come from {@link Causes#all()}.
 */
public final class LadderFigure {
    private static final int W = 860, ROW = 78, TOP = 56, Q_W = 430, Q_H = 52;

    private LadderFigure() {}

    /** The question each step asks of the message, in the triage's terms. */
    static String question(Cause c) {
        return switch (c) {
            case FRAGMENTATION -> "reserved but unallocated >= the request?";
            case OTHER_PROCESSES -> "\"Process P has X\" lines, X large?";
            case NCCL_BUFFERS -> "this process >> PyTorch reserved, distributed run?";
            case CUDA_GRAPH_POOLS -> "\"allocated in private pools\" large?";
            case CUDNN_WORKSPACE -> "failed in a convolution (cudnn.benchmark)?";
            case FULL_OR_DRIVER_RESERVE -> "otherwise";
            case NOT_PYTORCH_OOM -> "not a PyTorch CUDA message";
        };
    }

    // tag::figure[]
    /** The flowchart, as a standalone SVG document. */
    public static String figureLadder() {
        List<Cause> steps = new ArrayList<>();
        for (Cause c : Cause.values()) if (c.step() > 0) steps.add(c);
        int h = TOP + steps.size() * ROW + 20;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"")
          .append(" width=\"").append(W).append("\" height=\"")
          .append(h).append("\" viewBox=\"0 0 ").append(W).append(' ').append(h)
          .append("\" font-family=\"sans-serif\" font-size=\"13\">\n")
          .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
          .append("<text x=\"20\" y=\"30\" font-size=\"16\" font-weight=\"bold\">"
                  + "CUDA out of memory: the ladder, top to bottom</text>\n");
        for (int i = 0; i < steps.size(); i++) step(sb, steps.get(i), i, i == steps.size() - 1);
        return sb.append("</svg>\n").toString();
    }
    // end::figure[]

    private static void step(StringBuilder sb, Cause c, int i, boolean last) {
        int y = TOP + i * ROW;
        sb.append(String.format("<rect x=\"20\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"8\" fill=\"%s\" "
                + "stroke=\"#444\"/>%n", y, Q_W, Q_H, last ? "#eeeeee" : "#eef4fb"));
        sb.append(String.format("<text x=\"34\" y=\"%d\" font-weight=\"bold\">%d.</text>%n", y + 31, c.step()));
        sb.append(String.format("<text x=\"58\" y=\"%d\">%s</text>%n", y + 31, esc(question(c))));
        int cx = 20 + Q_W + 60;
        sb.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" "
                + "marker-end=\"url(#arrow)\"/>%n", 20 + Q_W, y + Q_H / 2, cx - 4, y + Q_H / 2));
        if (!last) {
            sb.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"11\">yes</text>%n", 20 + Q_W + 18, y + Q_H / 2 - 5));
            sb.append(String.format("<line x1=\"60\" y1=\"%d\" x2=\"60\" y2=\"%d\" stroke=\"#444\"/>%n", y + Q_H, y + ROW));
            sb.append(String.format("<text x=\"66\" y=\"%d\" font-size=\"11\">no</text>%n", y + Q_H + 16));
        }
        List<String> names = new ArrayList<>();
        for (Scenario s : Causes.all()) if (s.cause() == c) names.add(s.name());
        sb.append(String.format("<a href=\"#cause-%s\" xlink:href=\"#cause-%s\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"8\" "
                + "fill=\"#fff4e0\" stroke=\"#a66\"/>%n", names.get(0), names.get(0), cx, y, W - cx - 20, Q_H));
        sb.append(String.format("<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", cx + 12, y + 21, c.name()));
        sb.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"11\">scenario: %s</text></a>%n",
                cx + 12, y + 40, esc(String.join(", ", names))));
        if (i == 0) {
            sb.insert(sb.indexOf("<rect width"), "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" "
                    + "refX=\"6\" refY=\"4\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#444\"/></marker></defs>\n");
        }
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
