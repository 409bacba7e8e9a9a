package vramlab.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import vramlab.quiz.build.CoreBuild;

/**
 * Whose cores a command runs: the student's, compiled from {@code labs/src/main/java} one core at
 * a time ({@link CoreBuild}, incrementally, into {@code labs/target/vramlab-mine/}), or the
 * reference in {@code solutions/}. The chapters, the toolkit and the launcher are compiled
 * against the reference, and a student's cores keep its signatures, so running them on the
 * student's cores is a class-path swap: a child JVM whose class path has the student's core
 * folders where the reference's classes were.
 */
final class StudentCores {
    /** The system property a child JVM runs with: it is already on the student's cores. */
    static final String CHILD = "vramlab.cores";

    /** The marker file, in labs/, that makes labs/ the student's. */
    static final String MARKER = "STUDENT_COPY";

    /** Names another labs/ folder than the kit's (the launcher's tests use a scratch copy). */
    static final String LABS = "vramlab.labs";

    private StudentCores() {}

    /** Is this JVM the child that runs on the student's cores? */
    static boolean inChild() { return System.getProperty(CHILD) != null; }

    /**
     * Does a command run the student's cores? {@code --mine} says yes, {@code --reference} no;
     * without either, yes in a student's copy ({@code labs/STUDENT_COPY} exists).
     */
    static boolean mine(Path root, CoresOption a, String command) {
        if (a.mine && a.reference) {
            throw new UsageException(command, "--mine and --reference exclude each other");
        }
        if (a.reference) refuseReferenceInRelease(root, command);
        if (a.mine) return true;
        if (a.reference) return false;
        return Files.exists(labs(root).resolve(MARKER));
    }

    /** {@code --reference} in a student release, which has no reference: one line saying so. */
    static void refuseReferenceInRelease(Path root, String command) {
        if (vramlab.quiz.KitPaths.isRelease(root)) {
            throw new UsageException(command, "--reference: this copy has no reference cores (they stay with your"
                    + " instructor's copy); it runs your labs/, and where a core of yours does not compile, the cores as"
                    + " handed out (every step a Todo)");
        }
    }

    /**
     * The line that says whose code a command runs, and the one command that switches: said by
     * {@code lab}, {@code jshell} and {@code check} every time, on standard error.
     */
    static String whose(Path root, boolean mine, String command) {
        if (mine) {
            return "vramlab: " + command + " runs your cores in labs/" + (vramlab.quiz.KitPaths.isRelease(root) ? ""
                    : Files.exists(labs(root).resolve(MARKER)) ? " (--reference runs the reference in solutions/)"
                    : " (--reference runs the reference in solutions/; touch labs/STUDENT_COPY to make yours the default)");
        }
        return "vramlab: " + command + " runs the reference cores in solutions/, not your labs/ ("
                + (command.equals("check") ? "drop --reference" : Files.exists(labs(root).resolve(MARKER)) ? "drop --reference"
                : "--mine, or touch labs/STUDENT_COPY once") + " to run yours)";
    }

    /** Where the kit is: {@code -Dvramlab.home} (the launcher sets it), else the folder above. */
    static Path root() { return vramlab.quiz.KitPaths.root(); }

    /** The student's labs/ folder: {@code -Dvramlab.labs}, else the kit's. */
    static Path labs(Path root) {
        String p = System.getProperty(LABS);
        return p == null || p.isBlank() ? root.resolve("labs") : Path.of(p).toAbsolutePath();
    }

    /** The student's sources and the build folder of their cores. */
    static Path sources(Path root) { return labs(root).resolve("src/main/java"); }

    static Path work(Path root) { return labs(root).resolve("target/vramlab-mine"); }

    /**
     * Compiles the student's cores named (and those they need), reusing what is unchanged. For a
     * core that does not compile, prints its first errors to {@code err}, and that the reference
     * stands in for it.
     */
    static CoreBuild.Result build(Path root, Collection<String> cores, PrintStream err) {
        Path reference = vramlab.quiz.KitPaths.standIn(root);    // a release: cores/ as handed out
        if (!Files.isDirectory(reference)) {
            throw new IllegalStateException("the kit is not built (" + reference + " is missing): run ./vramlab --help once");
        }
        if (!Files.isDirectory(sources(root))) {
            // labs/src/main/java is generated (not in git): a clone that was never built by Maven gets it
            // here; a student's existing labs/ is never written over (LabGenerator.sync).
            try {
                vramlab.labgen.LabGenerator.sync(root.resolve("solutions"), labs(root), false);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        dropStale(work(root));
        CoreBuild.Result r = new CoreBuild(sources(root), reference, work(root)).build(cores);
        for (CoreBuild.Outcome o : r.failed()) {
            err.print(compileReport(o, root, Path.of(""), vramlab.quiz.KitPaths.isRelease(root)));
        }
        return r;
    }

    /**
     * A folder an older kit wrote under {@code labs/target/vramlab-mine/} that nothing reads now:
     * {@code chapters/}, where it remembered which cores each chapter's classes used (read from
     * its class files, before the chapters declared their cores). One look per build; removed
     * when there.
     */
    static final String STALE = "chapters";

    static void dropStale(Path work) {
        Path stale = work.resolve(STALE);
        if (!Files.isDirectory(stale, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (java.util.stream.Stream<Path> s = Files.walk(stale)) {       // a link inside is removed, not followed
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        } catch (IOException e) {
            // left for the next build: a cache nobody reads is no reason to stop one
        }
    }

    /**
     * The class path of the student's cores for chapter {@code c}'s {@code lab} or {@code jshell}
     * ({@code command}, as said on standard error): {@link #forCores} of the cores the chapter
     * declares ({@link ChapterCores}).
     */
    static List<Path> forChapter(Path root, vramlab.kit.ChapterLab c, String command, PrintStream err) {
        return forCores(root, ChapterCores.of(c), command, "chapter " + c.number(), err);
    }

    /**
     * The class path of the student's cores for a command that runs {@code cores} ({@code command}
     * as said on standard error, {@code user} as named in its line: {@code chapter 3},
     * {@code replay}): those cores compiled as {@link #build} compiles them, every other core as
     * handed out (the reference in the kit), uncompiled. A core left out that did not compile when
     * last compiled, or whose sources changed since (a file's text, or a file added, deleted or renamed:
     * {@link CoreBuild#changedSinceBuilt}, by content, not by time), is
     * named in one line, with what compiles it: its errors are not printed here ({@code user} does
     * not run it), nor passed over in silence.
     */
    static List<Path> forCores(Path root, List<String> cores, String command, String user, PrintStream err) {
        CoreBuild.Result built = build(root, cores, err);
        CoreBuild standIns = new CoreBuild(sources(root), vramlab.quiz.KitPaths.standIn(root), work(root));
        java.util.Set<String> changedSince = built.outcomes().size() == CoreBuild.CORES.size() ? java.util.Set.of()
                : standIns.changedSinceBuilt();
        List<Path> out = new ArrayList<>();
        List<String> broken = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (CoreBuild.Core core : CoreBuild.CORES) {
            CoreBuild.Outcome o = built.of(core.name());
            if (o != null) {
                out.add(o.classes());
                continue;
            }
            out.add(standIns.standIn(core.name()));
            if (changedSince.contains(core.name())) changed.add(core.name());
            else if (!standIns.lastBuildCompiled(core.name())) broken.add(core.name());   // never built: compiled
        }
        if (!broken.isEmpty()) err.print(notCompiled(command, user, broken, "did not compile when last compiled"));
        if (!changed.isEmpty()) err.print(notCompiled(command, user, changed, "changed since last compiled"));
        return out;
    }

    /** The line {@link #forCores} says of the cores {@code user} does not run, {@code why} to be named. */
    static String notCompiled(String command, String user, List<String> cores, String why) {
        boolean one = cores.size() == 1;
        return "vramlab: " + command + " left your " + String.join(", ", cores) + " core" + (one ? "" : "s")
                + " uncompiled, " + why + ": " + user + " does not use " + (one ? "it" : "them")
                + " (lab, jshell or check of a chapter that does compiles " + (one ? "it" : "them") + " and shows any error)\n";
    }

    /** Every core. */
    static List<String> allCores() { return CoreBuild.CORES.stream().map(CoreBuild.Core::name).toList(); }

    /**
     * What a student reads when a core did not compile: the errors as file:line: message, and what
     * runs in its place: the reference, or in a release (which has none) the core as handed out.
     */
    static String compileReport(CoreBuild.Outcome o, Path root, Path cwd, boolean release) {
        StringBuilder sb = new StringBuilder("vramlab: your " + o.core().name() + " core ("
                + String.join(", ", o.core().packages()) + ") does not compile:\n");
        for (CoreBuild.CompileError e : o.errors()) sb.append("  ").append(errorAt(root, cwd, e)).append('\n');
        if (release) {
            sb.append("  The ").append(o.core().name()).append(" classes as handed out (every step a Todo)")
              .append(" stand in for it until it compiles.\n");
        } else {
            sb.append("  The reference's ").append(o.core().name())
              .append(" classes stand in for it until it compiles; --reference runs everything on the reference.\n");
        }
        return sb.toString();
    }

    /**
     * A compile error as {@code file:line: message}, the file named as it opens from {@code cwd}
     * ({@link vramlab.quiz.KitPaths#fromCwd}; from the copy's root {@code labs/src/main/java/...},
     * from {@code labs/} {@code src/main/java/...}): {@code check}'s report and the compile report
     * {@code lab}, {@code jshell} and {@code check} print on standard error say it alike. An error
     * the compiler gave no file keeps the old form.
     */
    static String errorAt(Path root, Path cwd, CoreBuild.CompileError e) {
        if (e.file().equals("?")) return "labs/src/main/java/" + e;
        return vramlab.quiz.KitPaths.fromCwd(sources(root).resolve(e.file()), cwd) + ":" + e.line() + ": " + e.message();
    }

    /** This JVM's class path with the reference cores replaced by {@code cores}, in their order. */
    static String classpath(List<Path> cores) {
        String reference = referenceEntry();
        List<String> out = new ArrayList<>();
        boolean swapped = false;
        for (String entry : entries()) {
            if (same(entry, reference)) {
                cores.forEach(c -> out.add(c.toAbsolutePath().toString()));
                swapped = true;
            } else {
                out.add(entry);
            }
        }
        if (!swapped) throw new IllegalStateException("the reference cores (" + reference + ") are not on the class path");
        return String.join(File.pathSeparator, out);
    }

    /**
     * This JVM's class path, each jar followed by the entries of its manifest's {@code Class-Path}
     * (a test runner's manifest-only booter jar holds the real class path there).
     */
    static List<String> entries() {
        List<String> out = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty()) continue;
            out.add(entry);
            for (String inside : manifestClassPath(Path.of(entry))) if (!out.contains(inside)) out.add(inside);
        }
        return out;
    }

    private static List<String> manifestClassPath(Path jar) {
        if (!jar.toString().endsWith(".jar") || !Files.isRegularFile(jar)) return List.of();
        try (java.util.jar.JarFile j = new java.util.jar.JarFile(jar.toFile())) {
            java.util.jar.Manifest m = j.getManifest();
            String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
            if (cp == null || cp.isBlank()) return List.of();
            List<String> out = new ArrayList<>();
            for (String url : cp.trim().split("\\s+")) {
                out.add(Path.of(jar.toUri().resolve(url)).toString());
            }
            return out;
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The class path entry the reference cores come from (a jar or a classes folder). */
    static String referenceEntry() {
        try {
            return Path.of(vramlab.units.Bytes.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell where the reference cores are loaded from", e);
        }
    }

    private static boolean same(String entry, String reference) {
        return Path.of(entry).toAbsolutePath().normalize().equals(Path.of(reference).toAbsolutePath().normalize());
    }

    /**
     * Runs {@code vramlab <args>} in a child JVM on {@code cores} and returns its exit status. Its
     * output goes to {@code io}; when {@code stdin} is true it reads {@code io}'s input.
     */
    static int runChild(Path root, List<Path> cores, List<String> args, Io io, boolean stdin)
            throws IOException, InterruptedException {
        List<String> cmd = childCommand(root, cores, args);
        io.out().flush();
        io.err().flush();
        ProcessBuilder pb = new ProcessBuilder(cmd);
        boolean system = io.in() == System.in;
        if (system) {
            pb.inheritIO();
            if (!stdin) pb.redirectInput(ProcessBuilder.Redirect.from(devNull()));
            return pb.start().waitFor();
        }
        Process p = pb.start();
        Thread out = pump(p.getInputStream(), io.out());
        Thread err = pump(p.getErrorStream(), io.err());
        try (OutputStream in = p.getOutputStream()) {
            if (stdin) io.in().transferTo(in);
        }
        int status = p.waitFor();
        out.join();
        err.join();
        return status;
    }

    /** The command line of {@code vramlab <args>} in a child JVM on {@code cores}. */
    static List<String> childCommand(Path root, List<Path> cores, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(childOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        cmd.addAll(List.of("-D" + CHILD + "=mine", "-Dvramlab.home=" + root, "-cp", classpath(cores),
                Main.class.getName()));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * The child's JVM options: this JVM's own (the launcher's, VRAMLAB_JAVA_OPTS), less the ones
     * that name this JVM's role or attach a debugger or agent; then each of the launcher's flags
     * for a short command ({@link FastFlags}, the file {@code ./vramlab} reads as its FAST) that
     * the parent did not decide otherwise. Run from {@code ./vramlab} the parent already has them;
     * run any other way (an IDE, {@code java -cp}, the launcher's tests) the child got the JVM's
     * defaults, C2 and G1: a JShell session on the student's cores then cost ~4.3 s of CPU
     * instead of ~2.7 s (two runs each, a loaded 2-core machine).
     */
    static List<String> childOptions(List<String> parent) {
        List<String> out = new ArrayList<>();
        for (String opt : parent) {
            if (opt.startsWith("-D" + CHILD + "=") || opt.startsWith("-Dvramlab.home=") || opt.startsWith("-agentlib")
                    || opt.startsWith("-javaagent") || opt.startsWith("-Xrunjdwp")) continue;
            out.add(opt);
        }
        return FastFlags.after(out);
    }

    private static File devNull() {
        return new File(System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static Thread pump(InputStream from, PrintStream to) {
        Thread t = new Thread(() -> {
            try {
                from.transferTo(to);
                to.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }
}
