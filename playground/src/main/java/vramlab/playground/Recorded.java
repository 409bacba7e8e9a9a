package vramlab.playground;

import java.util.List;

/**
 * What the student edition's pages show for their preset inputs, recorded from the reference
 * when the site is built: the student bundle is compiled from the cores as handed out, where
 * every graded step is a {@code Todo}, so it cannot compute them. The script defines one global,
 * {@code vramlabRecorded}, that {@code playground-ui.js} reads: for each chapter, its lab's
 * output and, for a chapter with a trace, every step of the preset trace on the preset card
 * under each policy of the menu, each the very JSON {@link BrowserMain} answers on the reference
 * cores. The page uses a recording only for an input that is exactly a preset, and labels it so.
 */
public final class Recorded {
    /** The script's file name, beside the bundle (the release's body check reads it whole). */
    public static final String FILE = "vramlab-playground-recorded.js";

    private Recorded() {}

    /** {@code var vramlabRecorded = {...};} for {@code playgrounds}, computed by the cores on the classpath. */
    public static String script(List<Playground> playgrounds) {
        StringBuilder sb = new StringBuilder("/* Recorded from the reference cores when this site was built"
                + " (vramlab.playground.Recorded); the page shows them for its preset inputs only. */\n"
                + "var vramlabRecorded = {");
        for (int i = 0; i < playgrounds.size(); i++) {
            Playground p = playgrounds.get(i);
            if (i > 0) sb.append(',');
            sb.append('\n').append(JsonText.quoted(p.id())).append(":{\"lab\":").append(BrowserMain.vramlabLab(p.id()))
                    .append(",\"replay\":{");
            if (p.hasTrace()) {
                int events = TraceRun.parse(p.trace()).size();
                TraceRun.Choice[] choices = TraceRun.Choice.values();
                for (int c = 0; c < choices.length; c++) {
                    if (c > 0) sb.append(',');
                    sb.append('\n').append(JsonText.quoted(choices[c].id())).append(":[");
                    for (int step = 0; step <= events; step++) {
                        if (step > 0) sb.append(",\n");
                        sb.append(replay(p, choices[c], step));
                    }
                    sb.append(']');
                }
            }
            sb.append("}}");
        }
        return sb.append("\n};\n").toString();
    }

    /** One recorded step: what the page's Step and Run call on the reference. */
    static String replay(Playground p, TraceRun.Choice choice, int step) {
        return BrowserMain.vramlabReplay(p.trace(), choice.id(), p.card(), step);
    }
}
