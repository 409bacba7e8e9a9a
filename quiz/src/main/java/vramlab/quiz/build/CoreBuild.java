package vramlab.quiz.build;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles a student's cores one core at a time, in dependency order, so that a file that does
 * not compile costs only its own core: the reference classes of that core stand in for it, the
 * cores built on it compile against the reference, and the result says which core fell back and
 * why (the compiler's first errors, as {@code file:line: message}).
 *
 * <p>The reference stands in only so that the <em>other</em> cores' graded tests can run: a core
 * that fell back earns nothing for its own steps (callers book them as "did not compile", see
 * {@link #coreOfFile}). A core that compiles is always the student's own: no reference class is
 * ever mixed into it, so deleting a file makes its core fail to compile rather than bringing the
 * reference's body back. Each core's output is cached under
 * {@code work/<core>/} with a fingerprint of its sources and of the cores it was compiled against;
 * an unchanged core is not compiled again. Beside it, a digest of the core's own sources alone
 * answers {@link #changedSinceBuilt} by content, never by a file's time. The batch grader also
 * hands every build one {@link CoreCache}, so a core another submission already compiled from
 * the same sources is copied, not compiled.
 *
 * <p>Used by the launcher ({@code check}, {@code lab --mine}, {@code jshell --mine}) and by the
 * batch grader, so both treat a broken file the same way.
 */
public final class CoreBuild {

    /** One core a student owns: its packages and the cores it is compiled against. */
    public record Core(String name, List<String> packages, List<String> needs) {
        /** Does {@code pkg} (dotted) belong to this core? */
        public boolean owns(String pkg) { return packages.contains(pkg); }
    }

    /** The kit's cores, in dependency order (each needs only cores listed before it). */
    public static final List<Core> CORES = List.of(
            new Core("base", List.of("vramlab.units", "vramlab.lab"), List.of()),
            new Core("gmmu", List.of("vramlab.gmmu"), List.of("base")),
            new Core("driver", List.of("vramlab.driver"), List.of("base", "gmmu")),
            new Core("alloc", List.of("vramlab.alloc"), List.of("base", "gmmu", "driver")),
            new Core("buddy", List.of("vramlab.buddy"), List.of("base", "gmmu", "driver")),
            new Core("kv", List.of("vramlab.kv"), List.of("base", "gmmu", "driver")),
            new Core("pinned", List.of("vramlab.pinned"), List.of("base", "gmmu", "driver", "alloc")),
            new Core("contest", List.of("vramlab.contest"), List.of("base", "gmmu", "driver", "alloc", "buddy")));

    /** One compiler error: the file relative to the sources, its line, and the message's first line. */
    public record CompileError(String file, long line, String message) {
        @Override public String toString() { return file + ":" + line + ": " + message; }
    }

    /**
     * How one core was built.
     *
     * @param core     the core
     * @param classes  the folder holding its classes (the student's, or the reference's copy)
     * @param student  true when these are the student's own classes
     * @param errors   why the student's sources did not compile (empty when they did)
     * @param reused   true when nothing was compiled: the output in {@code work} was still good, or a
     *                 {@link CoreCache} held this very build
     */
    public record Outcome(Core core, Path classes, boolean student, List<CompileError> errors, boolean reused) {
        /** One line for a report: {@code alloc: did not compile (CachingAllocator.java:12: ...)}. */
        public String summary() {
            if (student) return core.name() + ": compiled";
            return core.name() + ": did not compile, the reference stands in ("
                    + String.join("; ", errors.stream().map(CompileError::toString).toList()) + ")";
        }
    }

    /** The whole build: one outcome per core, in {@link #CORES} order. */
    public record Result(List<Outcome> outcomes) {
        /** The class folders to put on a class path, in dependency order. */
        public List<Path> classpath() { return outcomes.stream().map(Outcome::classes).toList(); }

        /** The cores whose sources did not compile. */
        public List<Outcome> failed() { return outcomes.stream().filter(o -> !o.student()).toList(); }

        public boolean allCompiled() { return failed().isEmpty(); }

        /** The outcome of the core named {@code coreName}, or null. */
        public Outcome of(String coreName) {
            return outcomes.stream().filter(o -> o.core().name().equals(coreName)).findFirst().orElse(null);
        }
    }

    /**
     * The core a source file belongs to, by its package folder: {@code labs/src/main/java/vramlab/alloc/Sim.java}
     * (or {@code vramlab/alloc/Sim.java}) is {@code alloc}; a file outside every core's packages is {@code base}.
     */
    public static Core coreOfFile(String path) {
        String p = path.replace('\\', '/');
        int at = p.lastIndexOf("vramlab/");
        int slash = p.lastIndexOf('/');
        String pkg = at < 0 || slash < at ? "" : p.substring(at, slash).replace('/', '.');
        return CORES.stream().filter(c -> c.owns(pkg)).findFirst().orElse(CORES.get(0));
    }

    /** How many compiler errors a failed core reports. */
    public static final int MAX_ERRORS = 5;

    private final Path sources;
    private final Path reference;
    private final Path work;
    private final CoreCache cache;

    /**
     * @param sources   the student's {@code labs/src/main/java} (package folders below it)
     * @param reference the compiled reference cores ({@code solutions/target/classes})
     * @param work      a folder this build owns: one subfolder per core
     */
    public CoreBuild(Path sources, Path reference, Path work) {
        this(sources, reference, work, null);
    }

    /**
     * As {@link #CoreBuild(Path, Path, Path)}, and a core that is not in {@code work} but in
     * {@code cache} (the same fingerprint, compiled in this JVM for another submission) is copied
     * from there instead of compiled; a core compiled here is added to it.
     */
    public CoreBuild(Path sources, Path reference, Path work, CoreCache cache) {
        this.sources = sources;
        this.reference = reference;
        this.work = work;
        this.cache = cache;
    }

    /** Builds every core, reusing what is unchanged. */
    public Result build() { return build(CORES.stream().map(Core::name).toList()); }

    /**
     * Builds only the cores named and the cores they need (so {@code check 3.1} compiles base to
     * alloc, not pinned), reusing what is unchanged; the result holds just those, in
     * {@link #CORES} order.
     */
    public Result build(Collection<String> wanted) {
        Javac javac = new Javac();              // looked up only when a core is compiled: ~0.05 s of class loading
        Set<String> closure = closure(wanted);
        Map<String, List<Path>> files = sourcesByCore();
        Map<String, Outcome> done = new LinkedHashMap<>();
        for (Core core : CORES) {
            if (!closure.contains(core.name())) continue;
            List<Path> deps = core.needs().stream().map(n -> done.get(n).classes()).toList();
            Stamp stamp = stamp(core, files.get(core.name()), done);
            done.put(core.name(), buildOne(javac, core, files.get(core.name()), deps, stamp));
        }
        return new Result(List.copyOf(done.values()));
    }

    /** The cores named and, transitively, every core they need. */
    static Set<String> closure(Collection<String> wanted) {
        Set<String> out = new HashSet<>();
        for (String n : wanted) {
            Core c = CORES.stream().filter(k -> k.name().equals(n)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no core '" + n + "'"));
            out.add(c.name());
            out.addAll(c.needs());
        }
        return out;
    }

    /** The system's compiler, found the first time a core is compiled (an up-to-date build needs none). */
    private static final class Javac {
        private JavaCompiler javac;

        JavaCompiler get() {
            if (javac == null) javac = ToolProvider.getSystemJavaCompiler();
            if (javac == null) throw new IllegalStateException("compiling the labs needs a JDK (javac), not a JRE");
            return javac;
        }
    }

    private Outcome buildOne(Javac javac, Core core, List<Path> files, List<Path> deps, Stamp digests) {
        String fingerprint = digests.fingerprint();
        Path dir = work.resolve(core.name());
        Path stamp = dir.resolve(FINGERPRINT);
        Path studentOut = dir.resolve("classes");
        Path referenceOut = dir.resolve("reference");
        try {
            if (Files.isRegularFile(stamp)) {
                List<String> s = Files.readAllLines(stamp, StandardCharsets.UTF_8);
                if (s.size() >= 2 && s.get(0).equals(fingerprint)) {
                    boolean student = s.get(1).equals("student");
                    List<CompileError> errors = s.stream().skip(2).map(CoreBuild::parseError).toList();
                    String own = digests.sources();
                    if (!own.equals(recordedSources(dir))) recordSources(dir, own);     // an older kit kept none
                    return new Outcome(core, student ? studentOut : referenceOut, student, errors, true);
                }
            }
            deleteTree(dir);
            Outcome o;
            if (cache == null) {
                o = compileOrCopy(javac, core, files, deps, fingerprint, dir, stamp);
            } else {
                synchronized (cache.lock(fingerprint)) {
                    o = compileOrCopy(javac, core, files, deps, fingerprint, dir, stamp);
                }
            }
            recordSources(dir, digests.sources());
            return o;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The core's classes from the cache when it holds this fingerprint, else compiled (and kept there). */
    private Outcome compileOrCopy(Javac javac, Core core, List<Path> files, List<Path> deps,
                                  String fingerprint, Path dir, Path stamp) throws IOException {
        Path studentOut = dir.resolve("classes");
        Path referenceOut = dir.resolve("reference");
        CoreCache.Entry hit = cache == null ? null : cache.get(fingerprint);
        if (hit != null) {
            boolean student = hit.stamp().get(1).equals("student");
            CoreCache.copy(hit, student ? studentOut : referenceOut);
            Files.write(stamp, hit.stamp(), StandardCharsets.UTF_8);
            List<CompileError> errors = hit.stamp().stream().skip(2).map(CoreBuild::parseError).toList();
            return new Outcome(core, student ? studentOut : referenceOut, student, errors, true);
        }
        Files.createDirectories(studentOut);
        List<CompileError> errors = files.isEmpty()
                ? List.of(new CompileError(core.packages().get(0).replace('.', '/'), 0,
                        "no sources for this core"))
                : compile(javac.get(), files, deps, studentOut);
        boolean student = errors.isEmpty();
        if (!student) {
            deleteTree(studentOut);
            copyReference(core, referenceOut);
        }
        List<String> lines = new ArrayList<>(List.of(fingerprint, student ? "student" : "reference"));
        errors.forEach(e -> lines.add(e.file() + "\t" + e.line() + "\t" + e.message()));
        Files.write(stamp, lines, StandardCharsets.UTF_8);
        if (cache != null) cache.put(fingerprint, lines, student ? studentOut : referenceOut);
        return new Outcome(core, student ? studentOut : referenceOut, student, errors, false);
    }

    private List<CompileError> compile(JavaCompiler javac, List<Path> files, List<Path> deps, Path out)
            throws IOException {
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        String cp = String.join(java.io.File.pathSeparator, deps.stream().map(Path::toString).toList());
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diags, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = new ArrayList<>(List.of("-d", out.toString(), "-proc:none", "--release", "17",
                    "-nowarn", "-encoding", "UTF-8", "-implicit:none", "-sourcepath", ""));
            options.addAll(List.of("-classpath", cp.isEmpty() ? out.toString() : cp));
            boolean ok = javac.getTask(new StringWriter(), fm, diags, options, null,
                    fm.getJavaFileObjectsFromPaths(files)).call();
            if (ok) return List.of();
        }
        List<CompileError> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR || errors.size() >= MAX_ERRORS) continue;
            String file = d.getSource() == null ? "?" : relative(Path.of(d.getSource().toUri()));
            String message = d.getMessage(Locale.ROOT).lines().findFirst().orElse("").strip();
            errors.add(new CompileError(file, Math.max(0, d.getLineNumber()), message));
        }
        if (errors.isEmpty()) errors.add(new CompileError("?", 0, "javac failed without an error message"));
        return errors;
    }

    private String relative(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path src = sources.toAbsolutePath().normalize();
        return abs.startsWith(src) ? src.relativize(abs).toString().replace('\\', '/') : abs.toString();
    }

    /**
     * The reference's classes of the core named, alone (in a student release, the core as handed
     * out): what a class path runs for a core this build did not compile, so that a command that
     * needs only some cores ({@code lab 3}) still finds every class. Copied once into
     * {@code work/standin/<core>/}, again when the reference is rebuilt.
     */
    public Path standIn(String coreName) {
        Core core = CORES.stream().filter(k -> k.name().equals(coreName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no core '" + coreName + "'"));
        Path dir = work.resolve("standin").resolve(core.name());
        Path stamp = work.resolve("standin").resolve(core.name() + ".stamp");
        Path classes = dir.resolve("classes");
        try {
            byte[] now = referenceStamp(core);
            if (Files.isRegularFile(stamp) && java.util.Arrays.equals(Files.readAllBytes(stamp), now)) return classes;
            deleteTree(dir);
            copyReference(core, classes);
            Files.write(stamp, now);
            return classes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The cores whose sources differ from those they were last built from here: a file whose text
     * changed (whatever its time says: {@code git checkout} and {@code cp -p} set a file's time
     * back), or a file added, deleted or renamed. A file saved again with the same text is no
     * change. Answered by {@link #sourcesDigest}, against the one kept beside the core's
     * {@code fingerprint.txt}; a core never built here is not named, and one built by a kit that
     * kept no digest is named (nothing says it is unchanged). Every source is read once.
     */
    public Set<String> changedSinceBuilt() {
        Set<String> out = new java.util.LinkedHashSet<>();
        sourcesByCore().forEach((core, files) -> {
            Path dir = work.resolve(core);
            if (!Files.isRegularFile(dir.resolve(FINGERPRINT))) return;
            try {
                if (!sourcesDigest(files).equals(recordedSources(dir))) out.add(core);
            } catch (IOException e) {
                out.add(core);                                  // a file that cannot be read: not as built
            }
        });
        return out;
    }

    /** The file in {@code work/<core>/} saying how the core was built: fingerprint, whose classes, errors. */
    static final String FINGERPRINT = "fingerprint.txt";

    /** The file beside {@link #FINGERPRINT} holding the {@link #sourcesDigest} of the sources that build read. */
    static final String SOURCES_DIGEST = "sources.sha256";

    private static void recordSources(Path dir, String digest) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(SOURCES_DIGEST), digest + "\n", StandardCharsets.UTF_8);
    }

    /** The digest kept in {@code dir}, or "" when there is none to read. */
    private static String recordedSources(Path dir) {
        try {
            Path f = dir.resolve(SOURCES_DIGEST);
            return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.UTF_8).strip() : "";
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Whether the student's sources compiled when the core named was last built here; true when
     * it never was.
     */
    public boolean lastBuildCompiled(String coreName) {
        Path stamp = work.resolve(coreName).resolve(FINGERPRINT);
        try {
            if (!Files.isRegularFile(stamp)) return true;
            List<String> s = Files.readAllLines(stamp, StandardCharsets.UTF_8);
            return s.size() < 2 || s.get(1).equals("student");
        } catch (IOException e) {
            return true;
        }
    }

    /** Copies the reference's classes of exactly this core's packages (no subpackages). */
    private void copyReference(Core core, Path out) throws IOException {
        for (String pkg : core.packages()) {
            Path from = reference.resolve(pkg.replace('.', '/'));
            Path to = out.resolve(pkg.replace('.', '/'));
            Files.createDirectories(to);
            if (!Files.isDirectory(from)) continue;
            try (Stream<Path> s = Files.list(from)) {
                for (Path f : s.filter(f -> f.toString().endsWith(".class")).toList()) {
                    Files.copy(f, to.resolve(f.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /**
     * Whether {@code p} is a Java source to compile: named {@code *.java}, but not {@code ._*.java},
     * the AppleDouble file macOS writes beside each file it copies to a volume or archives
     * without its extended attributes ({@code tar} and {@code cp} to a USB stick; Finder's zip
     * puts them under {@code __MACOSX/}, which the intake skips). Its bytes are binary
     * ({@code 00 05 16 07}), so a {@code .tar.gz} made on a Mac failed every core it touched with
     * "._Pte.java:1: illegal character: '\u0000'": a class of 17 points graded 0. No Java class can
     * be named {@code ._X}.
     */
    public static boolean isSource(Path p) {
        String name = p.getFileName() == null ? "" : p.getFileName().toString();
        return name.endsWith(".java") && !name.startsWith("._");
    }

    /** The student's Java files, by the core that owns their package; unknown packages go to base. */
    Map<String, List<Path>> sourcesByCore() {
        Map<String, List<Path>> out = new LinkedHashMap<>();
        CORES.forEach(c -> out.put(c.name(), new ArrayList<>()));
        if (!Files.isDirectory(sources)) return out;
        try (Stream<Path> s = Files.walk(sources)) {
            for (Path p : s.filter(CoreBuild::isSource)
                    .filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).sorted().toList()) {
                Path parent = sources.relativize(p).getParent();
                String pkg = parent == null ? "" : parent.toString().replace('\\', '/').replace('/', '.');
                String owner = CORES.stream().filter(c -> c.owns(pkg)).map(Core::name).findFirst().orElse("base");
                out.get(owner).add(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * A core's two digests: {@code fingerprint}, of its sources, the cores it is compiled against
     * and the reference that would stand in for it (it decides whether the core is compiled
     * again), and {@code sources}, of its sources alone ({@link #sourcesDigest}).
     */
    private record Stamp(String fingerprint, String sources) {}

    private Stamp stamp(Core core, List<Path> files, Map<String, Outcome> done) {
        try {
            MessageDigest md = sha256();
            MessageDigest own = sha256();
            md.update(("core " + core.name() + "\nreference " + reference.toAbsolutePath() + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            hashSources(files, md, own);
            for (String n : core.needs()) {
                Outcome o = done.get(n);
                md.update((n + (o.student() ? " student " : " reference ")).getBytes(StandardCharsets.UTF_8));
                md.update(fileStamp(o.classes().getParent().resolve(FINGERPRINT)));
            }
            md.update(referenceStamp(core));
            return new Stamp(HexFormat.of().formatHex(md.digest()), HexFormat.of().formatHex(own.digest()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The digest of a core's sources alone: each file's name relative to the student's sources
     * and its bytes, in {@link #sourcesByCore}'s (sorted) order. Equal exactly when the same
     * files hold the same text.
     */
    private String sourcesDigest(List<Path> files) throws IOException {
        MessageDigest own = sha256();
        hashSources(files, own);
        return HexFormat.of().formatHex(own.digest());
    }

    /** Feeds each file's relative name and bytes to every digest: the sources are read once. */
    private void hashSources(List<Path> files, MessageDigest... digests) throws IOException {
        for (Path f : files) {
            byte[] name = relative(f).getBytes(StandardCharsets.UTF_8);
            byte[] bytes = Files.readAllBytes(f);
            for (MessageDigest md : digests) {
                md.update(name);
                md.update((byte) 0);
                md.update(bytes);
                md.update((byte) 0);
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The reference classes a fallback would copy change when the reference is rebuilt. */
    private byte[] referenceStamp(Core core) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String pkg : core.packages()) {
            Path dir = reference.resolve(pkg.replace('.', '/'));
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.sorted(Comparator.naturalOrder()).toList()) {
                    sb.append(f.getFileName()).append(' ').append(Files.getLastModifiedTime(f).toMillis())
                      .append(' ').append(Files.size(f)).append('\n');
                }
            }
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] fileStamp(Path f) throws IOException {
        return Files.isRegularFile(f) ? Files.readAllBytes(f) : new byte[0];
    }

    private static CompileError parseError(String line) {
        String[] f = line.split("\t", 3);
        return f.length == 3 ? new CompileError(f[0], Long.parseLong(f[1]), f[2]) : new CompileError("?", 0, line);
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(q);
        }
    }
}
