package vramlab.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine.Option;

/**
 * {@code --instructor} and {@code --offline}, for the commands that render (site, slides); and
 * {@link #offline(Map)}, the one reading of {@code VRAMLAB_OFFLINE} on the Java side.
 */
public final class EditionOption {
    @Option(names = "--instructor",
            description = "the instructor edition: the reference bodies too, into its own folder")
    boolean instructor;

    @Option(names = "--offline", description = """
            passes -o to Maven (everything already downloaded once); VRAMLAB_OFFLINE=1 does too""")
    boolean offline;

    String edition() { return instructor ? "instructor" : "student"; }

    /**
     * Maven's command line for {@code args}: with {@code -o} under {@code --offline} or under
     * {@code VRAMLAB_OFFLINE} ({@link #offline(Map)}). The scripts built the launcher with
     * {@code -o} under that variable, and then site and slides ran their own Maven without it: on
     * a plane, {@code VRAMLAB_OFFLINE=1 ./vramlab site} reached for the network after the launcher
     * had built offline.
     */
    List<String> maven(Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ReleaseCommand.mvn()));
        if (offline || offline(env)) cmd.add("-o");
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * True when {@code env} sets {@code VRAMLAB_OFFLINE} to build offline, as the launcher scripts
     * ({@code vramlab}, {@code vramlab.cmd}) read it: 1, true or yes, in any case. The Maven that
     * site, slides and release run, and the site's tests that run Maven, ask here.
     */
    public static boolean offline(Map<String, String> env) {
        String v = env.getOrDefault("VRAMLAB_OFFLINE", "").toLowerCase(Locale.ROOT);
        return v.equals("1") || v.equals("true") || v.equals("yes");
    }
}
