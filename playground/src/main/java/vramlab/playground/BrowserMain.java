package vramlab.playground;

import org.teavm.jso.JSExport;

/**
 * What the page's script ({@code playground-ui.js}) calls, compiled to JavaScript by TeaVM under {@code -Psite}: each
 * function takes strings and returns JSON, so the page holds no logic of the simulators. On
 * the JVM these are plain static methods (the tests call them).
 */
public final class BrowserMain {
    private BrowserMain() {}

    /** A chapter's playground: its title, trace, policy and card. */
    @JSExport
    public static String vramlabPlayground(String chapter) {
        try {
            Playground p = Playground.of(chapter);
            return new JsonText().put("id", p.id()).put("title", p.title()).put("trace", p.trace())
                    .put("policy", p.policy()).put("card", p.card()).toString();
        } catch (RuntimeException e) {
            return new JsonText().put("error", "error: " + e.getMessage()).toString();
        }
    }

    /** The trace replayed up to {@code steps} events ({@code -1}: all), as {@link TraceRun} says. */
    @JSExport
    public static String vramlabReplay(String trace, String policy, String card, int steps) {
        TraceRun.Result r = TraceRun.run(trace, policy, card, steps);
        return new JsonText().put("step", r.step()).put("events", r.events()).put("summary", r.summary())
                .put("csv", r.csv()).put("svg", r.svg()).put("requested", r.requested())
                .put("allocated", r.allocated()).put("reserved", r.reserved())
                .put("counters", counters(r)).put("oom", r.oom()).put("error", r.error()).toString();
    }

    /** What {@code ./vramlab lab} prints for the chapter's playground scenarios. */
    @JSExport
    public static String vramlabLab(String chapter) {
        try {
            return new JsonText().put("output", Playground.of(chapter).labOutput()).toString();
        } catch (RuntimeException e) {
            return new JsonText().put("error", "error: " + e.getMessage()).toString();
        }
    }

    /**
     * A snapshot's replay, as {@code ./vramlab replay} prints it. {@code latin1} holds one byte
     * per character (what the page makes of the dropped file, unzipped).
     */
    @JSExport
    public static String vramlabSnapshot(String latin1, String file, String policy, String card) {
        byte[] bytes = new byte[latin1.length()];
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) latin1.charAt(i);
        return new JsonText().put("output", SnapshotRun.run(bytes, file, policy, card)).toString();
    }

    /** The three counters as the page shows them: as {@code Bytes.readable} writes them. */
    static java.util.List<String> counters(TraceRun.Result r) {
        return java.util.List.of(
                "requested " + vramlab.units.Bytes.readable(r.requested()),
                "allocated " + vramlab.units.Bytes.readable(r.allocated()),
                "reserved " + vramlab.units.Bytes.readable(r.reserved()));
    }
}
