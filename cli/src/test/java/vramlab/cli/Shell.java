package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs a script with bash in a folder, as a user at a terminal would, and keeps what it printed. */
record Shell(int status, String output) {
    static Shell run(Path dir, String script, Map<String, String> env, int minutes) throws IOException, InterruptedException {
        Path log = Files.createTempFile("shell", ".log");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("VRAMLAB_") || k.startsWith("MAVEN_") && !k.equals("MAVEN_OPTS"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("`" + script + "` in " + dir + " ran past " + minutes + " min:\n" + Files.readString(log));
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        return new Shell(p.exitValue(), out);
    }

    /** A copy of the kit's sources (no build output, no git), for a build of its own. */
    static void copySources(Path root, Path to) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(Files::isRegularFile).filter(p -> {
                Path rel = root.relativize(p);
                for (Path part : rel) {
                    String n = part.toString();
                    if (n.equals("target") || n.equals(".git") || n.equals("node_modules")) return false;
                }
                return !rel.toString().equals(".vramlab-build.log");
            }).toList();
        }
        for (Path f : files) {
            Path dest = to.resolve(root.relativize(f).toString());
            Files.createDirectories(dest.getParent());
            Files.copy(f, dest, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
    }
}
