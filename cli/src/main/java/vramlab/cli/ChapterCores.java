package vramlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import vramlab.kit.ChapterLab;
import vramlab.quiz.build.CoreBuild;

/**
 * Which of the student's cores a chapter's {@code lab} and {@code jshell} run: those whose
 * packages the chapter's classes use, directly or through the kit's other classes (the toolkit's
 * replayer, figures, judge...), and the cores those need. {@code lab 3} then compiles base, gmmu,
 * driver and alloc, not pinned or contest (which only chapters 7 and 8 use), so a change to
 * {@code alloc} no longer recompiles them, nor does a pinned core that does not compile print its
 * errors before chapter 3's lab.
 *
 * <p>Read from the class files, not declared: every class of the chapter's module (its lab, its
 * figures, its JShell examples, its quiz), then each kit class they name, transitively. A class
 * file names every class it uses in its constant pool, as {@code vramlab/alloc/Block} (in a
 * class entry, or inside a descriptor, {@code (Lvramlab/alloc/Block;)V}), in plain ASCII, so
 * the names are found by scanning its bytes. A class reached only by reflection would be missed;
 * the kit's chapters reach the cores by plain calls ({@code ChapterCoresTest} holds each
 * chapter's set, {@code ChapterCoresLoadedTest} each lab's loaded classes against it). A core not in the set still runs,
 * as handed out ({@link StudentCores#forChapter}), so nothing is ever missing from the class path.
 */
final class ChapterCores {
    private ChapterCores() {}

    /** {@code vramlab/<package>/<Class>}, as a class file writes a name. */
    private static final Pattern NAME = Pattern.compile("vramlab/[A-Za-z0-9_/$]+");

    /**
     * {@link #of}, remembered in {@code work/chapters/<chapter>.txt} with the class path it was read
     * from (each entry's name, size and time): the walk reads a few hundred class files, ~0.1 s
     * of CPU on each {@code lab 3}, more than a compile it spares when nothing changed.
     */
    static List<String> of(ChapterLab c, Path work) {
        Path file = work.resolve("chapters").resolve(c.id() + ".txt");
        String stamp = classPathStamp();
        if (stamp == null) return of(c);
        try {
            if (Files.isRegularFile(file)) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                if (lines.size() == 2 && lines.get(0).equals(stamp)) return List.of(lines.get(1).split(" "));
            }
            List<String> cores = of(c);
            Files.createDirectories(file.getParent());
            Files.write(file, List.of(stamp, String.join(" ", cores)), StandardCharsets.UTF_8);
            return cores;
        } catch (IOException | RuntimeException e) {
            return of(c);
        }
    }

    /**
     * This JVM's class path, each entry with its size and time: a rebuilt jar changes it. Null
     * when an entry is a folder (a test run, an IDE), whose time does not follow the classes in it.
     */
    private static String classPathStamp() {
        StringBuilder sb = new StringBuilder();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            java.io.File f = new java.io.File(entry);
            if (f.isDirectory()) return null;
            sb.append(entry).append(',').append(f.length()).append(',').append(f.lastModified()).append(';');
        }
        return Integer.toHexString(sb.toString().hashCode()) + "-" + sb.length();
    }

    /** The cores chapter {@code c} runs, with those they need, in {@link CoreBuild#CORES} order. */
    static List<String> of(ChapterLab c) {
        Set<String> packages = packagesReached(c.getClass());
        Matcher imports = Pattern.compile("\\bvramlab\\.(\\w+)\\.").matcher(startup(c));
        while (imports.find()) packages.add("vramlab." + imports.group(1));       // what its JShell session imports
        Set<String> wanted = new HashSet<>();
        for (CoreBuild.Core core : CoreBuild.CORES) {
            if (core.packages().stream().anyMatch(packages::contains)) {
                wanted.add(core.name());
                wanted.addAll(core.needs());
            }
        }
        wanted.add("base");
        return CoreBuild.CORES.stream().map(CoreBuild.Core::name).filter(wanted::contains).toList();
    }

    private static String startup(ChapterLab c) {
        try {
            return c.jshellStartup();
        } catch (RuntimeException e) {
            return "";
        }
    }

    /**
     * The {@code vramlab} packages (dotted) that the classes of {@code chapter}'s module use,
     * following the kit's classes outside the cores; the cores' own packages end the walk (what
     * a core uses of another is its {@link CoreBuild.Core#needs}).
     */
    static Set<String> packagesReached(Class<?> chapter) {
        ClassLoader loader = chapter.getClassLoader();
        Set<String> cores = new HashSet<>();
        CoreBuild.CORES.forEach(c -> cores.addAll(c.packages()));
        Set<String> seen = new HashSet<>(classesOf(chapter));
        Deque<String> todo = new ArrayDeque<>(seen);
        Set<String> packages = new TreeSet<>();
        while (!todo.isEmpty()) {
            for (String name : NAMED.computeIfAbsent(todo.pop(), n -> names(loader, n))) {
                int slash = name.lastIndexOf('/');
                String pkg = name.substring(0, slash).replace('/', '.');
                packages.add(pkg);
                if (!cores.contains(pkg) && seen.add(name)) todo.push(name);
            }
        }
        return packages;
    }

    /** The kit classes each class file names, read once per JVM (a test walks every chapter, through the same toolkit). */
    private static final java.util.Map<String, List<String>> NAMED = new java.util.concurrent.ConcurrentHashMap<>();

    /** The {@code vramlab/...} names in the class file of {@code name}; none when the loader has no such class. */
    private static List<String> names(ClassLoader loader, String name) {
        byte[] bytes = read(loader, name);
        if (bytes == null) return List.of();
        List<String> out = new java.util.ArrayList<>();
        Matcher m = NAME.matcher(new String(bytes, StandardCharsets.ISO_8859_1));
        while (m.find()) out.add(m.group());
        return out;
    }

    /** The class file of {@code name} ({@code vramlab/ch03/Lab}), or null when the loader has none. */
    private static byte[] read(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(name + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /** Every class of the jar or folder {@code chapter} was loaded from, as {@code vramlab/ch03/Lab}. */
    static Set<String> classesOf(Class<?> chapter) {
        Set<String> out = new TreeSet<>();
        out.add(chapter.getName().replace('.', '/'));
        Path from;
        try {
            from = Path.of(chapter.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            return out;                                      // its own class alone
        }
        try {
            if (Files.isDirectory(from)) {
                try (Stream<Path> s = Files.walk(from)) {
                    s.filter(p -> p.toString().endsWith(".class"))
                     .forEach(p -> out.add(strip(from.relativize(p).toString().replace('\\', '/'))));
                }
            } else if (Files.isRegularFile(from)) {
                try (JarFile jar = new JarFile(from.toFile())) {
                    jar.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/"))
                       .forEach(n -> out.add(strip(n)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static String strip(String classFile) { return classFile.substring(0, classFile.length() - ".class".length()); }
}
