package vramlab.site;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} pairs for the build-time mains; every name listed is required. */
final class Args {
    private Args() {}

    static Map<String, String> parse(String[] args, String... required) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) out.put(args[i], args[i + 1]);
        for (String r : required) {
            if (!out.containsKey(r)) {
                throw new IllegalArgumentException("missing " + r + " (expected " + String.join(" <v> ", List.of(required))
                        + " <v>)");
            }
        }
        return out;
    }
}
