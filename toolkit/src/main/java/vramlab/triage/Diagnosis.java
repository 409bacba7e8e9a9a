package vramlab.triage;

import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of a triage: the most likely cause, the reading it was drawn from, the sentences
 * that led there (in the ladder's order), and the cause's fix ladder.
 */
public record Diagnosis(Cause cause, Reading reading, List<String> evidence) {

    public Diagnosis {
        evidence = List.copyOf(evidence);
    }

    public List<String> fixes() { return cause.fixes(); }

    /** The human report {@code vramlab triage} prints. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("Format: ").append(reading.family().description()).append('\n');
        if (!reading.source().isEmpty()) sb.append("Printed by: ").append(reading.source()).append('\n');
        sb.append("\nNumbers found:\n");
        boolean any = false;
        for (Figure f : Figure.values()) {
            if (!reading.has(f)) continue;
            any = true;
            long v = reading.get(f);
            String shown = f.isBytes() ? formatSize(v) + " (" + v + " bytes)" : String.valueOf(v);
            sb.append(String.format("  %-45s %s%n", f.label(), shown));
        }
        reading.processes().forEach((pid, bytes) -> sb.append(String.format("  %-45s %s%n",
                "  process " + pid, formatSize(bytes))));
        if (!any) sb.append("  none\n");
        if (!reading.missing().isEmpty()) {
            sb.append("  missing: ").append(String.join(", ", reading.missing())).append('\n');
        }
        sb.append("\nMost likely cause: ").append(cause.name());
        if (cause.step() > 0) sb.append(" (ladder step ").append(cause.step()).append(" of 6)");
        sb.append(": ").append(cause.title()).append("\n\nWhy, in the ladder's order:\n");
        evidence.forEach(e -> sb.append("  - ").append(e).append('\n'));
        sb.append("\nFix ladder, cheapest first:\n");
        for (int i = 0; i < fixes().size(); i++) {
            sb.append("  ").append(i + 1).append(". ").append(fixes().get(i)).append('\n');
        }
        if (!reading.notes().isEmpty()) {
            sb.append("\nAbout the message:\n");
            reading.notes().forEach(n -> sb.append("  - ").append(n).append('\n'));
        }
        return sb.toString();
    }

    /** One JSON object: cause, numbers (bytes as longs, null when absent), evidence, fixes. */
    public String json() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("cause", cause.name());
        o.put("step", cause.step());
        o.put("family", reading.family().name());
        o.put("backend", reading.backend());
        o.put("source", reading.source());
        Map<String, Object> numbers = new LinkedHashMap<>();
        for (Figure f : Figure.values()) numbers.put(f.key(), reading.has(f) ? reading.get(f) : null);
        o.put("numbers", numbers);
        List<Object> processes = new ArrayList<>();
        reading.processes().forEach((pid, bytes) -> {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("pid", (long) pid);
            p.put("bytes", bytes);
            processes.add(p);
        });
        o.put("processes", processes);
        o.put("evidence", evidence);
        o.put("fixes", fixes());
        o.put("missing", reading.missing());
        o.put("notes", reading.notes());
        return Json.write(o);
    }
}
