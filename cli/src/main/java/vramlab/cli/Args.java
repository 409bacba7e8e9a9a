package vramlab.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small option parser: {@code --flag}, {@code --key value}, {@code --key=value}, and
 * positional arguments. Unknown options are a usage error naming the option.
 */
public final class Args {
    private final Map<String, String> options = new LinkedHashMap<>();
    private final List<String> positional = new ArrayList<>();

    private Args() {}

    /**
     * @param command   the command's name, for error messages
     * @param flags     options that take no value
     * @param valued    options that take a value
     */
    public static Args parse(String command, List<String> args, Set<String> flags, Set<String> valued) {
        Args a = new Args();
        for (int i = 0; i < args.size(); i++) {
            String s = args.get(i);
            if (!s.startsWith("--") || s.equals("--")) {
                a.positional.add(s);
                continue;
            }
            String key = s, value = null;
            int eq = s.indexOf('=');
            if (eq > 0) {
                key = s.substring(0, eq);
                value = s.substring(eq + 1);
            }
            if (flags.contains(key) && value == null) {
                a.options.put(key, "true");
            } else if (valued.contains(key)) {
                if (value == null) {
                    if (i + 1 >= args.size()) throw new UsageException(command, key + " needs a value");
                    value = args.get(++i);
                }
                a.options.put(key, value);
            } else {
                throw new UsageException(command, "unknown option " + key + " (see " + command + " --help)");
            }
        }
        return a;
    }

    public boolean flag(String key) { return options.containsKey(key); }
    public String value(String key, String orElse) { return options.getOrDefault(key, orElse); }
    public List<String> positional() { return positional; }
}
