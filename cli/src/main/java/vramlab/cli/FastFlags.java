package vramlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The launcher's JVM flags for a short command (every command but site, slides, grade and
 * release): the JIT's first tier alone, the serial collector, a young generation of half the
 * heap, a first heap of 6% of RAM. Why each, measured: the comment above {@code FAST} in
 * {@code ./vramlab}. They are written once, as one line of {@value #PATH}, which
 * {@code ./vramlab} reads as its {@code FAST} (with plain {@code cat}, before any build: a fresh
 * clone, a release and the Gradescope zip all hold {@code cli/src/main}), {@code bench/e2e.sh}
 * as its {@code JFLAT}, and this class from the class path for the child JVM that runs a command
 * on the student's cores ({@link StudentCores#childOptions}). {@code vramlab.cmd} holds a copy,
 * which {@code FastFlagsTest} holds to the file.
 */
final class FastFlags {
    /** The file, from the kit's root; on the class path as {@code vramlab/cli/fast-jvm-flags}. */
    static final String PATH = "cli/src/main/resources/vramlab/cli/fast-jvm-flags";

    private static final Pattern XX = Pattern.compile("-XX:[+-]?(\\w+)(=.*)?");

    private FastFlags() {}

    /** The flags, in the file's order. */
    static List<String> flags() {
        try (InputStream in = FastFlags.class.getResourceAsStream("fast-jvm-flags")) {
            if (in == null) throw new IllegalStateException("vramlab/cli/fast-jvm-flags is not on the class path (" + PATH + ")");
            return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip().split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code options}, then each of the flags that none of them decides already: what the user
     * chose (VRAMLAB_JAVA_OPTS, an IDE's settings) wins, and a JVM started by {@code ./vramlab}
     * gets each flag once.
     */
    static List<String> after(List<String> options) {
        List<String> out = new ArrayList<>(options);
        for (String flag : flags()) {
            if (options.stream().noneMatch(o -> decides(o).equals(decides(flag)))) out.add(flag);
        }
        return out;
    }

    /**
     * What an option decides: the JIT's tiers ({@code -XX:TieredStopAtLevel=N},
     * {@code -XX:-TieredCompilation}, {@code -Xint}), the collector (any {@code -XX:+UseXxxGC}:
     * the JVM refuses two), or else the {@code -XX} option it sets (the last one given wins, so a
     * flag added after the user's would overrule it).
     */
    static String decides(String option) {
        if (option.equals("-Xint")) return "the JIT's tiers";
        Matcher m = XX.matcher(option);
        if (!m.matches()) return option;
        String name = m.group(1);
        if (name.equals("TieredCompilation") || name.equals("TieredStopAtLevel")) return "the JIT's tiers";
        if (name.matches("Use\\w+GC")) return "the collector";
        return name;
    }
}
