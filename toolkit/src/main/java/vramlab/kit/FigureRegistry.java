package vramlab.kit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Finds a chapter's figures by convention, so a chapter author registers nothing: every
 * {@code public static String figureXxx()} method, with no parameters, of any top-level class
 * in the package of the chapter's {@link ChapterLab} (in any jar or folder on the classpath) is
 * one figure. Its file name is the rest of the method name in kebab case:
 * {@code figureSplitMerge()} becomes {@code figures/split-merge.svg}, which the notes show with
 * {@code image::figures/split-merge.svg[]}. The build also writes it as
 * {@code figures/chNN-split-merge.svg}, for notes that prefix figure names with the chapter.
 *
 * <p>One set of rules for both writers of these files: the site build ({@code vramlab.site}) and
 * a release, whose notes are read without the site ({@code vramlab.cli.NotesGenerated}).
 */
public final class FigureRegistry {
    /** One figure: its file name without {@code .svg} and the method that draws it. */
    public record Figure(String name, Method method) {
        public String draw() {
            try {
                Object svg = method.invoke(null);
                if (svg == null) throw new IllegalStateException(where() + " returned null");
                return (String) svg;
            } catch (InvocationTargetException e) {
                throw new IllegalStateException(where() + " failed: " + e.getCause(), e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(where() + " is not accessible", e);
            }
        }

        public String where() {
            return method.getDeclaringClass().getName() + "." + method.getName() + "()";
        }
    }

    private FigureRegistry() {}

    /** The chapter's figures by name, sorted; two methods that make one name are an error. */
    public static Map<String, Figure> figures(ChapterLab chapter) {
        Map<String, Figure> out = new TreeMap<>();
        for (Class<?> c : classesOf(chapter.getClass())) {
            for (Method m : c.getDeclaredMethods()) {
                if (!isFigure(m)) continue;
                Figure f = new Figure(fileName(m.getName()), m);
                Figure old = out.put(f.name(), f);
                if (old != null) {
                    throw new IllegalStateException(chapter.id() + ": figure '" + f.name() + "' is drawn by both "
                            + old.where() + " and " + f.where());
                }
            }
        }
        return out;
    }

    public static boolean isFigure(Method m) {
        int mod = m.getModifiers();
        return Modifier.isPublic(mod) && Modifier.isStatic(mod) && m.getParameterCount() == 0
                && m.getReturnType() == String.class && m.getName().startsWith("figure")
                && m.getName().length() > "figure".length()
                && Character.isUpperCase(m.getName().charAt("figure".length()));
    }

    /**
     * The chapter's worked examples by step id: every {@code public static String exampleN_M()}
     * (no parameters) of a top-level class in its package draws step N.M's example as AsciiDoc,
     * from the reference simulator, when the site is built; the notes include it with
     * {@code include::{generated}/step-N.M.adoc[]}.
     */
    public static Map<String, Method> examples(ChapterLab chapter) {
        Map<String, Method> out = new TreeMap<>();
        for (Class<?> c : classesOf(chapter.getClass())) {
            for (Method m : c.getDeclaredMethods()) {
                int mod = m.getModifiers();
                if (!Modifier.isPublic(mod) || !Modifier.isStatic(mod) || m.getParameterCount() != 0
                        || m.getReturnType() != String.class || !m.getName().matches("example\\d+_\\d+")) continue;
                String step = m.getName().substring("example".length()).replace('_', '.');
                Method old = out.put(step, m);
                if (old != null) {
                    throw new IllegalStateException(chapter.id() + ": step " + step + "'s example is drawn by both "
                            + old.getDeclaringClass().getName() + " and " + c.getName());
                }
            }
        }
        return out;
    }

    /**
     * The chapter's generated outputs by name: every {@code public static String outputXxx()} (no
     * parameters) of a top-level class in its package prints what the simulator says for one
     * example in the prose (a worked example's numbers, the output that refutes a misconception),
     * when the site is built; the notes include it, inside a literal block, with
     * {@code include::{generated}/output-xxx.txt[]} ({@code outputSmallPool} -> {@code small-pool}).
     */
    public static Map<String, Method> outputs(ChapterLab chapter) {
        Map<String, Method> out = new TreeMap<>();
        for (Class<?> c : classesOf(chapter.getClass())) {
            for (Method m : c.getDeclaredMethods()) {
                int mod = m.getModifiers();
                if (!Modifier.isPublic(mod) || !Modifier.isStatic(mod) || m.getParameterCount() != 0
                        || m.getReturnType() != String.class || !m.getName().startsWith("output")
                        || m.getName().length() == "output".length()
                        || !Character.isUpperCase(m.getName().charAt("output".length()))) continue;
                String name = kebab(m.getName().substring("output".length()));
                Method old = out.put(name, m);
                if (old != null) {
                    throw new IllegalStateException(chapter.id() + ": output '" + name + "' is printed by both "
                            + old.getDeclaringClass().getName() + " and " + c.getName());
                }
            }
        }
        return out;
    }

    /** Runs one example method; its failure names the method. */
    public static String example(Method m) {
        try {
            return (String) m.invoke(null);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(m.getDeclaringClass().getName() + "." + m.getName() + "() failed: "
                    + e.getCause(), e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(m + " is not accessible", e);
        }
    }

    /**
     * Writes what the notes include from {@code lab}: each figure under {@code figures} (by name
     * and by its chapter-prefixed alias), each worked example ({@code step-N.M.adoc}) and output
     * ({@code output-xxx.txt}) under {@code generated}, and the lab's run there too, under two
     * names ({@code lab-output.txt}, and {@code chNN-slug.txt} for {@code {labout}}). Returns the
     * number of figures. A figure or example that cannot be drawn throws
     * {@link IllegalStateException} naming its method.
     */
    public static int write(ChapterLab lab, Path generated, Path figures) throws IOException {
        Files.createDirectories(generated);
        Files.createDirectories(figures);
        int n = 0;
        for (Figure f : figures(lab).values()) {
            String svg = f.draw();
            Files.writeString(figures.resolve(f.name() + ".svg"), svg, StandardCharsets.UTF_8);
            Files.writeString(figures.resolve(prefixed(lab.id(), f.name()) + ".svg"), svg, StandardCharsets.UTF_8);
            n++;
        }
        for (Map.Entry<String, Method> e : examples(lab).entrySet()) {
            Files.writeString(generated.resolve("step-" + e.getKey() + ".adoc"), example(e.getValue()), StandardCharsets.UTF_8);
        }
        for (Map.Entry<String, Method> e : outputs(lab).entrySet()) {
            Files.writeString(generated.resolve("output-" + e.getKey() + ".txt"), example(e.getValue()), StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            lab.run(ps);
        }
        String run = buf.toString(StandardCharsets.UTF_8);
        Files.writeString(generated.resolve("lab-output.txt"), run, StandardCharsets.UTF_8);
        Files.writeString(generated.resolve(lab.id() + ".txt"), run, StandardCharsets.UTF_8);
        return n;
    }

    /** The chapter-prefixed alias of a figure's name: ({@code ch05-x}, {@code pages}) -> {@code ch05-pages}. */
    public static String prefixed(String chapterId, String name) {
        return chapterId.substring(0, 4) + "-" + name;
    }

    /** The names a chapter's notes may show: each figure's name and its prefixed alias. */
    public static java.util.Set<String> shownNames(ChapterLab chapter) {
        java.util.Set<String> out = new TreeSet<>();
        for (String n : figures(chapter).keySet()) {
            out.add(n);
            out.add(prefixed(chapter.id(), n));
        }
        return out;
    }

    /** {@code figureSplitMerge} -> {@code split-merge}; {@code figureOom2} -> {@code oom2}. */
    public static String fileName(String method) {
        return kebab(method.substring("figure".length()));
    }

    /** {@code SplitMerge} -> {@code split-merge}. */
    public static String kebab(String rest) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rest.length(); i++) {
            char ch = rest.charAt(i);
            if (Character.isUpperCase(ch)) {
                if (i > 0) sb.append('-');
                sb.append(Character.toLowerCase(ch));
            } else {
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    /** Top-level classes of {@code anchor}'s package, across every classpath entry that has it. */
    public static List<Class<?>> classesOf(Class<?> anchor) {
        String pkg = anchor.getPackageName();
        String dir = pkg.replace('.', '/');
        ClassLoader loader = anchor.getClassLoader();
        TreeSet<String> names = new TreeSet<>();
        try {
            Enumeration<URL> roots = loader.getResources(dir);
            while (roots.hasMoreElements()) names.addAll(classNames(roots.nextElement(), dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Class<?>> out = new ArrayList<>();
        for (String n : names) {
            try {
                out.add(Class.forName(pkg + "." + n, false, loader));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("listed but not loadable: " + pkg + "." + n, e);
            }
        }
        return out;
    }

    private static List<String> classNames(URL root, String dir) throws IOException {
        List<String> out = new ArrayList<>();
        if (root.getProtocol().equals("file")) {
            try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
                files.map(p -> p.getFileName().toString()).forEach(f -> addIfTopLevel(out, f));
            } catch (URISyntaxException e) {
                throw new IOException(root + ": " + e.getMessage(), e);
            }
        } else if (root.getProtocol().equals("jar")) {
            JarURLConnection c = (JarURLConnection) root.openConnection();
            c.setUseCaches(false);
            try (JarFile jar = c.getJarFile()) {
                jar.stream().map(e -> e.getName())
                   .filter(n -> n.startsWith(dir + "/") && n.indexOf('/', dir.length() + 1) < 0)
                   .forEach(n -> addIfTopLevel(out, n.substring(dir.length() + 1)));
            }
        }
        return out;
    }

    private static void addIfTopLevel(List<String> out, String file) {
        if (file.endsWith(".class") && !file.contains("$") && !file.equals("package-info.class")) {
            out.add(file.substring(0, file.length() - ".class".length()));
        }
    }
}
